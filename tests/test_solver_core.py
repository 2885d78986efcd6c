"""The solver's two cores are one search: where numba is missing the same code runs as Python;
loading the compiled one says so when it compiles, writes its cache where it can, survives a
damaged cache, and does not hold up solvers while it loads in the background."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from stepping_stones.ai.solver import CORE_VARIABLE, PREPARING, Solver, choose_core, core, native
from stepping_stones.engine import CONTRACTS, NINE_HIGH, cards_of, deal, mask_of
from stepping_stones.game.match import Seeds


def run_python(code: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter with this one's environment, plus ``env``."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, **(env or {})}, check=False
    )


def nine_tricks() -> tuple[int, ...]:
    """A deal's hands cut to their nine lowest cards: nine tricks to solve, some 10,000 positions
    (a whole hand is 200,000, four seconds of the Python core's CPU, and proves no more here:
    tests/test_solver.py has the two cores search the same positions everywhere)."""
    return tuple(mask_of(sorted(cards_of(hand))[:9]) for hand in deal(Seeds("core-test").deal(1)))


NINE_TRICKS = """
import json
from stepping_stones.ai.solver import Solver, choose_core, compiled_core_problem
from stepping_stones.engine import CONTRACTS, NINE_HIGH
from test_solver_core import nine_tricks
solver = Solver(CONTRACTS["lose-no-trump"], NINE_HIGH, None, 1)
value = solver.value(nine_tricks(), 1)
print(json.dumps([choose_core(), compiled_core_problem(), value, solver.nodes]))
"""


def test_loading_the_compiled_core_loads_every_way_into_the_search():
    """numba's dispatchers of the value and of the claims' single question (``at_least``) are
    both ready once the core is loaded: a fresh install's first claim compiled the question then,
    a second of CPU.  (The saved machine code holds both: ``native.ENTRY_POINTS``.)"""
    if core.compiled_core_problem() is not None:
        pytest.skip(f"the compiled core cannot run here: {core.compiled_core_problem()}")
    from stepping_stones.ai.solver.jit import numba_core
    from stepping_stones.ai.solver.ranks import suit_tables

    compiled = numba_core()
    core._warm_up(compiled, suit_tables(compiled.ints, compiled.fill_suit_tables))
    assert {n: len(compiled.functions[n].signatures) for n in ("value_of", "at_least")} == {
        "value_of": 1,
        "at_least": 1,
    }
    assert set(native.ENTRY_POINTS) >= {"value_of", "at_least"}


REGISTRIES = ("numba.np.linalg", "numba.typed.typeddict", "numba.cpython.unicode", "numba.np.arrayobj")


def test_the_compiled_core_loads_from_numbas_cache_without_its_registries():
    """A process that loads the compiled core from numba's cache (the saved machine code left
    out) does so without numba's registries of what it could compile (its linear algebra, typed
    containers, strings, array code: 0.1 s of CPU at each start), and solves with it as before."""
    if core.compiled_core_problem() is not None:
        pytest.skip(f"the compiled core cannot run here: {core.compiled_core_problem()}")
    found = run_python(
        "from stepping_stones.ai.solver import native\nnative.load = lambda folder: None\n"
        + NINE_TRICKS
        + f"import sys\nprint(json.dumps(['numba' in sys.modules, [m for m in {REGISTRIES!r} if m in sys.modules]]))\n",
        {CORE_VARIABLE: "numba", "PYTHONPATH": pythonpath_here()},
    )
    assert found.returncode == 0, found.stderr
    solved, modules = found.stdout.splitlines()
    solver = Solver(CONTRACTS["lose-no-trump"], NINE_HIGH, None, 1, core="numba")
    assert json.loads(solved) == ["numba", None, solver.value(nine_tricks(), 1), solver.nodes]
    assert json.loads(modules) == [True, []]


def test_a_process_solves_with_the_saved_machine_code_without_numba():
    """Once a process has loaded numba's compiled core, it saves the machine code
    (``native``), and a later process solves with it without importing numba or numpy (0.35-0.45 s
    of CPU at each start of ``analyse`` or ``hint``): the same value and positions, and the
    claims' question too."""
    if core.compiled_core_problem() is not None:
        pytest.skip(f"the compiled core cannot run here: {core.compiled_core_problem()}")
    assert native.saved_path(core._cache_root()).is_file()
    found = run_python(
        NINE_TRICKS + "import sys\n"
        "print(json.dumps([solver._search.search(nine_tricks(), 0, 2, 1, 3, 0, 0, 0, 0, 0, 0),"
        " 'numba' in sys.modules, 'numpy' in sys.modules]))\n",
        {CORE_VARIABLE: "numba", "PYTHONPATH": pythonpath_here()},
    )
    assert found.returncode == 0, found.stderr
    solved, asked = found.stdout.splitlines()
    solver = Solver(CONTRACTS["lose-no-trump"], NINE_HIGH, None, 1, core="python")
    assert json.loads(solved) == ["numba", None, solver.value(nine_tricks(), 1), solver.nodes]
    question = solver._search.search(nine_tricks(), 0, 2, 1, 3, 0, 0, 0, 0, 0, 0)
    assert json.loads(asked) == [question, False, False]


