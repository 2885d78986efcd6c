"""Which core searches, and loading the compiled one: numba's cache, the machine's compile
lock, a damaged cache, compiling in the background, and saying so.

numba is a dependency of the package wherever it has wheels (``pyproject.toml``); elsewhere, or
where it fails to load, the same search runs as Python (``jit.python_core``), with the same
answers and ``nodes``, only slower.  The first use after an install compiles the search (some
10-15 s of CPU) and writes numba's cache next to the modules or, where the package's folder
cannot be written, in the user's cache folder (``NUMBA_CACHE_DIR``, set before numba loads).
That process then saves the compiled code as machine code beside numba's cache, and later
processes load it without numba (``native``): 0.3-0.4 s less of every start.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from . import bounds, native, ordering, ranks, search, tables  # their kernels, for both cores
from .jit import Core, numba_wanted, python_core
from .ranks import suit_tables
from .search import NO_GUESS

CORE_VARIABLE = "STEPPING_STONES_SOLVER"
"""The environment variable that picks the solver's core for a process: ``python`` or ``numba``
(unset or empty: ``DEFAULT_CORE``, or Python where numba is missing)."""
CORES = ("numba", "python")
DEFAULT_CORE = "numba"
"""The core a solver uses unless told otherwise, when numba is installed (``docs/ai.md``)."""

COMPILE_WAIT = 600.0
"""Seconds a process waits for another one that is compiling the core on this machine, before it
compiles it itself."""

PREPARING = "preparing the exact solver (its first use after an install compiles it: 10-15 s of CPU)"
"""What a command says on stderr while it loads the compiled core (``say_while_loading``)."""

_KERNEL_MODULES = tuple(m.__name__.rsplit(".", 1)[1] for m in (ranks, tables, bounds, ordering, search))
_HERE = Path(__file__).parent

Loaded = tuple[Core, tuple[Any, Any]]


class _State:
    """The compiled core of this process, once loaded (or why it cannot be), and its loader."""

    lock = threading.Lock()  # held while the compiled core loads
    python_lock = threading.Lock()
    compiled: Loaded | str | None = None
    python: Loaded | None = None
    background: threading.Thread | None = None


def cache_folder() -> Path | None:
    """Where numba writes its cache for this process: None for next to the modules (numba's own
    choice where that folder can be written), else the user's cache folder."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    pycache = _HERE / "__pycache__"
    try:
        pycache.mkdir(exist_ok=True)
        with tempfile.TemporaryFile(dir=pycache):
            return None
    except OSError:
        from platformdirs import user_cache_dir

        return Path(user_cache_dir("stepping-stones", appauthor=False)) / "numba"


def _prepare_cache() -> None:
    """Point numba at ``cache_folder`` before it makes the search's dispatchers (numba reads
    ``NUMBA_CACHE_DIR`` when it loads, and again before each compilation: a process that loaded
    numba already has its configuration read again here)."""
    folder = cache_folder()
    if folder is None or os.environ.get("NUMBA_CACHE_DIR"):
        return
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    if "numba" in sys.modules:
        from numba.core import config  # type: ignore[import-not-found, import-untyped, unused-ignore]

        config.reload_config()  # type: ignore[no-untyped-call, unused-ignore]


def _cache_files() -> list[Path]:
    """numba's cache files of the search (index ``.nbi`` and data ``.nbc``), where this process's
    numba reads them: ``NUMBA_CACHE_DIR`` if set, else next to the modules."""
    folder = _cache_root()
    found: list[Path] = []
    if folder.is_dir():
        for module in _KERNEL_MODULES:
            found += [p for p in folder.rglob(f"{module}.*") if p.suffix in (".nbi", ".nbc")]
    return found


def _load_compiled() -> Loaded | str:
    """The compiled core and its rank tables, warmed up; or why it cannot be used (a sentence).
    A cache that fails to load is removed and the core compiled again, once."""
    if not numba_wanted():
        return "numba is switched off (NUMBA_DISABLE_JIT)"
    _prepare_cache()
    found = _load_native()
    if found is not None:
        return found
    with _compiling(str(_HERE / "search.py"), os.environ.get("NUMBA_CACHE_DIR", "")):
        _forget_other_sources()
        problem = ""
        for attempt in range(2):
            try:
                from .jit import numba_core

                core = numba_core()
                tables = suit_tables(core.ints, core.fill_suit_tables)
                _warm_up(core, tables)
                _save_native(core)
                _mark_sources()
                return core, tables
            except ImportError as error:
                return f"numba is not installed ({error}): the solver runs as Python"
            except Exception as error:  # numba present but failing: a damaged cache, no compiler
                problem = f"numba could not compile the solver: {error}"
                if attempt == 0:
                    for path in _cache_files():
                        path.unlink(missing_ok=True)
        return problem


