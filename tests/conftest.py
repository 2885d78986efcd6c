"""Shared helpers for building positions and playing games in tests."""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from filelock import FileLock

from stepping_stones.ai import RandomAI
from stepping_stones.engine import (
    Game,
    HandLog,
    HandState,
    Phase,
    Rules,
    card,
    mask_of,
    parse_bid,
    parse_card,
)
from stepping_stones.game.match import Seeds, drive
from stepping_stones.storage.records import record_from_game

# the table stores' fixtures (a real PostgreSQL started by the tests): tests/pg_support.py; two
# servers on it behind nginx, shared by the tests that ask for them: tests/shards_support.py
pytest_plugins = ["pg_support", "shards_support"]


def cards(text: str) -> int:
    """``cards("K4 K8 C1")`` -> the mask of those cards."""
    return mask_of(parse_card(t) for t in text.split())


def ladder(*suits: tuple[int, int, int]) -> tuple[int, int, int]:
    """A deal in bands: for each suit C, K, L, B a tuple (seat with 1-3, seat with 4-6, seat with 7-9).

    Everyone holds three cards of every suit, so everyone always follows suit,
    and the holder of a suit's strongest band wins every trick led in it.
    """
    assert len(suits) == 4
    hands = [0, 0, 0]
    for s, (low, mid, high) in enumerate(suits):
        for band, seat in enumerate((low, mid, high)):
            for r in range(3 * band + 1, 3 * band + 4):
                hands[seat] |= 1 << card(s, r)
    return hands[0], hands[1], hands[2]


def same_bands(low: int, mid: int, high: int) -> tuple[int, int, int]:
    """A ladder deal with the same bands in every suit."""
    return ladder(*([(low, mid, high)] * 4))


def play_out(game: Game) -> None:
    """Play the current hand to its end, each seat playing its first legal card."""
    while game.phase is Phase.PLAY:
        game.play(game.legal_cards()[0])


def play_hand(game: Game, deal: tuple[int, int, int], *bids: str) -> None:
    """Deal, make ``bids`` (record notation), then play the hand out with first legal cards."""
    game.start_hand(deal)
    for b in bids:
        game.bid(parse_bid(b))
    play_out(game)


def game_snapshot(game: Game) -> tuple[object, ...]:
    """Everything a game is and shows, for comparing two moments exactly: its record, every
    field of the game, of each hand's log and of its card play, every seat's view, the legal
    actions and the scores."""
    state = game.state
    return (
        record_from_game(game).model_dump(),
        _fields(game),
        tuple(game.view(seat) for seat in range(3)),
        game.phase,
        game.to_act,
        game.hand.number if game.hand else None,
        tuple(game.legal_bids()),
        game.legal_cards_mask(),
        None if state is None else (state.legal_mask(), state.winning(), tuple(state.tricks())),
        game.totals(),
        game.firsts(),
        game.winners(),
    )


def _fields(obj: object) -> object:
    """The value of every field of ``obj`` (a game, a hand's log, its card play), recursively."""
    if isinstance(obj, Game | HandLog | HandState):
        names = obj.__slots__ if isinstance(obj, HandLog | HandState) else vars(obj)
        return (type(obj).__name__, {name: _fields(getattr(obj, name)) for name in names})
    if isinstance(obj, list):  # (a tuple is compared as it is: nothing in one changes)
        return ("list", tuple(_fields(x) if isinstance(x, HandLog | list) else x for x in obj))
    if isinstance(obj, dict):
        return {k: _fields(v) for k, v in obj.items()}
    return obj


def random_game(seed: int, rules: Rules | None = None, stop_after: int | None = None) -> Game:
    """A game of uniformly random legal actions (deals, bids and cards, through the match
    driver); ``stop_after`` actions leaves it unfinished."""
    seeds = Seeds(f"random-game:{seed}")
    game = Game(rules or Rules(), first_forehand=seeds.first_forehand())
    return drive(game, [RandomAI()] * 3, seeds, max_actions=stop_after)


ALL_RULES = [
    Rules("standard"),
    Rules("advanced"),
    Rules("standard", short_game=True),
    Rules("advanced", short_game=True),
    Rules("standard", short_game=True, omit="lose-pick-trump"),
    Rules("advanced", short_game=True, omit="must-beat", redo_tokens=True),
    Rules("standard", redo_tokens=True),
    Rules("advanced", redo_tokens=True),
]


