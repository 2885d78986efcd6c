"""'Again' at a finished table: a new table with the same setup (its rules, its computers, its
people's seats open), to which every seat of the old one is invited; asked twice, one table."""

from __future__ import annotations

import asyncio
from random import Random

from net_support import WAIT, new_table, running
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.net.protocol import ErrorMessage, Invite


async def _invite(client: SeatClient) -> Invite | ErrorMessage:
    async with asyncio.timeout(WAIT):
        while True:
            message = await client.receive()
            if isinstance(message, Invite | ErrorMessage):
                return message


def test_again_opens_one_table_with_the_same_setup_and_invites_every_seat(tmp_path):
    async def scenario() -> None:
        async with running(tmp_path / "server") as (server, url):
            opened = await open_table(url, new_table(("open", "random", "open")))
            bots = [SeatClient(url, code=opened.code, name=name) for name in ("Ann", "Bo")]
            for bot in bots:
                await bot.join()
            early = await asyncio.gather(bots[0].again(), _invite(bots[0]))
            assert isinstance(early[1], ErrorMessage) and early[1].code == "not-over"
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


def test_plain_mode_at_a_terminal_is_asked_to_sit_at_the_new_table_in_one_line(tmp_path):
    """``join --plain`` with a terminal for its input (a pty): at the end, another player's 'again'
    is said in one line, and 'again' typed back sits at the new table."""
    import os
    import pty
    import sys

    async def scenario() -> list[str]:
        async with running(tmp_path / "server") as (server, url):
            opened = await open_table(url, new_table(("open", "open", "random")))
            bot = SeatClient(url, code=opened.code, name="Bo")
            await bot.join()
            master, slave = pty.openpty()
            env = {**os.environ, "STEPPING_STONES_HOME": str(tmp_path / "home")}
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "stepping_stones",
                "join",
                opened.code,
                "--server",
                url,
                "--name",
                "Ann",
                "--plain",
                stdin=slave,
                stdout=asyncio.subprocess.PIPE,
                env=env,
            )
            os.close(slave)
            assert proc.stdout is not None
            lines: list[str] = []
            rng = Random(4)
            try:
                async with asyncio.timeout(WAIT):
                    playing = asyncio.ensure_future(play_randomly(bot, Random(1)))
                    while True:
                        line = (await proc.stdout.readline()).decode().rstrip("\n")
                        lines.append(line)
                        if line == "legal: again, quit":
                            break
                        if line.startswith("legal: "):
                            os.write(master, rng.choice(line[len("legal: ") :].split(", ")).encode() + b"\n")
                    await playing
                    await bot.again()
                    while "asks everyone to play again" not in (line := (await proc.stdout.readline()).decode()):
                        lines.append(line)
                    lines.append(line.rstrip("\n"))
                    os.write(master, b"again\n")
                    while not (line := (await proc.stdout.readline()).decode()).startswith("legal: start"):
                        lines.append(line.rstrip("\n"))
                    os.write(master, b"quit\n")  # Ann sat first at the new table, so she opens it
                    assert await proc.wait() == 0
                    # the same command again, with the old table's code: her seat at the new one
                    proc = await asyncio.create_subprocess_exec(
                        *(sys.executable, "-m", "stepping_stones", "join", opened.code, "--server", url),
                        *("--name", "Ann", "--plain"),
                        stdin=asyncio.subprocess.PIPE,
                        stdout=asyncio.subprocess.PIPE,
                        stderr=asyncio.subprocess.STDOUT,
                        env=env,
                    )
                    back, _ = await proc.communicate(b"quit\n")
                    lines.append("--- again with the old code ---")
                    lines += back.decode().splitlines()
            finally:
                os.close(master)
                await bot.close()
            new = [t for t in server.tables.tables.values() if t.code != opened.code]
            assert len(new) == 1 and new[0].seats[0].name == "Ann"
            assert new[0].seats[1].kind == "open"  # the second join took Ann's seat back, no other
            return lines

    lines = asyncio.run(scenario())
    assert any(line.startswith("record: ") for line in lines)
    # the prompt is said again only after something else was said: never twice in a row
    twice = [i for i in range(1, len(lines)) if lines[i] == lines[i - 1] and lines[i].startswith("legal: ")]
    assert not twice, lines[twice[0] - 3 : twice[0] + 2]
    assert "Bo asks everyone to play again, at a new table with the same setup. Type again to sit at it." in lines
    assert any(line.startswith("You sit in seat 1 of table ") for line in lines)
    rejoined = lines[lines.index("--- again with the old code ---") :]
    assert not any("no table has that invite code" in line for line in rejoined)
    new_code = next(line for line in lines if line.startswith("You sit in seat 1 of table ")).split()[7]
    assert f"You are back in your seat, seat 1 of table {new_code}" in "\n".join(rejoined)
