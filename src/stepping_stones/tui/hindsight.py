"""Each finished hand analysed against perfect play (``ai.analysis``), once per hand.

The hand's summary starts the analysis in a worker thread; the review asks for the same hands
again.  An analysis has no budget: every hand is worked out in full.  Most take tens of
milliseconds; the longest seen, some May Trump hands, about a second of CPU (with the Python
core, far more).  Meanwhile the summary and the review say that it is being worked out, and the
app goes on (the compiled search lets go of Python's lock); the answer fills in when done.

The answers are kept in a ``Hindsight``, keyed by the hand as everyone saw it, so a hand is
solved once however often it is looked at (and a summary closed early still leaves its answer
for the review).  The app owns one (``SteppingStonesApp.hindsight``): two apps, or two tests,
never share answers.  Only finished hands are analysed: all their cards were played, so nothing
hidden is used.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:  # the solver is loaded by the first analysis, not with the app
    from ..ai.analysis import HandAnalysis, Seen
    from ..ai.solver import Solver
    from ..engine import PastHand

_KEEP = 64  # hands kept: more than a game's worth, for a review after a game

Outcome: TypeAlias = "HandAnalysis | None"
"""The analysis; or None for a hand not played out."""


def _key(past: PastHand, seen: Seen | None = None) -> tuple[object, ...]:
    return (past.declarer, past.declaration, past.plays, past.play_seats, () if seen is None else seen.seats)


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


class Hindsight:
    """The analyses one app has worked out, by hand (the last ``keep``), safe across threads."""

    def __init__(self, keep: int = _KEEP) -> None:
        self.keep = keep
        self._known: OrderedDict[tuple[object, ...], Outcome] = OrderedDict()
        self._lock = threading.Lock()

    def known(self, past: PastHand, seen: Seen | None = None) -> Outcome:
        """The outcome for ``past`` (judged as ``seen`` says) if it has been worked out already, else None."""
        with self._lock:
            return self._known.get(_key(past, seen))

    def analyse(self, past: PastHand, stop: Stop | None = None, seen: Seen | None = None) -> Outcome:
        """The analysis of ``past`` (None for a hand not played out), its mistakes judged as
        ``seen`` says (``ai.analysis.judge``: which cards were best on what their players could
        see); slow the first time.  None, and nothing kept, if ``stop`` was called."""
        from ..ai.analysis import analyse_past
        from ..ai.solver import SearchLimit

        key = _key(past, seen)
        with self._lock:
            if key in self._known:
                return self._known[key]
        try:
            found = analyse_past(past, watch=None if stop is None else stop.watch, seen=seen)
        except SearchLimit:  # stopped: the only limit its solver has
            return None
        with self._lock:
            self._known[key] = found
            while len(self._known) > self.keep:
                self._known.popitem(last=False)
        return found
