"""'Again' at a finished table: a new table with the same setup (its rules, its computers, its
people's seats open), to which every seat of the old one is invited; asked twice, one table."""

from __future__ import annotations

import asyncio
from random import Random

from net_support import WAIT, new_table, running
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.net.protocol import Error, Invite


async def _invite(client: SeatClient) -> Invite | Error:
    async with asyncio.timeout(WAIT):
        while True:
            message = await client.receive()
            if isinstance(message, Invite | Error):
                return message


def test_again_opens_one_table_with_the_same_setup_and_invites_every_seat(tmp_path):
    async def scenario() -> None:
        async with running(tmp_path / "server") as (server, url):
            opened = await open_table(url, new_table(("open", "random", "open")))
            bots = [SeatClient(url, code=opened.code, name=name) for name in ("Ann", "Bo")]
            for bot in bots:
                await bot.join()
            early = await asyncio.gather(bots[0].again(), _invite(bots[0]))
            assert isinstance(early[1], Error) and early[1].code == "not-over"
            async with asyncio.timeout(WAIT):
                await asyncio.gather(*(play_randomly(b, Random(i)) for i, b in enumerate(bots)))
            await bots[1].again()
            first, second = await asyncio.gather(_invite(bots[0]), _invite(bots[1]))
            assert isinstance(first, Invite) and first == second and first.by == "Bo"
            await bots[0].again()  # asked twice: the same table
            assert await _invite(bots[0]) == first
            new = server.tables.by_code[first.code]
            old_rules = opened.seats
            assert new.rules.short_game and not new.started
            assert [s.kind for s in new.seats] == ["open", "computer", "open"]
            assert new.seats[1].level == old_rules[1].level and new.seats[1].name == old_rules[1].name
            async with SeatClient(url, code=first.code, name="Bo") as again:
                assert (await again.join()).opener
            for bot in bots:
                await bot.close()

    asyncio.run(scenario())
