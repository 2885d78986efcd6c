"""The hand analysis of a finished game for its review on the web (``POST /players/review``).

Each played-out hand of the game is solved against perfect play (``ai.analysis.analyse_past``,
every seat judged from its own view, as the app, plain mode and ``analyse`` judge it) by the
server's thinkers (``thinking.py``): in worker processes, never on the event loop, a hand a job, in
the address's line of the queue.  The answers are kept with the finished game, beside its table's
file in ``<data dir>/notes/`` (``<record's stem>.analysis.json``), so that a game is analysed once
whoever reviews it and however often; the words are the presenter's, for each reader's seat
(``flow.presenter.review``), from the kept numbers.

Working one out costs CPU, so it is held per address (``guard.address_key``): a game's first
analysis spends one of the address's (``Addresses.analysis``: ``analysis_burst``, then one a
minute), and an address has one game worked out at a time.  Two reviews of one game while it is
worked out wait for the same work.  A review whose analysis cannot be had now is still served,
its hands saying why.

May import: the AI's analysis (the numbers, their JSON), storage's files and safety, and this
package's guard and thinkers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Final

from pydantic import TypeAdapter, ValidationError

from ..ai.analysis import HandAnalysis, seen_by
from ..engine import PlayerView
from ..storage.files import atomic_write, private_folder
from ..storage.safety import FileProblem, read_small
from .guard import Addresses, address_key
from .thinking import Busy, Dropped, Thinkers

__all__ = ["Reviews"]

KEPT: Final = TypeAdapter(list[HandAnalysis | None])
"""A game's analyses as kept: one per hand of the game, null for a hand not played out."""
MAX_KEPT: Final = 1024 * 1024  # a game's analyses are a few KiB
ONE_AT_A_TIME: Final = (
    "The hand analysis of another of your games is being worked out: review this one again when it is done."
)
FAILED: Final = "The hand analysis of this game could not be worked out."

Found = tuple[list[HandAnalysis | None] | None, str]
"""A game's analyses (None if they cannot be had now), and if so why, in a sentence."""


def _sentence(line: str) -> str:
    return line[:1].upper() + line[1:].rstrip(".") + "."


class Reviews:
    """The analyses of the finished games being reviewed: kept in ``notes``, worked out by
    ``thinkers``, held to ``addresses`` (see the module's docstring)."""

    def __init__(self, thinkers: Thinkers, addresses: Addresses, notes: Path, log: Callable[[str], None]) -> None:
        self.thinkers = thinkers
        self.addresses = addresses
        self.notes = notes
        self.log = log
        self._working: dict[str, asyncio.Task[Found]] = {}  # by the record's file name
        self._owners: set[str] = set()  # the addresses with a game being worked out

    def _kept_path(self, record: str) -> Path:
        return self.notes / f"{Path(record).stem}.analysis.json"

    def _kept(self, record: str, hands: int) -> list[HandAnalysis | None] | None:
        """The analyses kept for ``record``, if there are, for its ``hands`` hands."""
        try:
            found = KEPT.validate_json(read_small(self._kept_path(record), MAX_KEPT))
        except (FileProblem, OSError, ValueError, ValidationError):
            return None
        return found if len(found) == hands else None

    def _keep(self, record: str, analyses: list[HandAnalysis | None]) -> None:
        private_folder(self.notes)
        atomic_write(self._kept_path(record), KEPT.dump_json(analyses).decode())

    async def analyses(self, record: str, view: PlayerView, remote: str) -> Found:
        """The analyses of the game filed as ``record`` (``view``: a seat's view of it, over),
        asked for by ``remote``: kept, or worked out now if the address may."""
        hands = len(view.history)
        kept = await asyncio.to_thread(self._kept, record, hands)
        if kept is not None:
            return kept, ""
        working = self._working.get(record)
        if working is None:
            owner = address_key(remote)
            if owner in self._owners:
                return None, ONE_AT_A_TIME
            refusal = self.addresses.analysis(remote)
            if refusal is not None:
                return None, _sentence(refusal)
            self._owners.add(owner)
            working = self._working[record] = asyncio.create_task(self._work(record, view, owner))
            working.add_done_callback(lambda _task: self._done(record, owner))
        # the work goes on if the asker goes: its answer is kept for the next review
        return await asyncio.shield(working)

    def _done(self, record: str, owner: str) -> None:
        self._working.pop(record, None)
        self._owners.discard(owner)

    async def _work(self, record: str, view: PlayerView, owner: str) -> Found:
        seen = seen_by(view)
        analyses: list[HandAnalysis | None] = []
        try:
            for past in view.history:
                if past.replayed() is None:  # not played out: nothing to solve
                    analyses.append(None)
                    continue
                found = await self.thinkers.analysis(past, seen, owner, f"review {record}", lambda: True)
                analyses.append(found)
        except Busy as exc:
            return None, _sentence(str(exc))
        except Dropped:  # the server is stopping
            return None, FAILED
        except Exception as exc:  # a fault of the solver or a worker: said by its kind only
            self.log(f"the analysis of {record} failed: {type(exc).__name__}")
            return None, FAILED
        try:
            await asyncio.to_thread(self._keep, record, analyses)
        except OSError as exc:  # not kept: worked out again next time
            self.log(f"the analysis of {record} could not be kept: {exc.strerror or exc}")
        return analyses, ""