@pytest.fixture(autouse=True, scope="session")
def _resource_tracker() -> None:
    """Start multiprocessing's resource tracker before any test runs an app under Pilot.

    A table server's computers think in spawned processes, and the first spawn starts the tracker
    with the process's stderr.  A test that runs a table server in its own process beside the
    app under Pilot may spawn the first while the app holds stderr (its capture has no file: the
    spawn fails with "bad value(s) in fds_to_keep" and the computer never plays).  A real ``host``
    has no app in its process."""
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test's own home for the game's files (settings, saves, the library), so that no
    test reads or writes the person's real ones, or another test's: ``STEPPING_STONES_HOME``
    points at ``tmp_path / "home"`` (not yet made), as do the XDG folders that platformdirs
    would use without it.  ``NO_COLOR`` is cleared so that colour does not depend on the shell.
    Subprocesses inherit all of it."""
    home = tmp_path / "home"
    monkeypatch.setenv("STEPPING_STONES_HOME", str(home))
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / "xdg" / name.lower()))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return home


class StepClock:
    """A stand-in for the ``time`` module of ``lab/speed.py``: each reading of a clock is one
    step after the last (steps that are powers of two, so that differences are exact).  With it
    every timed call lasts exactly one step, and the bench's arithmetic can be checked to the
    digit: what is CPU time and what is wall time, milliseconds, rates."""

    WALL = 2.0**-10  # seconds between two readings of perf_counter
    CPU = 2.0**-8  # and of process_time: another step, so that a swap of the clocks shows

    def __init__(self) -> None:
        self.wall = self.cpu = 0.0

    def perf_counter(self) -> float:
        self.wall += self.WALL
        return self.wall

    def process_time(self) -> float:
        self.cpu += self.CPU
        return self.cpu


@pytest.fixture
def step_clock(monkeypatch: pytest.MonkeyPatch) -> StepClock:
    """The bench (``lab/speed.py``) reads ``StepClock`` instead of the real clocks."""
    from stepping_stones.lab import speed

    clock = StepClock()
    monkeypatch.setattr(speed, "time", clock)
    return clock


@pytest.fixture
def recorded_solves(monkeypatch: pytest.MonkeyPatch) -> list:
    """Every solve the bench makes (``lab.speed.solver_times``), recorded as it is made."""
    from stepping_stones.lab import speed

    solves: list = []
    solver_times = speed.solver_times

    def recorded(tricks_left: int, count: int, seed: int = 0):
        times = solver_times(tricks_left, count, seed)
        solves.extend(times)
        return times

    monkeypatch.setattr(speed, "solver_times", recorded)
    return solves


@pytest.fixture
def game() -> Game:
    return Game(Rules(), ("Ann", "Hana", "Kenji"), first_forehand=0)


# --- the test processes: bytecode written once, fewer garbage collections ------------------


def pytest_configure(config: pytest.Config) -> None:
    """Let this run write bytecode (``__pycache__``, and pytest's rewritten test modules) even
    where the environment says not to (``PYTHONDONTWRITEBYTECODE``, set on some machines): the
    test processes, and the apps, servers and commands the tests start (which inherit the
    environment), then load each module compiled once instead of compiling it again each, which
    was 13% of the suite's CPU (365 s against 319 s of CPU for the whole run, side by side).  It
    is set before pytest-xdist starts its processes (at the start of the session)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
    fewer_collections()
    if not hasattr(config, "workerinput"):  # the run's first process, before the test processes start
        compile_solver_once()


def pytest_unconfigure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and _Compiling.thread is not None:
        _Compiling.thread.join()
        shutil.rmtree(Path(os.environ.pop(GATE_VARIABLE)).parent, ignore_errors=True)


GATE_VARIABLE = "STEPPING_STONES_TESTS_COMPILING"
"""The lock file that the run's first process holds while it compiles the solver's core (set for
the test processes, which inherit it, only when it compiles)."""

BESIDE_THE_COMPILE = ("test_static_checks.py",)
"""The tests that need nothing of the solver, and start while its core compiles."""


class _Compiling:
    thread: threading.Thread | None = None  # the run's first process: the thread that compiles
    waited = False  # a test process: it has waited for the compile


def compile_solver_once() -> None:
    """Compile the solver's core into numba's cache before the tests start (a fresh install's
    first use, 10-15 s of CPU), so that every process and app of the run loads it from the cache:
    an app started while it compiles would say so ("Preparing the exact solver"), and its screen
    would then depend on whether this machine had compiled it before.  It compiles in a thread of
    the run's first process, holding the lock file ``GATE_VARIABLE`` names, while the test
    processes start and collect, and the tests of ``BESIDE_THE_COMPILE`` run; every other test
    waits on that lock first (``pytest_runtest_setup``).  The tests of the compiling itself use
    cache folders of their own (tests/test_solver_core.py)."""
    from stepping_stones.ai.solver import compile_needed

    if not compile_needed():
        return
    gate = os.path.join(tempfile.mkdtemp(prefix="stepping-stones-tests-"), "compiling.lock")
    held = threading.Event()
    _Compiling.thread = threading.Thread(target=_compile, args=(gate, held), name="solver-compile", daemon=True)
    _Compiling.thread.start()
    held.wait()  # the lock is held before any test process can look at it
    os.environ[GATE_VARIABLE] = gate


def _compile(gate: str, held: threading.Event) -> None:
    from stepping_stones.ai.solver import compiled_core_problem

    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(FileLock(gate))
        finally:
            held.set()
        compiled_core_problem()  # loads it, compiling it once


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Every test but those of ``BESIDE_THE_COMPILE`` starts once the solver's core is compiled."""
    if item.nodeid.removeprefix("tests/").startswith(BESIDE_THE_COMPILE):
        return
    if _Compiling.thread is not None:  # a run in one process (-n 0): it compiles in this one
        _Compiling.thread.join()
    elif not _Compiling.waited and os.environ.get(GATE_VARIABLE):
        with FileLock(os.environ[GATE_VARIABLE]):
            pass
    _Compiling.waited = True


GC_THRESHOLDS = (50_000, 20, 20)
"""The cyclic garbage collector's thresholds in the test processes (Python's are 700, 10, 10)."""


def fewer_collections() -> None:
    """Run the cyclic garbage collector less often in the test processes.  The tests build and
    drop a great many short-lived objects (Textual's widgets, strips and messages, Hypothesis'
    examples), and with Python's thresholds a collection starts every 700 new container objects
    and walks the young ones each time, and the whole heap (every module the tests loaded) every
    hundredth time: about a tenth of the suite's CPU, measured side by side.  Memory is still
    freed: reference counting frees all that is not in a cycle at once, and what is, a little
    later.  Nothing a test checks depends on when the collector runs."""
    gc.set_threshold(*GC_THRESHOLDS)


# --- the order of the run ---------------------------------------------------------------------

LONGEST_FIRST = (
    "test_static_checks.py",  # mypy in a process of its own, while the solver's core compiles
    "test_solver_core.py::test_hint_says_it_compiles",  # compiles the solver's core twice: 30 s of CPU
    "test_tui_game.py",  # one whole game through key presses
    "test_one_table.py::test_two_whole_games",  # two games with three front ends, one in Chromium
    "test_web.py::test_a_whole_game",  # whole games in Chromium, at two sizes
    "test_cluster.py",  # one process for the whole file (its local cluster)
    "test_net_lobby.py::test_table_list_shows_the_lobby_and_watch",  # a whole game watched
    "test_scripts.py::test_measure_thinking_share",
    "test_web_ratings.py",  # Chromium
    "test_net_deltas.py::test_a_delta_applied",
    "test_solver.py::test_longer_endgames",
    "test_net_claims.py::test_a_claimed_hand_survives",
    "test_solver.py::test_a_table_handed_on",
    "test_web.py",  # Chromium
    "test_net_restart.py",
    "test_player_pages.py::test_a_review",
    "test_library_screens.py::test_ascii_mode",
    "test_one_table.py",
    "test_net_hidden.py",
    "test_scripts.py",  # each script in a process of its own
    "test_web_life.py",  # Chromium
    "test_web_lobby.py",  # Chromium
    "test_serve.py",  # apps behind a server, and Chromium
    "test_serve_join.py",
    "test_net_logos.py",
    "test_net_fronts.py",
    "test_table_sizes.py",
    "test_ai_rules.py",
    "test_solver_differential.py",
    "test_library_screens.py",
    "test_tui_behaviour.py",
    "test_tui_snapshots.py",  # the app at four sizes
    "test_refusals.py::test_the_view_refuses_every",
    "test_table.py",
    "test_solver.py",
)
"""The tests that take longest (by ``--durations``, of a whole run on 7 December 2026), started
first, each entry a test file or the start of a test's name in it: the processes of a run take
tests from the front of one queue (in this order: ``--no-loadscope-reorder`` in pyproject's
addopts, else pytest-xdist would send the largest groups first), so the long ones end early and
no process is left alone with one at the end, while two processes end on short tests."""


def _rank(item: pytest.Item) -> int:
    name = item.nodeid.removeprefix("tests/")
    return next((i for i, start in enumerate(LONGEST_FIRST) if name.startswith(start)), len(LONGEST_FIRST))


@pytest.hookimpl(trylast=True)  # after pytest-randomly's shuffle (-p randomly), which it keeps within each rank
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)
