"""The lobby and the watchers of a table server (docs/online.md, "The lobby", "Watching"): a listed
table is in the lobby while a seat is free and it has not started, a private one never; a watch
code shows what everyone sees and seats nobody; the players see how many watch; the limits hold.
Raw aiohttp clients on loopback."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys

import aiohttp
import pytest

from fronts_support import Host
from net_support import Raw, new_table, running
from stepping_stones.net.protocol import Lobby, NewTable, StateMessage, TableOpened, Watched, dump
from stepping_stones.net.server import Limits


async def _open(url: str, request: NewTable) -> TableOpened:
    async with aiohttp.ClientSession() as session, session.post(url + "/tables", data=dump(request)) as answer:
        assert answer.status == 200, await answer.text()
        return TableOpened.model_validate_json(await answer.text())


async def _lobby(raw: Raw) -> Lobby:
    reply = await raw.reply()
    assert isinstance(reply, Lobby), reply
    return reply


def test_a_listed_table_is_in_the_lobby_until_it_fills_up_and_a_private_one_never(tmp_path):
    async def go() -> None:
        async with running(tmp_path) as (_server, url), Raw.to(url) as follower:
            await follower.send({"type": "lobby", "version": 4})
            assert (await _lobby(follower)).tables == []
            await _open(url, new_table(("open", "open", "expert")))  # private: never listed
            listed = await _open(url, new_table(("open", "open", "expert"), listed=True))
            shown = await _lobby(follower)
            assert [t.code for t in shown.tables] == [listed.code]
            assert shown.tables[0].line.endswith("2 seats free.")
            assert "Hana (computer" in shown.tables[0].line
            async with Raw.to(url) as ann, Raw.to(url) as bea:
                await ann.send({"type": "hello", "version": 4, "code": listed.code, "name": "Ann"})
                shown = await _lobby(follower)
                assert "Ann (person" in shown.tables[0].line and shown.tables[0].line.endswith("1 seat free.")
                await bea.send({"type": "hello", "version": 4, "code": listed.code, "name": "Bea"})
                assert (await _lobby(follower)).tables == []  # full, so started: it leaves the list

    asyncio.run(go())


def test_a_listed_table_leaves_the_lobby_when_its_opener_starts_it_and_when_it_expires(tmp_path):
    """The issue's other two ways out of the list: started early with a seat still free, and closed
    for not starting in time (the server's wall clock is the test's: nothing waits)."""
    from net_support import Clock

    day = 24 * 3600.0
    wall = Clock()

    async def go() -> None:
        async with (
            running(tmp_path, wall_clock=wall, expire_after=day) as (server, url),
            Raw.to(url) as follower,
            Raw.to(url) as ann,
        ):
            await follower.send({"type": "lobby", "version": 4})
            assert (await _lobby(follower)).tables == []
            early = await _open(url, new_table(("open", "open", "expert"), listed=True))
            assert [t.code for t in (await _lobby(follower)).tables] == [early.code]
            await ann.send({"type": "hello", "version": 4, "code": early.code, "name": "Ann"})
            assert [t.code for t in (await _lobby(follower)).tables] == [early.code]  # one seat still free
            await ann.send({"type": "start"})
            assert (await _lobby(follower)).tables == []  # started early: it leaves the list
            idle = await _open(url, new_table(("open", "open", "expert"), listed=True))
            assert [t.code for t in (await _lobby(follower)).tables] == [idle.code]
            wall.now += day
            await server.tables.sweep()
            assert idle.table not in server.tables.tables
            assert (await _lobby(follower)).tables == []  # expired: it leaves the list

    asyncio.run(go())


def test_a_watcher_sees_the_table_takes_no_seat_and_is_counted_by_the_players(tmp_path):
    async def go() -> None:
        async with running(tmp_path) as (_server, url):
            table = await _open(url, new_table(("open", "expert", "expert")))
            assert table.watch is not None and table.watch != table.code
            async with Raw.to(url) as wrong:  # the invite code is no watch code
                await wrong.send({"type": "watch", "version": 4, "code": table.code})
                reply = await wrong.reply()
                assert reply.code == "unknown-code"
                assert await wrong.text() is None  # and the connection is closed, as for a wrong invite code
            async with Raw.to(url) as watcher:
                await watcher.send({"type": "watch", "version": 4, "code": table.watch.lower()})
                first = await watcher.reply()
                assert isinstance(first, Watched) and not first.started and first.view is None
                assert first.watchers == 1
                for probe in (
                    {"type": "action", "seq": 0, "bid": "pass"},
                    {"type": "start"},
                    {"type": "hello", "version": 4, "code": table.code, "name": "Sneak"},
                    {"type": "lobby", "version": 4},
                ):
                    await watcher.send(probe)
                    refused = await watcher.reply()
                    assert refused.type == "error", probe
                async with Raw.to(url) as ann:
                    await ann.send({"type": "hello", "version": 4, "code": table.code, "name": "Ann"})
                    welcome = await ann.reply()
                    assert welcome.watch == table.watch
                    state = await ann.reply()
                    assert isinstance(state, StateMessage) and state.watchers == 1 and state.started
                    watched = await watcher.reply()
                    while not watched.started:
                        watched = await watcher.reply()
                    assert watched.view is not None and watched.view.seat is None
                    assert watched.seats[0].name == "Ann"
                    assert "own_cards" not in json.loads(watched.model_dump_json())["view"]

    asyncio.run(go())


def test_a_page_that_watches_is_sent_what_the_presenter_shows(tmp_path):
    async def go() -> None:
        async with running(tmp_path) as (_server, url):
            table = await _open(url, new_table(("open", "open", "expert")))
            async with Raw.to(url) as watcher:
                await watcher.send({"type": "watch", "version": 4, "code": table.watch, "page": True})
                shown = json.loads(await watcher.text())
                assert shown["type"] == "watched" and shown["view"] is None
                assert shown["shown"]["status"] == "The table has not started: 2 seats free."
                assert shown["shown"]["watching"] == "1 person is watching."

    asyncio.run(go())


def test_watchers_are_held_to_the_tables_limit_and_to_the_addresses(tmp_path):
    limits = Limits(watchers_per_table=1, connections_per_address=2, max_connections=64)

    async def go() -> None:
        async with running(tmp_path, limits=limits) as (_server, url):
            table = await _open(url, new_table(("open", "open", "expert")))
            async with Raw.to(url) as one, Raw.to(url) as two:
                await one.send({"type": "watch", "version": 4, "code": table.watch})
                assert isinstance(await one.reply(), Watched)
                await two.send({"type": "watch", "version": 4, "code": table.watch})
                refused = await two.reply()
                assert refused.code == "table-full"
                async with (  # a third websocket from this address: refused
                    aiohttp.ClientSession() as session,
                    session.get(url + "/ws", headers={"Upgrade": "websocket"}) as answer,
                ):
                    assert answer.status == 429

    asyncio.run(go())


def _cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "stepping_stones", *args], capture_output=True, text=True, timeout=timeout
    )


def test_table_list_shows_the_lobby_and_watch_prints_a_whole_game_in_plain_lines(tmp_path):
    """``table new --listed`` prints the watch link; ``table list`` the listed table in the
    presenter's words (a private one not); ``watch`` a game that three bots play to its end, with
    each hand's deal once it is over, and no card before it is played."""
    host = Host(tmp_path / "server")
    url = host.start()
    try:
        assert "No table is open" in _cli("table", "list", "--server", url).stdout
        _cli("table", "new", "--server", url, "--short", "--seats", "open,open,random")  # private
        opened = _cli("table", "new", "--server", url, "--short", "--seats", "open,open,random", "--listed")
        assert opened.returncode == 0, opened.stderr
        code = opened.stdout.split("code: ", 1)[1].split()[0]
        watch = re.findall(r"watch: \S+/w/(\S+)", opened.stderr)[0]
        listed = _cli("table", "list", "--server", url)
        assert listed.stdout.splitlines() == [
            f"{code}  Standard set, short game without Win Tricks (No Trump): Hana (computer); 2 seats free."
        ]
        watcher = subprocess.Popen(
            [sys.executable, "-m", "stepping_stones", "watch", watch, "--server", url, "--plain"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert watcher.stdout is not None
            first = watcher.stdout.readline()  # the watcher is in before anyone sits
            assert first.startswith("The table has not started: 2 seats free."), first
            bots = _cli("table", "bot", code, "--server", url, "--count", "2", "--seed", "7", timeout=300)
            assert bots.returncode == 0, bots.stderr
            lines = []
            while not any(line.startswith("Totals:") for line in lines):
                line = watcher.stdout.readline()
                assert line, watcher.stderr.read() if watcher.stderr else ""
                lines.append(line.rstrip("\n"))
        finally:
            watcher.kill()
            watcher.wait()
        text = "\n".join(lines)
        assert "Hand 1:" in text and "Hand 1 is over." in text
        assert "1 person is watching." in text
        deal = next(i for i, line in enumerate(lines) if line == "Hand 1:")
        assert len(lines[deal + 1].split(": ", 1)[1].split()) == 12  # each seat's 12 cards, once it is over
        assert "wins with" in text or "share the win" in text
    finally:
        host.stop()


def test_hostile_watch_and_lobby_requests_get_one_line_and_wrong_watch_codes_count_as_guesses(tmp_path):
    limits = Limits(guess_burst=2, guess_rate=0.001)

    async def go() -> None:
        async with running(tmp_path, limits=limits) as (_server, url):
            table = await _open(url, new_table(("open", "open", "expert"), listed=True))
            for probe, code in (
                ({"type": "watch", "version": 4, "code": "X" * 30}, "bad-message"),
                ({"type": "watch", "version": 4}, "bad-message"),
                ({"type": "watch", "version": 4, "code": table.watch, "page": "yes"}, "bad-message"),
                ({"type": "lobby", "version": 4, "tables": []}, "bad-message"),
                ({"type": "lobby", "version": "4"}, "bad-message"),
            ):
                async with Raw.to(url) as raw:
                    await raw.send(probe)
                    reply = await raw.reply()
                    assert reply.type == "error" and reply.code == code, (probe, reply)
                    assert len(reply.message) <= 300
            async with Raw.to(url) as raw:  # another version: told so, and closed
                await raw.send({"type": "watch", "version": 3, "code": table.watch})
                assert (await raw.reply()).type == "version"
                assert await raw.text() is None
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:  # a page of another site
                async with Raw.to(url, headers={"Origin": "http://evil.example"}):
                    pass
            assert refused.value.status == 403
        async with running(tmp_path / "again", limits=limits) as (_server, url):
            table = await _open(url, new_table(("open", "open", "expert"), listed=True))
            for _ in range(2):  # two wrong watch codes spend the address's guesses
                async with Raw.to(url) as raw:
                    await raw.send({"type": "watch", "version": 4, "code": "ABCDE-FGHJK"})
                    assert (await raw.reply()).code == "unknown-code"
            async with Raw.to(url) as raw:  # then even the right one waits: guessing is not free
                await raw.send({"type": "watch", "version": 4, "code": table.watch})
                assert (await raw.reply()).code == "too-fast"

    asyncio.run(go())


def test_a_table_keeps_its_watch_code_and_its_listing_through_a_restart(tmp_path):
    """The watch code and ``listed`` are in the table's journal: after a restart the watch link
    still works and the table is still in the lobby; a journal written before watch codes gets one,
    written at once, so that it stays the same through the next restart too."""

    async def go() -> None:
        async with running(tmp_path) as (_server, url):
            table = await _open(url, new_table(("open", "open", "expert"), listed=True))
        async with running(tmp_path) as (server, url):
            async with Raw.to(url) as watcher, Raw.to(url) as follower:
                await watcher.send({"type": "watch", "version": 4, "code": table.watch})
                assert isinstance(await watcher.reply(), Watched)
                await follower.send({"type": "lobby", "version": 4})
                assert [t.code for t in (await _lobby(follower)).tables] == [table.code]
            (path,) = (tmp_path / "tables").glob("*.jsonl")
            stored = json.loads(path.read_text().splitlines()[0])
        stored.pop("watch")  # as a server before watch codes wrote it
        path.write_text(json.dumps(stored) + "\n")
        codes = []
        for _ in range(2):
            async with running(tmp_path) as (server, url):
                (resumed,) = server.tables.tables.values()
                codes.append(resumed.watch)
        assert codes[0] == codes[1] and codes[0] != table.watch

    asyncio.run(go())
