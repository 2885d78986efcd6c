"""Those who watch a table, and the lobby: what the server sends them.

A watcher (``protocol.Watch``, with a table's watch code, never its invite code) is sent what
everyone sees (``Table.watched``: the engine's ``PublicView``, the seats, whose turn), whole after
every change; a page is sent what it is shown of it (``flow.presenter.watch``), worded by the
presenter as a seat's page is.  The lobby (``protocol.LobbyAsk``) is every listed table with a
free seat (``Table.in_lobby``), each with the presenter's line (``lobby_line``).

Everything here is a function of public facts: the hidden-information test re-deals the unseen
cards and checks that no byte a watcher or the lobby is sent changes (``tests/test_net_hidden.py``).

May import: the flow's presenter, the engine's face, and this package's protocol and tables' facts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from pydantic import TypeAdapter

from ..flow.presenter import LobbySeat, WatchPresentation, lobby_line, watch
from ..storage.records import RecordRules
from .protocol import MAX_LISTED, ListedTable, Lobby, SeatFacts, Watched, dump
from .remote import seat_words
from .table import Table

_WATCH: Final = TypeAdapter(WatchPresentation)


def watch_presentation(watched: Watched) -> WatchPresentation:
    """What a watcher is shown of ``watched`` (``flow.presenter.watch``): the page's, and the
    terminal's (``stepping-stones watch``)."""
    waiting = watched.waiting
    clock = None
    if waiting is not None and waiting.seconds is not None:
        clock = (waiting.seat, int(waiting.seconds))
    return watch(
        watched.view,
        [f.name for f in watched.seats],
        [seat_words(f) for f in watched.seats],
        [f.rating for f in watched.seats],
        clock,
        watched.watchers,
    )


def watched_text(watched: Watched, page: bool) -> str:
    """The ``watched`` message for a watcher: the public state, or for a page what it is shown."""
    if not page:
        return watched.model_dump_json()
    shown = watch_presentation(watched)
    return watched.model_copy(update={"view": None, "shown": _WATCH.dump_python(shown, mode="json")}).model_dump_json()


def listed_line(rules: RecordRules, seats: list[SeatFacts]) -> str:
    """A listed table in the presenter's words (``lobby_line``), from its rules and seats: the
    server's lobby, ``table list`` and the app's Play online say it so."""
    facts = [LobbySeat(f.name, seat_words(f) if f.kind != "open" else "free", f.rating) for f in seats]
    return lobby_line(rules.to_rules(), facts)


def lobby(tables: Iterable[Table]) -> Lobby:
    """The lobby now: the listed tables with a free seat, the newest first."""
    listed = sorted((t for t in tables if t.in_lobby), key=lambda t: -t.opened)[:MAX_LISTED]
    return Lobby(
        tables=[
            ListedTable(
                code=t.code,
                rules=t.rules,
                seats=t.facts(),
                line=listed_line(t.rules, t.facts()),
            )
            for t in listed
        ]
    )


def lobby_text(tables: Iterable[Table]) -> str:
    return dump(lobby(tables))
