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
from ..ai.solver import SearchLimit
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


def analyse(past: PastHand, limit: int = LIMIT) -> Outcome:
    """The analysis of ``past`` (None for a hand not played out, ``TOO_LONG`` past ``limit``);
    slow the first time."""
    key = _key(past)
    with _lock:
        if key in _known:
            return _known[key]
    found: Outcome
    try:
        found = analyse_past(past, limit=limit)
    except SearchLimit:
        found = TOO_LONG
    with _lock:
        _known[key] = found
        while len(_known) > _KEEP:
            _known.popitem(last=False)
    return found