def _sources_mark() -> Path:
    """The file beside numba's cache that says it was made from these very sources of the search
    (``native.stamp``)."""
    return _cache_root() / f"numba-sources-{native.stamp()}"


def _forget_other_sources() -> None:
    """numba checks each cached function against its own module's file only: ``search.node``,
    cached before a change of ``ordering`` whose kernels it calls, loaded as it was compiled (a
    search that disagreed with the Python core), and was saved as this installation's machine
    code.  Before numba loads or compiles the search, its cache is removed unless it was made
    from these sources (a git checkout whose pull changed one module; a pip upgrade rewrites
    every file, and numba sees that itself)."""
    try:
        if _sources_mark().is_file():
            return
    except ImportError:  # no llvmlite, so no numba: nothing of its is loaded
        return
    for path in [*_cache_files(), *_cache_root().glob("numba-sources-*")]:
        path.unlink(missing_ok=True)


def _mark_sources() -> None:
    """Say that numba's cache is of these sources (where the folder cannot be written, the next
    process compiles again: the cost of a cache that cannot be kept)."""
    try:
        _sources_mark().touch()
    except OSError:  # pragma: no cover - a cache folder that cannot be written
        return


def _cache_root() -> Path:
    """The folder of numba's cache for this process (``NUMBA_CACHE_DIR``, else next to the
    modules), where the saved machine code lives too (``native``)."""
    return Path(os.environ.get("NUMBA_CACHE_DIR") or _HERE / "__pycache__")


def _load_native() -> Loaded | None:
    """The compiled core from its saved machine code, without numba (``native``), warmed up; None
    where there is none for this installation (or it cannot be loaded: numba's way then)."""
    try:
        core = native.load(_cache_root())
        if core is None:
            return None
        tables = suit_tables(core.ints, core.fill_suit_tables)
        _warm_up(core, tables)
    except Exception:  # no llvmlite, a linker that refuses it: numba compiles or loads its cache
        return None
    return core, tables


def _save_native(core: Core) -> None:
    """Save numba's compiled core as machine code for later processes (``native``); where that
    fails, they load numba as this one did."""
    try:
        native.save(core, _cache_root())
    except Exception:  # pragma: no cover - a folder that cannot be written, a numba without these internals
        return


def _warm_up(core: Core, tables: tuple[Any, Any]) -> None:
    """Load (or compile) every function of the search now, on a one-trick position: both ways in,
    the value (``value_of``) and one question (``at_least``, the claims' referee: left out, a
    fresh install's first claim compiled it then, a second of CPU in a claim in trick 1 --
    docs/lab/2026-12-07-solver-killer-leads.md)."""
    from .kernel import Kernel, layout_of

    par, rules = layout_of(
        core,
        declarer=0,
        win=True,
        trump=0,
        nine_high=True,
        beat_led=False,
        trump_over=False,
        horizon=12,
        counted=[1] * 12,
        counted_left=list(range(12, -1, -1)),
        keys=list(range(36)),
        above=[0] * 36,
        takers=[0] * 36,
    )
    kernel = Kernel(core, tables, par, rules)
    hands = (1 << 0 | 1 << 9, 1 << 1 | 1 << 10, 1 << 2 | 1 << 11)
    kernel.value(hands, 0, 0, 10, 0, 0, 0, 0, 0, 0, NO_GUESS)
    kernel.search(hands, 0, 0, 1, 10, 0, 0, 0, 0, 0, 0)


def compiled_core(wait: bool = True) -> Loaded | str | None:
    """The compiled core (loading it the first time), or why it cannot be used; with ``wait``
    false, None while another thread is still loading it."""
    if _State.compiled is not None:
        return _State.compiled
    if not wait and _State.background is not None and _State.background.is_alive():
        return None
    with _State.lock:
        if _State.compiled is None:
            _State.compiled = _load_compiled()
    return _State.compiled


def python_tables() -> Loaded:
    """The Python core and its rank tables (built once per process: about a second of CPU)."""
    with _State.python_lock:
        if _State.python is None:
            core = python_core()
            _State.python = (core, suit_tables(core.ints, core.fill_suit_tables))
    return _State.python


