"""A game's rules as the records and the commands' JSON write them (``Rules.as_dict``), declared
for the JSON Schemas of the ``--json`` outputs (docs/json.md)."""

from __future__ import annotations

from typing import Annotated

from pydantic import PlainSerializer
from typing_extensions import TypedDict  # pydantic reads its schema on Python 3.11

from ..engine import Rules


class RulesJSON(TypedDict):
    """The options of one game: contract set, short game and the contract it leaves out, redo tokens."""

    contract_set: str
    short_game: bool
    omit: str | None
    redo_tokens: bool


RulesField = Annotated[Rules, PlainSerializer(Rules.as_dict, return_type=RulesJSON)]
"""A ``Rules`` field of a dataclass that pydantic dumps (a ``--json`` output): written as
``Rules.as_dict`` writes it, and read back into ``Rules``."""
