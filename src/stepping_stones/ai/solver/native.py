"""The compiled core without numba at run time: the search's machine code, as numba compiled it,
saved once and loaded by llvmlite alone.

A process that loads numba spends some 0.35-0.45 s of CPU before it searches anything: numba's
own import (0.3 s, with numpy's), then its target's registries and its cache.  ``analyse`` of a
whole game, ``hint``, a server's start pay it each time.  The code numba compiles needs none of
it: the search's entry points (``ENTRY_POINTS``) are self-contained machine code, which calls
nothing of numba's and makes no arrays (``jit``).  So once a process has the compiled core from
numba (compiled, or from numba's cache), it saves their object code next to numba's cache
(``save``); later processes load it with llvmlite's linker (``load``, some 10 ms after
llvmlite's import, 0.05 s), call it through ``ctypes`` (which lets go of Python's lock, as
numba's ``nogil`` did) and never import numba or numpy.

The saved file is keyed by ``stamp``: the search's sources, Python's and llvmlite's versions and
the host's processor and its features (the code is compiled for this processor).  Any change
gives another file, written by the next process that loads numba.  The file carries a SHA-256
of its contents and is not loaded if it does not match.

How it is called.  numba's compiled function takes its arguments flattened: an ``int64`` is one
word, a 1-d array seven (its runtime's record, the parent object, the length, the item size,
the data, the shape and the stride); it returns a status and writes its result through a
pointer.  A *shim* per entry point, a few lines of LLVM compiled with the rest, reads the
arguments from one block of words and returns the result (``_FAILED`` for a status that says
the function raised, which the search never does): one ``ctypes`` call with one argument,
about a microsecond, where seventy arguments would cost ten.  A solver's arrays are written
into its block once (``Core.bind``: one block for ``at_least`` and ``value_of``, handed on with
the arrays to the next solver, which rewrites only its parameters' and rules' words); each call
writes only its integers.

The object code also holds the two wrappers numba adds to each function, for Python callers and
for C callers, which name six of numba's helpers (``_HELPERS``).  They are never called here;
the linker gets the address of a function that aborts for each, so that nothing is left
unresolved.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import mmap
import os
import pickle
import sys
import tempfile
from array import array as array_of
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import bounds, jit, layout, ordering, ranks, search, tables

ENTRY_POINTS = ("value_of", "at_least", "fill_suit_tables")
"""The search's functions that Python calls (``kernel``, ``ranks.suit_tables``)."""

_HELPERS = (
    "numba_adapt_ndarray",
    "numba_do_raise",
    "numba_gil_ensure",
    "numba_gil_release",
    "numba_runtime_build_excinfo_struct",
    "numba_unpickle",
)
"""numba's helpers that the wrappers in the object code name (never called here)."""

_MAGIC = b"stepping-stones native search 1\n"
_FAILED = -(1 << 63)
_ARRAY_WORDS = 7
_SOURCES = (jit, ranks, tables, bounds, ordering, search, layout)

Entry = tuple[str, bytes, str]
"""An entry point as saved: its symbol, numba's object code, its argument kinds (``I``/``V``)."""


def stamp() -> str:
    """What the saved code depends on, as a short hash: the search's sources, Python, llvmlite,
    and the processor it was compiled for."""
    import llvmlite  # type: ignore[import-not-found, import-untyped, unused-ignore]
    import llvmlite.binding as ll  # type: ignore[import-not-found, import-untyped, unused-ignore]

    digest = hashlib.sha256()
    for module in _SOURCES:
        digest.update(Path(str(module.__file__)).read_bytes())
    machine = (sys.version, llvmlite.__version__, ll.get_host_cpu_name(), ll.get_host_cpu_features().flatten())
    digest.update(repr(machine).encode())
    return digest.hexdigest()[:24]


def saved_path(folder: Path) -> Path:
    """Where this installation's machine code is saved, in numba's cache ``folder``."""
    return folder / f"native-search-{stamp()}.bin"


# --- saving, from a process that has numba's compiled core -------------------------------------


def save(core: jit.Core, folder: Path) -> None:
    """Save the machine code of ``core`` (numba's, loaded) in ``folder`` for later processes.
    Raises what numba or the file system raise; the caller goes on without it."""
    import llvmlite.binding as ll

    entries: dict[str, Entry] = {}
    for name in ENTRY_POINTS:
        dispatcher: Any = core.functions[name]
        ((signature, result),) = dispatcher.overloads.items()
        cache = dispatcher._cache
        data = cache._cache_file.load(cache._index_key(signature, result.target_context.codegen()))
        code = _object_code(data)
        if code is None:
            raise RuntimeError(f"numba's cache holds no object code for {name}")
        kinds = "".join("V" if getattr(t, "ndim", 0) == 1 else "I" for t in signature)
        entries[name] = (result.fndesc.llvm_func_name, code, kinds)
    machine = _machine(ll)
    shims = machine.emit_object(ll.parse_assembly(_shim_ir(entries)))
    payload = pickle.dumps({"entries": entries, "shims": shims})
    folder.mkdir(parents=True, exist_ok=True)
    target = saved_path(folder)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".native-")
    with os.fdopen(handle, "wb") as out:
        out.write(_MAGIC + hashlib.sha256(payload).digest() + payload)
    os.replace(temporary, target)


