"""A table that is never started closes after a day (the server's ``expire_after``, on its wall
clock, which survives a restart): its people are told so in one line, its invite code and seat
secrets stop working, and it leaves the store.  The clocks are the test's own: nothing waits."""

from __future__ import annotations

import asyncio

from net_support import Clock, Raw, new_table, next_state, running
from stepping_stones.net.client import SeatClient, open_table

DAY = 24 * 3600.0


def test_a_table_never_started_closes_after_a_day_and_a_started_one_stays(tmp_path):
    clock = Clock()
    wall = Clock()

    async def scenario() -> None:
        async with running(tmp_path, clock=clock, wall_clock=wall, expire_after=DAY) as (server, url):
            idle = await open_table(url, new_table())
            busy = await open_table(url, new_table(("open", "random", "random")))
            async with Raw.to(url) as ann, SeatClient(url, code=busy.code, name="Bo") as bo:
                await ann.send({"type": "hello", "version": 4, "code": idle.code, "name": "Ann"})
                welcome = await ann.reply()
                assert welcome.type == "welcome" and (await ann.reply()).type == "state"
                await bo.join()
                await next_state(bo, lambda s: s.started)
                wall.now += DAY - 1
                await server.tables.sweep()
                assert set(server.tables.tables) == {idle.table, busy.table}  # not yet
                wall.now += 1
                await server.tables.sweep()
                assert set(server.tables.tables) == {busy.table}
                error = await ann.reply()
                assert error.type == "error" and error.code == "expired" and "24 hours" in error.message
                assert await ann.text() is None  # and the connection is closed
                assert not (tmp_path / "tables" / f"{idle.table}.jsonl").exists()
                assert (tmp_path / "tables" / f"{busy.table}.jsonl").exists()
            # the code and the secret are good for nothing now
            async with Raw.to(url) as raw:
                await raw.send({"type": "hello", "version": 4, "code": idle.code, "name": "Cy"})
                assert (await raw.reply()).code == "unknown-code"
            async with Raw.to(url) as raw:
                await raw.send({"type": "hello", "version": 4, "secret": welcome.secret})
                assert (await raw.reply()).code == "bad-secret"
            assert "not started within 24 hours" in server.log.err.getvalue()

    asyncio.run(scenario())


def test_a_table_s_age_survives_a_restart_of_the_server(tmp_path):
    wall = Clock()

    async def scenario() -> None:
        async with running(tmp_path, wall_clock=wall, expire_after=DAY) as (_server, url):
            opened = await open_table(url, new_table())
        wall.now += DAY  # the server was down meanwhile
        async with running(tmp_path, wall_clock=wall, expire_after=DAY) as (server, _url):
            assert opened.table in server.tables.tables  # resumed as it was...
            await server.tables.sweep()
            assert server.tables.tables == {}  # ...and closed for its age
            assert list((tmp_path / "tables").iterdir()) == []

    asyncio.run(scenario())


def test_a_table_nobody_sat_at_closes_within_minutes_and_one_sat_at_waits_the_day(tmp_path):
    """A burst of tables that nobody sits at does not hold the server's places for a day: such a
    table closes ``expire_empty_after`` (ten minutes) after it was opened; one a person sat at
    waits for the others the whole ``expire_after``."""
    wall = Clock()

    async def scenario() -> None:
        async with running(tmp_path, wall_clock=wall, expire_after=DAY) as (server, url):
            empty = await open_table(url, new_table())
            waiting = await open_table(url, new_table())
            async with SeatClient(url, code=waiting.code, name="Ann") as ann:
                await ann.join()
                wall.now += 599
                await server.tables.sweep()
                assert set(server.tables.tables) == {empty.table, waiting.table}  # not yet
                wall.now += 1
                await server.tables.sweep()
                assert set(server.tables.tables) == {waiting.table}
                assert not (tmp_path / "tables" / f"{empty.table}.jsonl").exists()
                wall.now += DAY - 600
                await server.tables.sweep()
                assert server.tables.tables == {}
            log = server.log.err.getvalue()
            assert "nobody sat at it within 10 minutes" in log and "not started within 24 hours" in log

    asyncio.run(scenario())
