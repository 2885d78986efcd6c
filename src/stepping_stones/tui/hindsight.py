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
from ..engine import PastHand

_KEEP = 64  # hands kept: more than a game's worth, for a review after a game
_known: OrderedDict[tuple[object, ...], HandAnalysis | None] = OrderedDict()
_lock = threading.Lock()


def _key(past: PastHand) -> tuple[object, ...]:
    return (past.declarer, past.declaration, past.plays, past.play_seats)


def known(past: PastHand) -> HandAnalysis | None:
    """The analysis of ``past`` if it has been worked out already, else None."""
    with _lock:
        return _known.get(_key(past))


def analyse(past: PastHand) -> HandAnalysis | None:
    """The analysis of ``past`` (None for a hand not played out); slow the first time."""
    key = _key(past)
    with _lock:
        if key in _known:
            return _known[key]
    found = analyse_past(past)
    with _lock:
        _known[key] = found
        while len(_known) > _KEEP:
            _known.popitem(last=False)
    return found