def _object_code(data: Any, depth: int = 0) -> bytes | None:
    """The object code in numba's cached record of a function (its library, ``(name, 'object',
    (code, bitcode))``)."""
    if isinstance(data, tuple) and len(data) == 3 and data[1] == "object":
        code = data[2][0]
        return bytes(code)
    if isinstance(data, tuple | list) and depth < 4:
        for item in data:
            found = _object_code(item, depth + 1)
            if found is not None:
                return found
    return None


def _shim_ir(entries: dict[str, Entry]) -> str:
    """LLVM's text of one shim per entry point: ``i64 shim.NAME(ptr block)`` reads the integer
    arguments from the block's first words and each array's seven words after them, calls the
    function and returns its result, or ``_FAILED``."""
    lines: list[str] = []
    for name, (symbol, _code, kinds) in entries.items():
        ints = kinds.count("I")
        words: list[int] = []  # the block's word for each flattened argument
        next_int = 0
        next_array = ints
        for kind in kinds:
            if kind == "I":
                words.append(next_int)
                next_int += 1
            else:
                words += range(next_array, next_array + _ARRAY_WORDS)
                next_array += _ARRAY_WORDS
        lines.append(f'declare i32 @"{symbol}"(ptr, ptr{", i64" * len(words)})')
        lines.append(f'define i64 @"shim.{name}"(ptr %b) {{')
        lines.append("  %ret = alloca i64")
        lines.append("  store i64 0, ptr %ret")
        lines.append("  %exc = alloca ptr")
        for j, word in enumerate(words):
            lines.append(f"  %p{j} = getelementptr i64, ptr %b, i64 {word}")
            lines.append(f"  %a{j} = load i64, ptr %p{j}")
        arguments = "".join(f", i64 %a{j}" for j in range(len(words)))
        lines.append(f'  %st = call i32 @"{symbol}"(ptr %ret, ptr %exc{arguments})')
        lines.append("  %ok0 = icmp eq i32 %st, 0")
        lines.append("  %ok1 = icmp eq i32 %st, -2")  # a function that returns nothing
        lines.append("  %ok = or i1 %ok0, %ok1")
        lines.append("  %v = load i64, ptr %ret")
        lines.append(f"  %r = select i1 %ok, i64 %v, i64 {_FAILED}")
        lines.append("  ret i64 %r")
        lines.append("}")
    return "\n".join(lines) + "\n"


def _machine(ll: Any) -> Any:
    """llvmlite's target machine for this processor, as numba compiles for."""
    target = ll.Target.from_default_triple()
    return target.create_target_machine(
        cpu=ll.get_host_cpu_name(), features=ll.get_host_cpu_features().flatten(), opt=3, codemodel="jitdefault"
    )


# --- loading, in any later process -------------------------------------------------------------


def load(folder: Path) -> jit.Core | None:
    """The compiled core from the machine code saved in ``folder``, without numba; None if none
    is saved for this installation and processor (or it is damaged: then it is removed)."""
    path = saved_path(folder)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(_MAGIC)
    payload = data[head + 32 :]
    if data[:head] != _MAGIC or hashlib.sha256(payload).digest() != data[head : head + 32]:
        path.unlink(missing_ok=True)
        return None
    saved = pickle.loads(payload)
    import llvmlite.binding as ll

    ll.initialize_native_target()
    ll.initialize_native_asmprinter()
    for helper in _HELPERS:
        if not ll.address_of_symbol(helper):  # numba's own, where numba is loaded too
            ll.add_symbol(helper, _ABORT_ADDRESS)
    functions: dict[str, Any] = {}
    for name, (_symbol, code, kinds) in saved["entries"].items():
        # An engine per entry point: each object holds its own copy of the search.  An engine
        # owns its target machine, so each gets one of its own.
        engine = ll.create_mcjit_compiler(ll.parse_assembly(""), _machine(ll))
        engine.add_object_file(ll.ObjectFileRef.from_data(code))
        engine.add_object_file(ll.ObjectFileRef.from_data(saved["shims"]))
        engine.finalize_object()
        shim = _SHIM(engine.get_function_address(f"shim.{name}"))
        functions[name] = _Entry(name, kinds, shim, engine)
    return jit.Core("numba", functions, _ints, _array, compiled=True, bind=_bind, zero=_zero)


