"""One solver's arrays for the search, behind a typed face: its parameters and rules, its table
and its counters, made by the core that searches (``jit.Core``: int64 arrays when compiled,
lists in Python)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .jit import Core
from .layout import make_par, make_rules
from .ordering import MAX_DEPTH, MAX_MOVES
from .search import ABORT
from .tables import FIRST_SLOTS, M_CAPACITY, M_LIMIT, M_MASK, M_NODES, MAX_SLOTS, META_SIZE

NO_LIMIT = 1 << 62


class SearchLimit(Exception):
    """A search was stopped because it reached the solver's ``limit`` of positions.  The table
    keeps only what was proved before, so the solver stays usable."""


class Kernel:
    """The search's state for one hand's contract, ranking, trump and declarer."""

    def __init__(self, core: Core, tables: tuple[Any, Any], *, declarer: int, win: bool, trump: int | None,
                 nine_high: bool, beat_led: bool, trump_over: bool, horizon: int, counted: Sequence[int],
                 counted_left: Sequence[int], keys: Sequence[int], above: Sequence[int],
                 takers: Sequence[int]) -> None:
        self._core = core
        self._par = make_par(core.ints, declarer=declarer, win=win, trump=trump, nine_high=nine_high,
                             beat_led=beat_led, trump_over=trump_over, horizon=horizon, counted=counted,
                             counted_left=counted_left)
        self._rules = make_rules(core.ints, tuple(keys), tuple(above), tuple(takers))
        self._spread, self._info = tables
        self._meta = core.ints(META_SIZE)
        self._meta[M_MASK] = FIRST_SLOTS - 1
        self._meta[M_LIMIT] = NO_LIMIT
        self._tk, self._tv = self._new_table()
        self._h = core.ints(3)
        self._buf = core.ints(MAX_DEPTH * MAX_MOVES)

    def _new_table(self) -> tuple[Any, Any]:
        """The table's arrays: compiled, reserved at their largest (``np.zeros`` of this size takes
        fresh pages from the system, which cost nothing until written); in Python, lists that
        grow."""
        core = self._core
        if not core.compiled:
            self._meta[M_CAPACITY] = MAX_SLOTS
            return core.ints(FIRST_SLOTS), core.shorts(FIRST_SLOTS)
        slots = MAX_SLOTS
        while True:
            try:
                self._meta[M_CAPACITY] = slots
                return core.ints(slots), core.shorts(slots)
            except MemoryError:
                # A system that refuses to reserve memory it has not used (strict overcommit):
                # a smaller table, which stops adding entries sooner (answers stay exact).
                if slots <= FIRST_SLOTS:
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

    def stored(self, hands: Sequence[int], leader: int) -> tuple[int, int] | None:
        """The bounds ``(lo, hi)`` kept for the position where ``leader`` leads, if any."""
        self._h[:] = hands
        k = self._core.position_key(self._h, leader, self._spread, self._info)[0]
        entry = int(self._core.find(self._tk, self._tv, self._meta, k))
        return None if entry < 0 else (entry & 15, entry >> 4 & 15)

    def estimate(self, hands: Sequence[int], t: int) -> float:
        self._h[:] = hands
        return float(self._core.estimate(self._h, t, self._par, self._rules))

    def search(self, hands: Sequence[int], level: int, leader: int, target: int, t: int, c1: int,
               best_card: int, best_seat: int, beat: int, rep2: int, rep3: int) -> bool:
        """Whether the declarer takes ``target`` more counted tricks; ``level`` is the seat to
        play in the trick (0 leads; see ``search`` for the other arguments)."""
        self._h[:] = hands
        result = self._core.at_least(level, self._h, leader, target, t, c1, best_card, best_seat, beat, rep2,
                                     rep3, self._par, self._rules, self._spread, self._info,
                                     self._tk, self._tv, self._meta, self._buf)
        if result == ABORT:
            raise SearchLimit
        return bool(result)
