"""The sidecar of a game record: what the record itself does not hold.

A record in the public format says the rules, the players and every bid and card; the app keeps
the rest beside it in ``NAME.session.json``: the deal seed, the AI seats' levels, and whether the
person took help (a hint, an undo).  Save slots have one (``current.session.json``), and it goes
with the record into the games folder, where the library reads it.  Here: its format
(``SessionInfo``, checked as strictly as a record), its size limit and its file name.

May import: ``safety`` (text that is safe to print) and ``game.choices`` (the person's seat, the
seed's length); nothing else of storage, so that slots, the games folder and the library all share
it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

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

    @field_validator("levels")
    @classmethod
    def _person_and_two_ai_seats(cls, levels: list[str | None]) -> list[str | None]:
        if levels[HUMAN] is not None:
            raise ValueError("the person's seat (seat 0) has no AI level")
        if any(level is None for level in levels[1:]):
            raise ValueError("seats 1 and 2 each need an AI level")
        return levels

    def text(self) -> str:
        """The sidecar as it is written to its file."""
        return self.model_dump_json(indent=2) + "\n"


def sidecar_of(path: Path) -> Path:
    """The sidecar of the record or save ``path``: ``current.json`` -> ``current.session.json``."""
    return path.with_suffix(".session.json")