_SHIM = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p)


def _abort() -> None:  # pragma: no cover - numba's wrappers are never called here
    os.abort()


_ABORT = ctypes.CFUNCTYPE(None)(_abort)
_ABORT_ADDRESS = ctypes.cast(_ABORT, ctypes.c_void_p).value or 0


class _Entry:
    """An entry point of the saved code: its shim, and what its block holds."""

    def __init__(self, name: str, kinds: str, shim: Any, engine: Any) -> None:
        self.name = name
        self.kinds = kinds
        self.shim = shim
        self.engine = engine  # the code lives as long as its engine

    def __call__(self, *arguments: Any) -> int:
        """A call with every argument, as numba's function takes them (arrays where ``V``)."""
        ints = [a for a, k in zip(arguments, self.kinds, strict=True) if k == "I"]
        arrays = [a for a, k in zip(arguments, self.kinds, strict=True) if k == "V"]
        return int(_bind((self,), arrays).calls[0](*ints))


def _record(array: Any) -> tuple[int, ...]:
    """The seven words numba's function takes for a 1-d ``int64`` array (``ctypes``)."""
    n = len(array)
    return (0, 0, n, 8, ctypes.addressof(array), n, 8)


class _Bound:
    """Entry points with the same arguments (as ``at_least`` and ``value_of``) sharing one block
    of words: their integers first, then each array's seven words.  ``calls`` are the entry
    points as functions of their integers alone.  The block, and so the calls, outlive the
    solver that made them: a later solver handed its arrays (``kernel``) writes its own arrays
    in their places (``rebind``) instead of making a block and calls again."""

    def __init__(self, entries: Sequence[Any], arrays: Sequence[Any]) -> None:
        kinds = entries[0].kinds
        if any(entry.kinds != kinds for entry in entries):
            raise ValueError("entry points bound together must take the same arguments")
        self.entries = tuple(entries)
        self.ints = kinds.count("I")
        words = [0] * self.ints
        for array in arrays:
            words += _record(array)
        self.block = _block_type(len(words)).from_buffer_copy(array_of("q", words))  # 27 us from a list
        self.arrays = list(arrays)  # kept alive as long as the block names them
        where = ctypes.addressof(self.block)
        self.calls = tuple(_call(entry, self.block, where, self.ints) for entry in entries)

    def rebind(self, first: int, arrays: Sequence[Any]) -> None:
        """Put ``arrays`` in the places of the block's arrays ``first``, ``first + 1``, ..."""
        words: tuple[int, ...] = ()
        for array in arrays:
            words += _record(array)
        start = self.ints + _ARRAY_WORDS * first
        self.block[start : start + len(words)] = words
        self.arrays[first : first + len(arrays)] = arrays


def _call(entry: Any, block: Any, where: int, ints: int) -> Callable[..., int]:
    """``entry`` called on ``block`` (at address ``where``), its first ``ints`` words written
    from the arguments."""
    shim = entry.shim
    name = entry.name

    def call(*arguments: int) -> int:
        block[:ints] = arguments
        result: int = shim(where)
        if result == _FAILED:  # pragma: no cover - the search raises nothing
            raise RuntimeError(f"the compiled search failed in {name}")
        return result

    return call


def _bind(entries: Sequence[Any], arrays: Sequence[Any]) -> _Bound:
    """``entries`` (with the same arguments) with their arrays fixed (in the order of their
    signature): see ``_Bound``."""
    return _Bound(entries, arrays)


@functools.cache
def _block_type(n: int) -> Any:
    """The ctypes type of a block of ``n`` words (made once: making a type costs more than the
    block)."""
    return ctypes.c_int64 * n


def _ints(n: int) -> Any:
    """``n`` zeros, ``int64``: memory from the system (``mmap``), which costs nothing until it is
    written, as numpy's ``zeros`` of a large size (the table is reserved at its largest)."""
    memory = mmap.mmap(-1, max(8 * n, 8))
    return (ctypes.c_int64 * n).from_buffer(memory)


def _zero(array: Any, n: int) -> None:
    """Set the first ``n`` items of ``array`` to 0."""
    ctypes.memset(ctypes.addressof(array), 0, 8 * n)


def _array(values: list[int]) -> Any:
    """These values as ``int64`` (copied from an ``array``: 2 us for a solver's parameters, where
    the ctypes type called with the values took 9 us)."""
    return _block_type(len(values)).from_buffer_copy(array_of("q", values))
