"""The ``TableStore`` contract, run against both stores: the data folder's files and PostgreSQL
(a real server started by the tests, ``pg_support.py``).  A snapshot replaces the journal, a move
is a line after it, a table not kept is a ``KeyError``, and the server resumes a table from either
as it was."""

from __future__ import annotations

import asyncio
import io
from random import Random

import pytest

from net_support import rules
from stepping_stones.engine import Phase, parse_bid, parse_card
from stepping_stones.net.journal import TableStore, read_table
from stepping_stones.net.lease import Shared
from stepping_stones.net.protocol import NewTable
from stepping_stones.net.server import TableServer
from stepping_stones.net.table import Table
from stepping_stones.net.wire import legal_actions


def _keep(table: Table, store: TableStore) -> None:
    how, text = table.keep()
    if how == "save":
        store.save(table.id, text)
    elif text:
        store.append(table.id, text)


def _played(store: TableStore, actions: int, seed: str = "contract") -> Table:
    """A table of three people, ``actions`` random bids and cards into its game, kept after each."""
    table = Table.new(NewTable(rules=rules()), seed=seed)
    _keep(table, store)
    for name in ("Ann", "Bo", "Cy"):
        table.claim(name)
        _keep(table, store)
    rng = Random(seed)
    for _ in range(actions):
        game = table.game
        assert game is not None and not game.over
        seat = game.to_act
        assert seat is not None
        move = rng.choice(legal_actions(game.view(seat)))
        table.act(seat, table.seq, parse_bid(move) if game.phase is Phase.BIDDING else parse_card(move))
        _keep(table, store)
    return table


def test_a_snapshot_then_a_line_per_move_gives_the_table_back(stores, tmp_path):
    store = stores(tmp_path)
    table = _played(store, 40)
    text = store.load(table.id)
    assert text.endswith("\n") and len(text.splitlines()) == 1 + 40  # the snapshot of the last seat, then moves
    snapshot, moves = read_table(text)
    again = Table.from_file(snapshot, moves=moves)
    assert again.to_file() == table.to_file() and again.seq == table.seq
    store.sync()


def test_a_save_replaces_the_whole_journal(stores, tmp_path):
    store = stores(tmp_path)
    table = _played(store, 12)
    table.resave = True
    _keep(table, store)
    assert store.load(table.id) == table.to_file().model_dump_json() + "\n"
    store.append(table.id, '{"seq":1,"seat":0,"card":"K1"}\n{"seq":2,"seat":1,"card":"K2"}\n')
    assert store.load(table.id).splitlines()[1:] == ['{"seq":1,"seat":0,"card":"K1"}', '{"seq":2,"seat":1,"card":"K2"}']


def test_tables_are_listed_and_deleted_and_one_never_kept_is_a_key_error(stores, tmp_path):
    store = stores(tmp_path)
    assert store.list() == []
    first = _played(store, 3, seed="one")
    second = _played(store, 5, seed="two")
    assert store.list() == sorted([first.id, second.id])
    store.delete(first.id)
    store.delete(first.id)  # twice: nothing to do
    assert store.list() == [second.id]
    with pytest.raises(KeyError):
        store.load(first.id)
    with pytest.raises(KeyError):
        store.load("00000000000000ff")
    with pytest.raises(FileNotFoundError):
        store.append("00000000000000ff", '{"seq":1,"seat":0,"card":"K1"}\n')
    store.sync()


def test_the_server_resumes_every_table_of_its_store(stores, tmp_path):
    store = stores(tmp_path)
    tables = [_played(store, n, seed=f"resume {n}") for n in (0, 7, 19)]
    if isinstance(store, Shared):  # the process that wrote them has stopped: it holds them no more
        store.release_all()

    async def resume() -> dict[str, Table]:
        server = TableServer(tmp_path, io.StringIO(), io.StringIO(), port=0, store=stores(tmp_path))
        await server.start()
        try:
            return dict(server.tables.tables)
        finally:
            await server.stop()

    resumed = asyncio.run(resume())
    assert sorted(resumed) == sorted(t.id for t in tables)
    for table in tables:
        assert resumed[table.id].to_file() == table.to_file()
        assert resumed[table.id].seq == table.seq