def pythonpath_here() -> str:
    """``PYTHONPATH`` for a fresh interpreter that imports this file's helpers."""
    return os.pathsep.join(p for p in (str(Path(__file__).parent), os.environ.get("PYTHONPATH")) if p)


def test_without_numba_the_same_search_runs_as_python():
    """A process where numba and llvmlite cannot be imported (as on a platform numba has no wheels
    for: it brings llvmlite) solves
    with the Python core, and finds the value and searches the positions this process does."""
    path = os.pathsep.join(p for p in (str(Path(__file__).parent), os.environ.get("PYTHONPATH")) if p)
    found = run_python(
        "import sys; sys.modules['numba'] = sys.modules['llvmlite'] = None\n" + NINE_TRICKS,
        {CORE_VARIABLE: "", "PYTHONPATH": path},
    )
    assert found.returncode == 0, found.stderr
    name, problem, value, nodes = json.loads(found.stdout)
    assert name == "python" and "numba is not installed" in problem
    solver = Solver(CONTRACTS["lose-no-trump"], NINE_HIGH, None, 1)
    assert [value, nodes] == [solver.value(nine_tricks(), 1), solver.nodes]
    assert nodes > 5000  # nine tricks: a search of thousands of positions, each counted alike


def test_numba_caches_in_the_users_cache_folder_when_the_package_folder_cannot_be_written(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert core.cache_folder() is None  # this checkout's folder can be written: numba's own choice
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setattr(core, "_HERE", blocked / "solver")  # no folder can be made under a file
    folder = core.cache_folder()
    assert folder is not None and folder.is_relative_to(tmp_path / "cache") and folder.name == "numba"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert core.cache_folder() == tmp_path / "mine"  # the user's own choice first


def test_solvers_use_the_python_core_while_the_compiled_one_loads_in_the_background(monkeypatch):
    release = threading.Event()
    loading = threading.Thread(target=release.wait)
    loading.start()
    monkeypatch.setattr(core._State, "compiled", None)
    monkeypatch.setattr(core._State, "background", loading)
    monkeypatch.delenv(CORE_VARIABLE, raising=False)
    try:
        assert choose_core() == "python"
        assert Solver(CONTRACTS["win-no-trump"], NINE_HIGH, None, 0).core == "python"
    finally:
        release.set()
        loading.join()


def test_loading_says_what_it_prepares_only_when_it_compiles(monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(core, "compiled_core", lambda wait=True: "not loaded in this test")
    monkeypatch.setattr(core, "compile_needed", lambda: True)
    core.say_while_loading(said.append)
    monkeypatch.setattr(core, "compile_needed", lambda: False)
    core.say_while_loading(said.append)
    assert said == [PREPARING]


def test_an_empty_cache_folder_needs_compiling(tmp_path, monkeypatch):
    if core.compiled_core_problem() is not None:
        pytest.skip("numba cannot run here")
    monkeypatch.setattr(core._State, "compiled", None)
    monkeypatch.delenv(CORE_VARIABLE, raising=False)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(core, "_HERE", tmp_path / "package")  # no cache of the package's own either
    assert core.compile_needed()
    (tmp_path / "solver_x").mkdir()
    (tmp_path / "solver_x" / "search.node-43.py311.nbi").write_bytes(b"")
    assert core.compile_needed()  # a cache of other sources, or of sources unknown: it goes
    core._mark_sources()
    assert not core.compile_needed()


def test_numba_s_cache_of_other_sources_is_not_loaded(tmp_path, monkeypatch):
    """numba checks a cached function against its own module's file only: ``search.node`` cached
    before ``ordering`` changed loaded as it was (the compiled core then searched other positions
    than the Python core, seen by a helper after several edits), and was saved as machine code.
    numba's cache of the search goes unless it is marked as made from these very sources."""
    if core.compiled_core_problem() is not None:
        pytest.skip("numba cannot run here")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    (tmp_path / "solver_x").mkdir()
    cached = [tmp_path / "solver_x" / name for name in ("search.node-43.py311.nbi", "ordering.fill-9.py311.1.nbc")]
    other = tmp_path / "elsewhere.f-1.py311.nbi"  # not the search's: left alone
    for path in (*cached, other):
        path.write_bytes(b"cached")
    (tmp_path / "numba-sources-0123456789ab0123456789ab").write_bytes(b"")  # of sources before
    core._forget_other_sources()
    assert not any(p.exists() for p in cached) and other.exists()
    assert not list(tmp_path.glob("numba-sources-*"))
    core._mark_sources()  # compiled from these sources: kept from now on
    for path in cached:
        path.write_bytes(b"cached")
    core._forget_other_sources()
    assert all(p.exists() for p in cached)


def damage(folder: Path) -> int:
    """Cut every cache file of numba's under ``folder``, and the saved machine code
    (``native``), in half and spoil its first bytes."""
    files = [p for p in folder.rglob("*") if p.suffix in (".nbi", ".nbc") or p.name.startswith("native-search-")]
    for path in files:
        data = bytearray(path.read_bytes()[: max(1, path.stat().st_size // 2)])
        data[: min(8, len(data))] = b"\xff" * min(8, len(data))
        path.write_bytes(bytes(data))
    return len(files)


@pytest.mark.xdist_group("compiles")
def test_hint_says_it_compiles_and_a_damaged_cache_is_rebuilt(tmp_path):
    """A first ``hint`` on a fresh cache says on stderr that it prepares the solver; with that
    cache damaged, the next ``hint`` gives the same answer, with no traceback."""
    from stepping_stones.ai import make_ai
    from stepping_stones.engine import Game, Rules
    from stepping_stones.game.match import drive
    from stepping_stones.storage.records import record_from_game, write_record

    if core.compiled_core_problem() is not None:
        pytest.skip("numba cannot run here")
    seeds = Seeds("cache-test")
    game = Game(Rules(), first_forehand=seeds.first_forehand())
    count = [0]

    def stop(_game: Game) -> bool:
        count[0] += 1
        return count[0] > 20

    drive(game, [make_ai("heuristic")] * 3, seeds, stop=stop)
    record = tmp_path / "game.json"
    write_record(record, record_from_game(game))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), CORE_VARIABLE: ""}
    command = [sys.executable, "-m", "stepping_stones", "hint", str(record), "--json"]
    first = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert first.returncode == 0, first.stderr
    assert first.stderr == f"hint: {PREPARING}\n"
    assert damage(tmp_path / "cache") > 0
    again = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert again.returncode == 0, again.stderr
    assert "Traceback" not in again.stderr
    assert json.loads(again.stdout) == json.loads(first.stdout)
    saved = list((tmp_path / "cache").glob("native-search-*.bin"))
    assert len(saved) == 1 and native.load(saved[0].parent) is not None  # saved again, whole