def load_in_background() -> threading.Thread:
    """Start loading the compiled core in a thread (the app, as it starts): until it is ready,
    solvers that did not ask for a core by name use the Python one."""
    with _State.python_lock:
        if _State.background is None:
            _State.background = threading.Thread(target=_load_unless_python, name="solver-compile", daemon=True)
            _State.background.start()
        return _State.background


def _load_unless_python() -> None:
    """The background load: nothing where ``STEPPING_STONES_SOLVER=python`` chose the Python core."""
    if os.environ.get(CORE_VARIABLE, "") != "python":
        compiled_core()


def compiled_core_problem() -> str | None:
    """Why the compiled core cannot be used in this process (None: it can)."""
    found = compiled_core()
    return found if isinstance(found, str) else None


def compiled_core_ready() -> bool:
    """Whether the compiled core is loaded (or known to be unusable): nothing left to prepare."""
    return _State.compiled is not None


def choose_core(core: str | None = None) -> str:
    """The core a solver uses: ``core`` if given, else the ``STEPPING_STONES_SOLVER`` variable,
    else ``DEFAULT_CORE``.  Asked for by name, ``numba`` must be usable (``RuntimeError``
    otherwise); by default a machine without numba uses the Python core, and so does a solver
    made while the compiled core is still loading in the background."""
    asked = core or os.environ.get(CORE_VARIABLE, "")
    if asked and asked not in CORES:
        raise ValueError(f"unknown solver core {asked!r} (choose {' or '.join(CORES)})")
    name = asked or DEFAULT_CORE
    if name == "numba":
        found = compiled_core(wait=bool(asked))
        if found is None or isinstance(found, str):
            if asked:
                raise RuntimeError(found)
            return "python"
    return name


def loaded(name: str) -> Loaded:
    """The core called ``name`` (as ``choose_core`` returned it) and its rank tables."""
    if name == "numba":
        found = compiled_core()
        assert not isinstance(found, str | None), found  # choose_core checked it
        return found
    return python_tables()


def compile_needed() -> bool:
    """Whether loading the compiled core will compile it: numba is here, wanted, and its cache of
    the search is not (the first use after an install, or a cache that was removed)."""
    if _State.compiled is not None or os.environ.get(CORE_VARIABLE, "") == "python" or not numba_wanted():
        return False
    if importlib.util.find_spec("numba") is None:
        return False
    _prepare_cache()
    if native.saved_path(_cache_root()).is_file():
        return False
    if not _sources_mark().is_file():  # numba's cache, if any, is of other sources: it goes
        return True
    return not any(p.name.startswith("search.node-") and p.suffix == ".nbi" for p in _cache_files())


def say_while_loading(say: Callable[[str], None]) -> None:
    """Load the compiled core now, first telling ``say`` what is being prepared when that means
    compiling it (``hint``, ``analyse`` and ``bench`` say it on stderr)."""
    if compile_needed():
        say(PREPARING)
    compiled_core()


def compile_lock_path(source: str, cache: str = "") -> str:
    """The lock file of compiling the core at ``source`` into numba's cache folder ``cache`` (""
    for next to the modules): one per user, installation and cache folder.  A process that reads
    another cache folder has nothing to wait for: the cache being written is not the one it loads."""
    key = os.path.realpath(source) + ("\0" + os.path.realpath(cache) if cache else "")
    name = hashlib.sha256(key.encode()).hexdigest()[:16]
    user = os.getuid() if hasattr(os, "getuid") else 0
    return os.path.join(tempfile.gettempdir(), f"stepping-stones-{user}-{name}.lock")


@contextmanager
def _compiling(source: str, cache: str = "") -> Iterator[None]:
    """Hold the machine's lock on compiling the core at ``source`` into the cache folder ``cache``:
    the first process to load it on a fresh install compiles it and writes numba's cache; others
    that start meanwhile (the tabs of ``serve``, test processes) wait, then load that cache instead
    of compiling it again each.  Where no lock can be made, or the wait is too long, it goes on
    without one (numba's cache stays correct either way; only the work is repeated).  filelock is
    imported here: a process that loads the saved machine code never compiles (some 20 ms of
    imports less at every start)."""
    from filelock import FileLock, Timeout

    lock = FileLock(compile_lock_path(source, cache), timeout=COMPILE_WAIT)
    try:
        lock.acquire()
    except (OSError, Timeout):
        yield
        return
    try:
        yield
    finally:
        lock.release()
