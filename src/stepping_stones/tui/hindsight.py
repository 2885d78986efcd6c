"""Each finished hand analysed against perfect play (``ai.analysis``), once per hand.

The hand's summary starts the analysis in a worker thread; the review asks for the same hands
again.  The answers are kept here, keyed by the hand as everyone saw it, so a hand is solved
once however often it is looked at (and a summary closed early still leaves its answer for the
review).  Only finished hands are analysed: all their cards were played, so nothing hidden is
used.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..ai.analysis import HandAnalysis, analyse_past
from ..ai.solver import SearchLimit, Solver
from ..engine import PastHand

_KEEP = 64  # hands kept: more than a game's worth, for a review after a game
LIMIT = 2_000_000
"""Solver positions one hand may take here (most take tens of thousands; a few, such as some
May Trump hands, take millions: a minute of work the app does not spend in the background)."""
TOO_LONG = ("This hand takes too long to solve here; stepping-stones analyse on the game's record "
            "works it out in full.")

Outcome = HandAnalysis | str | None
"""The analysis; or why there is none (a sentence); or None for a hand not played out."""
_known: OrderedDict[tuple[object, ...], Outcome] = OrderedDict()
_lock = threading.Lock()


def _key(past: PastHand) -> tuple[object, ...]:
    return (past.declarer, past.declaration, past.plays, past.play_seats)


def known(past: PastHand) -> Outcome:
    """The outcome for ``past`` if it has been worked out already, else None."""
    with _lock:
        return _known.get(_key(past))


class Stop:
    """Stops an analysis in flight from another thread: the app quitting does not wait for it.

    ``watch`` is given to the analysis, which hands it its solver; calling the ``Stop`` stops
    that solver at its next position.  A stopped analysis is not kept as an answer."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._solvers: list[Solver] = []
        self.stopped = False

    def watch(self, solver: Solver) -> None:
        with self._lock:
            self._solvers.append(solver)
            if self.stopped:
                solver.stop()

    def __call__(self) -> None:
        with self._lock:
            self.stopped = True
            for solver in self._solvers:
                solver.stop()


def analyse(past: PastHand, limit: int | None = None, stop: Stop | None = None) -> Outcome:
    """The analysis of ``past`` (None for a hand not played out, ``TOO_LONG`` past ``limit``,
    by default ``LIMIT``); slow the first time.  None, and nothing kept, if ``stop`` was called."""
    key = _key(past)
    with _lock:
        if key in _known:
            return _known[key]
    found: Outcome
    try:
        found = analyse_past(past, limit=LIMIT if limit is None else limit,
                             watch=None if stop is None else stop.watch)
    except SearchLimit:
        if stop is not None and stop.stopped:
            return None
        found = TOO_LONG
    with _lock:
        _known[key] = found
        while len(_known) > _KEEP:
            _known.popitem(last=False)
    return found
