"""A game's rules as the records and the commands' JSON write them (``Rules.as_dict``), declared
for the JSON Schemas of the ``--json`` outputs (docs/json.md)."""

from __future__ import annotations

from typing_extensions import TypedDict  # pydantic reads its schema on Python 3.11


class RulesJSON(TypedDict):
    """The options of one game: contract set, short game and the contract it leaves out, redo tokens."""

    contract_set: str
    short_game: bool
    omit: str | None
    redo_tokens: bool
