"""The client side of a table: ``stepping-stones join --plain`` through pipes, playing a whole game
against a bot client and a computer seat; the remote flow's turned views; bad input to ``join``."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from random import Random

from net_support import WAIT, new_table, running
from stepping_stones.cli import main
from stepping_stones.engine import NUM_SEATS, Game, Phase, Rules, parse_bid
from stepping_stones.flow.game_flow import UNDO_OFF
from stepping_stones.game.match import Seeds
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.net.remote import turned
from stepping_stones.plain import SAME_LEGAL


async def _plain_client(url: str, code: str, home: Path, rng: Random) -> tuple[int, list[str], list[str]]:
    """Run ``join --plain`` as a person would through a pipe: answer each ``legal:`` line with one
    of its actions.  The lines it printed, and the lines that came right before each answer."""
    env = {**os.environ, "STEPPING_STONES_HOME": str(home)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "stepping_stones",
        "join",
        code,
        "--server",
        url,
        "--name",
        "Ann",
        "--plain",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    lines: list[str] = []
    before_reads: list[str] = []
    legal: list[str] = []  # the legal actions as last given in full
    first = ["sheet", "hint", "undo", "nonsense"]  # commands first: each answered, then legal: again
    while True:
        raw = await proc.stdout.readline()
        if not raw:
            break
        line = raw.decode().rstrip("\n")
        lines.append(line)
        if line.startswith("legal: "):
            before_reads.append(line)
            if line != SAME_LEGAL:  # a long list unchanged since it was given in full (issue 35)
                legal = line[len("legal: ") :].split(", ")
            answer = first.pop(0) if first else rng.choice(legal)
            proc.stdin.write(answer.encode() + b"\n")
            await proc.stdin.drain()
    err = (await proc.stderr.read()).decode()
    status = await proc.wait()
    assert err == "", err
    return status, lines, before_reads


def test_plain_join_plays_a_whole_game_against_a_bot_and_a_computer(tmp_path, capsys):
    home = tmp_path / "home"

    async def game() -> tuple[int, list[str], list[str]]:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table(("open", "random", "open"), names=[None, "Rin", None]))
            async with SeatClient(url, code=opened.code, name="Bot") as bot:
                assert (await bot.join()).seat == 0  # the person sits at seat 2: their view is turned
                async with asyncio.timeout(WAIT):
                    plain = asyncio.ensure_future(_plain_client(url, opened.code, home, Random(5)))
                    await play_randomly(bot, Random(2))
                    return await plain

    status, lines, before_reads = asyncio.run(game())
    (tmp_path / "transcript.txt").write_text("\n".join(lines))
    text = "\n".join(lines)
    assert status == 0, text
    assert lines[0] == "You sit in seat 3 of table " + lines[0].split(" table ")[1]
    assert "You play as Ann against Bot (person) and Rin (computer)." in text
    assert all(line.startswith("legal: ") for line in before_reads) and len(before_reads) > 20
    assert "Hints are off at this table: more than one person plays at it." in lines
    assert UNDO_OFF in lines
    assert any(line.startswith("Hand 1 is over.") for line in lines)
    assert "The game is over." in lines
    assert lines[-1].startswith("record: ")
    record = Path(lines[-1][len("record: ") :])
    assert record.parent == home / "data" / "games" and record.is_file()
    capsys.readouterr()
    assert main(["replay", str(record), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["complete"]
    assert json.loads(record.read_text())["players"] == ["Bot", "Rin", "Ann"]  # the server's seats, not turned
    totals = lines[-2]
    assert totals.startswith("Totals: You ") and str(summary["totals"][2]) in totals.split(",")[0]
    assert (home / "data" / "library.sqlite3").is_file()


def test_join_says_one_line_for_a_wrong_code_or_no_server(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))

    async def wrong_code() -> int:
        async with running(tmp_path / "server") as (_server, url):
            return await asyncio.to_thread(main, ["join", "AAAAA-AAAAA", "--server", url, "--plain"])

    assert asyncio.run(wrong_code()) == 1
    err = capsys.readouterr().err
    assert err.startswith("join: ") and err.count("\n") == 1
    assert main(["join", "AAAAA-AAAAA", "--server", "http://127.0.0.1:9", "--plain"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("join: cannot reach the server") and err.count("\n") == 1
    assert main(["join", "AAAAA-AAAAA", "--server", "ftp://x", "--plain"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_full_table_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))

    async def full() -> int:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with SeatClient(url, code=opened.code, name="Bo") as taken:
                await taken.join()
                return await asyncio.to_thread(main, ["join", opened.code, "--server", url, "--plain"])

    assert asyncio.run(full()) == 1
    err = capsys.readouterr().err
    assert err.startswith("join: ") and err.count("\n") == 1 and "Traceback" not in err


def test_a_turned_view_is_seat_0s_view_of_the_game_with_the_players_moved_round():
    """For every position of a random game, the view of seat s turned is the view of seat 0 in the
    same game with every seat numbered from s."""
    rules = Rules(short_game=True)
    players = ("Ann", "Bo", "Cy")
    rng = Random(11)
    first = 1
    games = [Game(rules, players, first)]
    for s in (1, 2):
        games.append(Game(rules, tuple(players[(i + s) % 3] for i in range(3)), (first - s) % 3))
    seeds = Seeds("turn")
    checked = 0
    while not games[0].over:
        if games[0].phase is Phase.DEAL:
            deal = games[0].deal_hand(seeds.deal(len(games[0].log) + 1)).deal
            for s in (1, 2):
                games[s].start_hand(tuple(deal[(i + s) % 3] for i in range(3)))
        else:
            bidding = games[0].phase is Phase.BIDDING
            action = rng.choice(games[0].legal_bids() if bidding else games[0].legal_cards())
            for g in games:
                if isinstance(action, int):
                    g.play(action)
                else:
                    g.bid(parse_bid(str(action)))
        for s in range(1, NUM_SEATS):
            assert turned(games[0].view(s)) == games[s].view(0)
            checked += 1
    assert checked > 100


def test_a_client_comes_back_on_its_table_s_own_path(tmp_path):
    """Once welcomed, a client's reconnections go to ``/t/<table>/ws``, the path a proxy in front of
    several processes hashes on (docs/online.md), and a kept seat starts there."""
    import asyncio

    from net_support import new_table, running
    from stepping_stones.net.client import SeatClient, open_table

    async def scenario() -> tuple[str, str, int]:
        async with running(tmp_path) as (_server, url):
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with SeatClient(url, code=opened.code, name="Ann", keep=tmp_path / "seat.json") as ann:
                welcome = await ann.join()
                path = ann.url.path
                assert ann._ws is not None
                await ann._ws.close()  # the connection drops: the client takes the seat back by itself
                await ann.receive()
                again = ann.connections
            resumed = SeatClient.resume(tmp_path / "seat.json")
            return path, f"/t/{welcome.table}/ws", again if resumed.url.path == path else -1

    path, wanted, connections = asyncio.run(scenario())
    assert path == wanted and connections == 2
