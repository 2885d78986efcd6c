"""The sidecar of a game record: what the record itself does not hold.

A record in the public format says the rules, the players and every bid and card; the app keeps
the rest beside it in ``NAME.session.json``: the deal seed, the AI seats' levels, and whether the
person took help (a hint, an undo).  The table server writes one for each game it files too:
which seats were people, and the hands a computer played for a person who did not answer.  Save
slots have one (``current.session.json``), and it goes
with the record into the games folder, where the library reads it.  Here: its format
(``SessionInfo``, checked as strictly as a record), its size limit and its file name.

May import: ``safety`` (text that is safe to print) and ``game.choices`` (the person's seat, the
seed's length); nothing else of storage, so that slots, the games folder and the library all share
it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from ..game.choices import HUMAN, SEED_LENGTH
from .safety import escape

SESSION_FORMAT: Final = "stepping-stones-session/1"
DEFAULT_LEVEL = "heuristic"  # the AI level of a seat whose level is unknown (ai.DEFAULT_LEVEL)
LEVEL_LENGTH = 20  # an AI level's name: "heuristic"; an unknown one from a newer version plays as the default
SIDECAR_LIMIT = 64 * 1024  # a sidecar is a few lines


def _printable(text: str) -> str:
    """A seed or a level name is plain text: nothing in it may move the cursor or retitle the window."""
    if not text.strip():
        raise ValueError("it may not be blank")
    if escape(text) != text:
        raise ValueError("it may not contain control characters")
    return text


Seed = Annotated[str, Field(min_length=1, max_length=SEED_LENGTH), AfterValidator(_printable)]
Level = Annotated[str, Field(min_length=1, max_length=LEVEL_LENGTH), AfterValidator(_printable)]
Hand = Annotated[int, Field(ge=1, le=64)]


class SessionInfo(BaseModel):
    """The sidecar of a saved game: what the record does not say.

    Checked as strictly as a record (no coercion, no unknown fields, bounded text): the seat of
    the person (seat 0) has no level, each AI seat has one."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    format: Literal["stepping-stones-session/1"] = SESSION_FORMAT
    seed: Seed
    levels: Annotated[list[Level | None], Field(min_length=3, max_length=3)]  # None for the person
    # The person took help (a hint, an undo): the game is counted apart in the statistics.
    assisted: bool = False
    # A game played at a table on a server (``host``): the people are the seats without a level,
    # wherever they sat, and ``stood_in`` holds, for each seat, the hands in which a computer
    # played for its person (who did not answer): such a person's game is counted apart too.
    table: bool = False
    stood_in: Annotated[list[Annotated[list[Hand], Field(max_length=64)]], Field(min_length=3, max_length=3)] = [
        [],
        [],
        [],
    ]

    @model_validator(mode="after")
    def _people_and_ai_seats(self) -> SessionInfo:
        if self.table:
            if all(level is not None for level in self.levels):
                raise ValueError("levels: a table's game has at least one person, a seat without an AI level")
            if any(hands and self.levels[seat] is not None for seat, hands in enumerate(self.stood_in)):
                raise ValueError("stood_in: a computer stands in only for a person")
            return self
        if self.levels[HUMAN] is not None:
            raise ValueError("levels: the person's seat (seat 0) has no AI level")
        if any(level is None for level in self.levels[1:]):
            raise ValueError("levels: seats 1 and 2 each need an AI level")
        if any(self.stood_in):
            raise ValueError("only a table's game has stand-ins")
        return self

    def text(self) -> str:
        """The sidecar as it is written to its file."""
        return self.model_dump_json(indent=2) + "\n"


def sidecar_of(path: Path) -> Path:
    """The sidecar of the record or save ``path``: ``current.json`` -> ``current.session.json``."""
    return path.with_suffix(".session.json")
