"""What a front end is told to do next, and what it drives.

A front end loops on a flow's ``next_step()`` and gets a ``PersonTurn``, an ``AiTurn``, a
``HandSummary`` or a ``GameOver`` (see ``flow.game_flow``); ``TableFlow`` is the set of calls a front
end makes on either flow, ``GameFlow`` on this machine or ``net.remote.RemoteFlow`` at a table server.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..ai import Action
from ..ai.hints import Hint
from ..engine import Bid, PlayerView
from ..game.match import Request
from .choosing import HintRequest
from .state import TableState

# --- what the front end must do next ------------------------------------------------


@dataclass(frozen=True)
class PersonTurn:
    view: PlayerView


@dataclass(frozen=True)
class AiTurn:
    request: Request
    delay: float  # seconds from asking until the answer may show


@dataclass(frozen=True)
class HandSummary:
    number: int
    view: PlayerView


@dataclass(frozen=True)
class GameOver:
    view: PlayerView
    path: Path | None


NextStep = PersonTurn | AiTurn | HandSummary | GameOver


class TableFlow(Protocol):
    """What a front end drives: ``GameFlow`` for a game on this machine, ``net.remote.RemoteFlow``
    for a seat at a table on a server.  States come from ``subscribe``; keys and lines become
    these calls."""

    @property
    def state(self) -> TableState: ...

    def next_step(self) -> object:
        """What the front end does now: a ``PersonTurn``, a ``HandSummary``, a ``GameOver``, or a
        step of that flow's own (``AiTurn`` on this machine, ``net.remote.TableTurn`` at a table)."""
        ...

    def summary_seen(self) -> None: ...

    def subscribe(self, subscriber: Callable[[TableState], None]) -> None: ...

    def move_cursor(self, step: int) -> None: ...

    def put_cursor(self, index: int) -> None: ...

    def choose_bid(
        self, index: int | None = None, step: int = 0, ranking: int | None = None, trump: int | None = None
    ) -> None: ...

    def confirm(self) -> bool: ...

    def bid(self, bid: Bid) -> None: ...

    def play(self, card: int) -> None: ...

    def why_not(self, action: Action) -> str | None: ...

    def claim(self, tricks: int) -> bool: ...

    def undo(self) -> bool: ...

    def ask_hint(self) -> HintRequest | None: ...

    def hint_came(self, request: HintRequest, hint: Hint | None) -> None: ...
