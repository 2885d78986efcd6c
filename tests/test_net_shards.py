"""Several table servers on one PostgreSQL store behind a real nginx that hashes on the table in
the websocket's path (docs/online.md, "Past one process"), all on loopback and started
by the test: three people at a table, the process that holds it killed with ``kill -9`` mid-hand,
and the other takes the table up from the store when they come back, their secrets still good and
nothing they saw lost.  Skipped, saying why, where nginx or PostgreSQL's server is missing."""

from __future__ import annotations

import asyncio
from random import Random

import psycopg
import pytest

from net_support import WAIT, new_table
from shards_support import WHY_NOT, Shards
from stepping_stones.engine import record_cards
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.net.pgstore import PostgresShelf
from stepping_stones.net.protocol import StateMessage
from stepping_stones.storage.records import game_from_record, parse_record


@pytest.mark.skipif(WHY_NOT is not None, reason=str(WHY_NOT))
def test_two_servers_behind_nginx_and_one_killed_mid_hand_lose_no_table(tmp_path, postgres_dsn):
    shards = Shards(tmp_path, postgres_dsn)
    public = shards.public

    async def play() -> tuple[list[StateMessage], StateMessage, int]:
        opened = await open_table(public, new_table())
        seen: list[StateMessage] = []
        mid_hand = asyncio.Event()
        notices: list[str] = []

        def watch(state: StateMessage) -> None:
            seen.append(state)
            if state.view is not None and len(state.view.plays) >= 10 and state.view.hand_number == 1:
                mid_hand.set()

        clients = [
            SeatClient(public, code=opened.code, name=f"Bot {i}", notice=notices.append, retry_seconds=WAIT)
            for i in range(3)
        ]
        for client in clients:  # as a client that keeps its table: the proxy hashes on it
            client.url = client.url.with_path(f"/t/{opened.table}/ws")
            await client.join()
        bots = [
            asyncio.ensure_future(play_randomly(c, Random(i), on_state=watch if i == 0 else None))
            for i, c in enumerate(clients)
        ]
        async with asyncio.timeout(WAIT):
            await mid_hand.wait()
        killed = shards.holder(opened.table)
        shards.kill(killed)
        before = seen[-1]
        async with asyncio.timeout(WAIT):
            finals = await asyncio.gather(*bots)
        for client in clients:
            await client.close()
        assert any("lost" in n for n in notices) and any("back" in n for n in notices)
        return finals, before, killed

    with shards:
        finals, before, _killed = asyncio.run(play())
        record = finals[0].record
        assert record is not None
        # nothing the bots were told before the kill is lost: the first hand goes on from there
        assert record.hands[0].play.startswith(record_cards(before.view.plays))
        shelf = PostgresShelf(postgres_dsn)  # filed in the store's library, whichever process filed it
        (entry,) = shelf.history()
        assert entry.complete
        assert game_from_record(parse_record(shelf.record(entry.file))).over
        shelf.close()
        assert not any((tmp_path / str(port) / "games").exists() for port in shards.ports)
        with psycopg.connect(postgres_dsn) as conn:  # filed, and gone from the store
            assert conn.execute("SELECT count(*) FROM tables").fetchone() == (0,)


@pytest.mark.skipif(WHY_NOT is not None, reason=str(WHY_NOT))
def test_a_newcomer_on_the_lobby_s_path_is_sent_to_the_process_that_holds_the_table(tmp_path, postgres_dsn):
    """Behind nginx, ``/ws`` (no table in the path: a newcomer with an invite code) reaches either
    process whatever the table (nginx spreads the empty key over them).  A hello there for a table
    the other process holds is told the
    table's own path (``moved``), and the client says it again there: the table stays where it is
    and nobody at it is dropped (it was taken over by the lobby's process, and taken back when its
    people came back on their own path)."""
    shards = Shards(tmp_path, postgres_dsn)
    public = shards.public
    holder = shards.holder

    async def sit() -> None:
        for _ in range(30):  # a table whose path hashes to the process that /ws does not
            opened = await open_table(public, new_table(("open", "open", "open")))
            lobby = holder(opened.table)  # POST /tables has no table in its path: whichever process it reached
            ann = SeatClient(public, code=opened.code, name="Ann", retry_seconds=WAIT)
            ann.url = ann.url.with_path(f"/t/{opened.table}/ws")  # as a client that keeps its table
            await ann.join()
            if holder(opened.table) != lobby:
                break
            await ann.close()
        else:
            pytest.fail("no table of 30 hashed to the other process")
        own = holder(opened.table)
        async with (
            SeatClient(public, code=opened.code, name="Bo", retry_seconds=WAIT) as bo,
            SeatClient(public, code=opened.code, name="Cy", retry_seconds=WAIT) as cy,
        ):
            assert bo.url.path == "/ws"
            await bo.join()
            await cy.join()
            assert bo.url.path == cy.url.path == f"/t/{opened.table}/ws"
            assert holder(opened.table) == own  # not taken over by the lobby's process
            async with asyncio.timeout(WAIT):  # the game starts for all three, Ann never dropped
                while (
                    (state := await ann.receive()) is None or not isinstance(state, StateMessage) or state.view is None
                ):
                    pass
            assert ann.connections == 1 and holder(opened.table) == own
        await ann.close()

    with shards:
        asyncio.run(sit())
    said = shards.said
    # one handover: the table from where it was opened (POST /tables, no table in its path) to its own
    # path's process as Ann sat down; none for the newcomers
    assert "".join(said).count("handed") == 1 and "taken up by another" not in "".join(said), said
