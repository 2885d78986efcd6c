"""One solver's arrays for the search, behind a typed face: its parameters and rules, its table
and its counters, made by the core that searches (``jit.Core``: int64 arrays when compiled,
lists in Python).

The compiled core's table is reserved at its largest size, and the system gives its pages on
first write, each at a cost (about 10 us a page on this project's machine: some 100 us for a
6-trick position's first 4,096 slots, tens of milliseconds for a whole hand's).  So the table of
a solver that is gone is handed on to the next one (``_SPARE``, with its other arrays), which
clears it as it grows (``tables.M_DIRTY``), instead of each solver reserving and touching fresh
memory.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .jit import Core
from .layout import make_par, make_rules
from .ordering import MAX_DEPTH, MAX_MOVES
from .search import ABORT, at_least, value_of
from .tables import FIRST_SLOTS, M_CAPACITY, M_DIRTY, M_LIMIT, M_MASK, M_NODES, MAX_SLOTS, META_SIZE, START_SLOTS

NO_LIMIT = 1 << 62

SPARE_TABLES = 2
"""Arrays of the compiled core kept for later solvers, at most (each table holds the memory its
solver wrote: up to a few tens of MB after a whole hand)."""


class _Arrays(NamedTuple):
    """A solver's own arrays: the table (``tt``), its counters (``meta``), the hands (``h``) and
    the rows of moves (``buf``); with the saved machine code, the entry points bound to them
    (``bound``: ``Core.bind``'s, handed on with the arrays; None until bound)."""

    tt: Any
    meta: Any
    h: Any
    buf: Any
    bound: Any = None


_SPARE: list[tuple[Any, _Arrays]] = []
"""Arrays of gone solvers, each with the ``ints`` of the core that made them (numba's arrays or
the saved machine code's: a process that loaded both, as a test may, hands each to its own)."""
_SPARE_LOCK = threading.Lock()


def _hand_on(made_by: Any, arrays: _Arrays) -> None:
    """A compiled solver is gone: keep its arrays for the next one, with how far its table was
    written (in ``meta[M_DIRTY]``)."""
    meta = arrays.meta
    meta[M_DIRTY] = max(int(meta[M_MASK]) + 1, int(meta[M_DIRTY]))
    with _SPARE_LOCK:
        if len(_SPARE) < SPARE_TABLES:
            _SPARE.append((made_by, arrays))


def _spare_arrays(core: Core) -> _Arrays | None:
    with _SPARE_LOCK:
        for i in range(len(_SPARE) - 1, -1, -1):
            if _SPARE[i][0] is core.ints:
                return _SPARE.pop(i)[1]
    return None


def _with_arrays(function: Callable[..., int], h: Any, tail: tuple[Any, ...]) -> Callable[..., int]:
    """``function`` (``search.at_least`` or ``value_of``) with a solver's arrays fixed: a function
    of the integers of a question alone."""
    return lambda level, *ints: function(level, h, *ints, *tail)


class SearchLimit(Exception):
    """A search was stopped because it reached the solver's ``limit`` of positions.  The table
    keeps only what was proved before, so the solver stays usable."""


def layout_of(
    core: Core,
    *,
    declarer: int,
    win: bool,
    trump: int | None,
    nine_high: bool,
    beat_led: bool,
    trump_over: bool,
    horizon: int,
    counted: Sequence[int],
    counted_left: Sequence[int],
    keys: Sequence[int],
    above: Sequence[int],
    takers: Sequence[int],
) -> tuple[Any, Any]:
    """``(par, rules)`` of a solver, in ``core``'s arrays (``layout``)."""
    par = make_par(
        core.array,
        declarer=declarer,
        win=win,
        trump=trump,
        nine_high=nine_high,
        beat_led=beat_led,
        trump_over=trump_over,
        horizon=horizon,
        counted=counted,
        counted_left=counted_left,
    )
    return par, make_rules(core.array, tuple(keys), tuple(above), tuple(takers))


class Kernel:
    """The search's state for one hand's contract, ranking, trump and declarer."""

    def __init__(self, core: Core, tables: tuple[Any, Any], par: Any, rules: Any) -> None:
        """``par`` and ``rules`` from ``layout_of`` (the search only reads them)."""
        self._core = core
        self._spread, self._info = tables
        arrays = _spare_arrays(core) if core.compiled else None
        if arrays is None:
            arrays = self._new_arrays()
        else:
            # A former solver's: its counters start again, and its table's first slots are
            # cleared (the rest as it grows, up to meta[M_DIRTY]).
            dirty = int(arrays.meta[M_DIRTY])
            core.zero(arrays.meta, META_SIZE)
            arrays.meta[M_CAPACITY] = len(arrays.tt) // 2
            arrays.meta[M_DIRTY] = dirty
            core.zero(arrays.tt, 2 * START_SLOTS)
        self._tt, self._meta, self._h, self._buf = arrays[:4]
        self._meta[M_MASK] = START_SLOTS - 1
        self._meta[M_LIMIT] = NO_LIMIT
        functions = (core.functions[at_least.__name__], core.functions[value_of.__name__])
        if core.bind is None:
            h = self._h
            tail = (par, rules, self._spread, self._info, self._tt, self._meta, self._buf)
            self._at_least, self._value_of = (_with_arrays(f, h, tail) for f in functions)
        else:
            # The entry points bound to these arrays, once per arrays: a solver handed them on
            # puts its own parameters and rules (and its core's rank tables) in their places.
            bound = arrays.bound
            if bound is None or bound.entries != functions:
                bound = core.bind(functions, (self._h, par, rules, self._spread, self._info, *arrays[:2], self._buf))
                arrays = arrays._replace(bound=bound)
            else:
                bound.rebind(1, (par, rules, self._spread, self._info))
            self._at_least, self._value_of = bound.calls
        self._hand_on = (core.ints, arrays) if core.compiled else None

    def __del__(self) -> None:
        """A compiled solver's arrays go to the next solver (``_hand_on``; ``__del__`` rather
        than ``weakref.finalize``, which cost a fresh solver 2 us, 13 us with cold caches)."""
        hand_on = getattr(self, "_hand_on", None)  # None too if ``__init__`` failed
        if hand_on is not None:
            _hand_on(*hand_on)

    def _new_arrays(self) -> _Arrays:
        """New arrays.  The table: compiled, reserved at its largest (``np.zeros`` of this size
        takes fresh pages from the system, which cost nothing until written); in Python, lists
        that grow."""
        core = self._core
        meta = core.ints(META_SIZE)
        h = core.ints(3)
        buf = core.ints(MAX_DEPTH * MAX_MOVES)
        if not core.compiled:
            meta[M_CAPACITY] = MAX_SLOTS
            return _Arrays(core.ints(2 * START_SLOTS), meta, h, buf)
        slots = MAX_SLOTS
        while True:
            try:
                meta[M_CAPACITY] = slots
                return _Arrays(core.ints(2 * slots), meta, h, buf)
            except MemoryError:
                # A system that refuses to reserve memory it has not used (strict overcommit):
                # a smaller table, which stops adding entries sooner (answers stay exact).
                if slots // 4 < FIRST_SLOTS:
                    raise
                slots //= 4

    @property
    def nodes(self) -> int:
        return int(self._meta[M_NODES])

    @nodes.setter
    def nodes(self, value: int) -> None:
        self._meta[M_NODES] = value

    @property
    def limit(self) -> int:
        return int(self._meta[M_LIMIT])

    @limit.setter
    def limit(self, value: int) -> None:
        self._meta[M_LIMIT] = min(value, NO_LIMIT)

    def search(
        self,
        hands: Sequence[int],
        level: int,
        leader: int,
        target: int,
        t: int,
        c1: int,
        best_card: int,
        best_seat: int,
        beat: int,
        rep2: int,
        rep3: int,
    ) -> bool:
        """Whether the declarer takes ``target`` more counted tricks (``search.at_least``)."""
        self._h[:] = hands
        result = self._at_least(level, leader, target, t, c1, best_card, best_seat, beat, rep2, rep3)
        if result == ABORT:
            raise SearchLimit
        return bool(result)

    def value(
        self,
        hands: Sequence[int],
        level: int,
        leader: int,
        t: int,
        c1: int,
        best_card: int,
        best_seat: int,
        beat: int,
        rep2: int,
        rep3: int,
        guess: int,
    ) -> int:
        """The declarer's counted tricks from the position (``search.value_of``); ``level`` is the
        seat to play in the trick (0 leads; see ``search`` for the other arguments)."""
        self._h[:] = hands
        result = self._value_of(level, leader, t, c1, best_card, best_seat, beat, rep2, rep3, guess)
        if result < 0:
            raise SearchLimit
        return int(result)
