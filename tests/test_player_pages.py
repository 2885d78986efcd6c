"""The players' requests of a table server (net/playerpages.py), from raw aiohttp clients on
loopback: the ratings, a key's games and their records, a key carried to another device by a
transfer code (once, for ten minutes, rate limited), and the hostile cases (foreign Origin and
Host, bodies too large or malformed, floods).  Then the commands: ``ratings``, ``key export`` and
``key import``, and the keys file."""

from __future__ import annotations

import asyncio
import json
import os
import stat
from random import Random

import aiohttp
import pytest

from net_support import WAIT, Clock, new_table, next_state, running
from stepping_stones.cli import main
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.net.codes import digest
from stepping_stones.net.players import new_key
from stepping_stones.net.protocol import RatingsJSON
from stepping_stones.net.server import Limits
from stepping_stones.storage.player import keys_path, replace_key, server_key


async def _post(session: aiohttp.ClientSession, url: str, body: object, **headers: str) -> tuple[int, object]:
    data = body if isinstance(body, bytes | str) else json.dumps(body)
    async with session.post(url, data=data, headers={"Content-Type": "application/json", **headers}) as r:
        text = await r.text()
        try:
            return r.status, json.loads(text)
        except ValueError:
            return r.status, text


async def _game(url: str, key: str, seed: int) -> None:
    opened = await open_table(url, new_table(("open", "random", "random")))
    async with SeatClient(url, code=opened.code, name="Ann", key=key) as client:
        await client.join()
        async with asyncio.timeout(WAIT):
            await play_randomly(client, Random(seed))
        await next_state(client, lambda s: s.seats[0].rating is not None)  # settled


def test_a_key_lists_its_games_and_downloads_their_records_which_replay(tmp_path, capsys):
    key, other = new_key(), new_key()

    async def run():
        async with running(tmp_path) as (_server, url), aiohttp.ClientSession() as session:
            await _game(url, key, 3)
            status, me = await _post(session, url + "/players/me", {"key": key})
            assert status == 200 and isinstance(me, dict)
            table = me["games"][0]["table"]
            status, record = await _post(session, url + "/players/record", {"key": key, "table": table})
            refused = await _post(session, url + "/players/record", {"key": other, "table": table})
            nobody = await _post(session, url + "/players/me", {"key": other})
            async with session.get(url + "/players/ratings") as r:
                ratings = await r.json()
            return me, status, record, refused, nobody, ratings

    me, status, record, refused, nobody, ratings = asyncio.run(run())
    assert me["name"] == "Ann" and me["rating"] is not None and len(me["games"]) == 1
    (game,) = me["games"]
    assert game["rated"] and game["seat"] == 0 and game["names"][0] == "Ann" and game["rating"] == me["rating"]
    assert status == 200 and isinstance(record, dict)
    path = tmp_path / "downloaded.json"
    path.write_text(json.dumps(record))
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0  # what the page downloads, replay accepts
    assert json.loads(capsys.readouterr().out)["complete"]
    assert refused[0] == 404  # another key does not get it
    assert nobody == (200, {"name": None, "rating": None, "games": []})
    names = [p["name"] for p in ratings["players"]]
    assert "Ann" in names and "Computer (random)" in names


def test_a_transfer_code_gives_another_device_a_key_of_the_same_player_once(tmp_path):
    key = new_key()
    clock = Clock()

    async def run():
        limits = Limits(transfer_burst=20)
        async with running(tmp_path, clock=clock, limits=limits) as (server, url), aiohttp.ClientSession() as session:
            await _game(url, key, 4)
            status, code = await _post(session, url + "/players/export", {"key": key})
            assert status == 200 and isinstance(code, dict) and code["seconds"] == 600
            status, new = await _post(session, url + "/players/import", {"code": code["code"].lower()})
            again = await _post(session, url + "/players/import", {"code": code["code"]})  # once only
            assert status == 200 and isinstance(new, dict)
            mine = await _post(session, url + "/players/me", {"key": key})
            theirs = await _post(session, url + "/players/me", {"key": new["key"]})
            # a code goes stale after ten minutes, and a new one replaces the old
            _, late = await _post(session, url + "/players/export", {"key": key})
            _, newer = await _post(session, url + "/players/export", {"key": key})
            replaced = await _post(session, url + "/players/import", {"code": late["code"]})
            clock.now += 601
            stale = await _post(session, url + "/players/import", {"code": newer["code"]})
            store = server.tables.players
            assert store is not None
            return new["key"], again, mine, theirs, replaced, stale, store.player_of(digest(new["key"]))

    second, again, mine, theirs, replaced, stale, player = asyncio.run(run())
    assert second != key and len(second) == 43 and player is not None
    assert again[0] == 404 and replaced[0] == 404 and stale[0] == 404
    assert mine == theirs and mine[1]["games"]  # the same player, the same games
    kept = b"".join(p.read_bytes() for p in tmp_path.glob("players.sqlite3*"))
    assert digest(key).encode() in kept  # the server keeps the keys' digests, never the keys
    assert key.encode() not in kept and second.encode() not in kept


def test_hostile_requests_get_one_clear_refusal_and_change_nothing(tmp_path):
    limits = Limits(read_burst=200, transfer_burst=3)

    async def run():
        async with running(tmp_path, limits=limits) as (server, url), aiohttp.ClientSession() as session:
            out: dict[str, tuple[int, object]] = {}
            out["origin"] = await _post(session, url + "/players/me", {"key": new_key()}, Origin="http://evil.example")
            out["host"] = await _post(session, url + "/players/me", {"key": new_key()}, Host="evil.example")
            out["big"] = await _post(session, url + "/players/me", b"{" + b" " * 5000 + b"}")
            out["not json"] = await _post(session, url + "/players/me", b"\xff\xfe")
            out["bad key"] = await _post(session, url + "/players/me", {"key": "x" * 43 + "<"})
            out["extra"] = await _post(session, url + "/players/me", {"key": new_key(), "admin": True})
            out["deep"] = await _post(session, url + "/players/me", {"key": [[[[[[1]]]]]]})
            out["table"] = await _post(session, url + "/players/record", {"key": new_key(), "table": "../../etc"})
            async with session.get(url + "/players/me") as r:
                out["get"] = (r.status, await r.text())
            # wrong transfer codes: each a wrong guess; past the transfer allowance, refused unread
            for i in range(3):
                out[f"guess {i}"] = await _post(session, url + "/players/import", {"code": "AAAAA-AAAAA"})
            out["too many"] = await _post(session, url + "/players/import", {"code": "AAAAA-AAAAA"})
            return out, server.tables.players.top(10) if server.tables.players else None

    out, top = asyncio.run(run())
    assert out["origin"][0] == 403 and out["host"][0] == 403
    assert out["big"][0] == 413
    for name in ("not json", "bad key", "extra", "deep", "table"):
        status, body = out[name]
        assert status == 400 and isinstance(body, dict) and body["type"] == "error", name
        assert "\n" not in body["message"] and "Traceback" not in body["message"]
    assert out["get"][0] == 405
    assert [out[f"guess {i}"][0] for i in range(3)] == [404, 404, 404]
    assert out["too many"][0] == 429
    assert top == []


def test_the_players_requests_are_held_to_the_address_s_allowance(tmp_path):
    async def run():
        limits = Limits(read_burst=5, read_rate=0.001)
        async with running(tmp_path, limits=limits) as (_s, url), aiohttp.ClientSession() as session:
            statuses = []
            for _ in range(7):
                async with session.get(url + "/players/ratings") as r:
                    statuses.append(r.status)
            return statuses

    assert asyncio.run(run()) == [200] * 5 + [429] * 2


def test_the_keys_file_is_its_owner_s_only_and_an_import_keeps_the_old_key_aside(tmp_path):
    path = tmp_path / "data" / "player.json"
    first = server_key("http://127.0.0.1:8765/", path)
    assert server_key("http://127.0.0.1:8765", path) == first  # made once
    assert server_key("http://127.0.0.1:9999", path) != first  # one key a server
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    new = new_key()
    assert replace_key("http://127.0.0.1:8765", new, path) == first
    data = json.loads(path.read_text())
    assert data["keys"]["http://127.0.0.1:8765"] == new and data["before"][-1]["key"] == first
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match="holds no player keys"):
        server_key("http://127.0.0.1:8765", path)


def test_the_commands_show_the_ratings_and_carry_a_key(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "one"))

    async def serve(work):
        async with running(tmp_path / "server") as (_server, url):
            return await work(url)

    async def commands(url):
        await _game(url, server_key(url, keys_path()), 5)  # this device's key, made on first use
        out = {}
        for name, argv in (
            ("ratings", ["ratings", "--server", url]),
            ("json", ["ratings", "--server", url, "--json"]),
            ("export", ["key", "export", "--server", url]),
        ):
            capsys.readouterr()
            status = await asyncio.to_thread(main, argv)
            out[name] = (status, *capsys.readouterr())
        code = out["export"][1].split("code: ")[1].split()[0]
        monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "two"))  # the other device
        for name, argv in (
            ("import", ["key", "import", code, "--server", url]),
            ("twice", ["key", "import", code, "--server", url]),
            ("no server", ["ratings", "--server", "ftp://x"]),
        ):
            capsys.readouterr()
            status = await asyncio.to_thread(main, argv)
            out[name] = (status, *capsys.readouterr())
        async with aiohttp.ClientSession() as session:
            out["me"] = await _post(session, url + "/players/me", {"key": server_key(url, keys_path())})
        return out

    out = asyncio.run(serve(commands))
    status, text, _err = out["ratings"]
    assert status == 0 and "Ann" in text and "Computer (random)" in text
    printed = json.loads(out["json"][1])
    assert printed["players"] and RatingsJSON.model_validate(printed).model_dump(mode="json") == printed
    assert out["export"][0] == 0 and "works once" in out["export"][2]
    assert out["import"][0] == 0 and "now plays as that player" in out["import"][1]
    assert out["twice"][0] == 2 and out["twice"][2].count("\n") == 1 and "no live transfer code" in out["twice"][2]
    assert out["no server"][0] == 2 and out["no server"][2].count("\n") == 1
    assert out["me"][1]["name"] == "Ann" and out["me"][1]["games"]  # the other device is Ann now
    assert os.stat(keys_path()).st_mode & 0o077 == 0


def test_a_review_has_the_hand_analysis_worked_out_once_off_the_loop_and_held_per_address(tmp_path):
    """The web review says each hand against perfect play and each trick's position, in the words
    of the library's own functions for the reader's seat; the analysis is worked out by the
    server's thinkers once and kept with the game (a second review spends nothing), and an
    address that has spent its allowance is told why on another game, which is still reviewed."""
    from stepping_stones.ai.analysis import analyse_past, analysis_lines, position_lines, seen_by
    from stepping_stones.storage.records import game_from_record, parse_record

    key = new_key()

    async def run():
        limits = Limits(analysis_burst=1, analysis_rate=1e-6)
        async with running(tmp_path, limits=limits) as (_s, url), aiohttp.ClientSession() as session:
            await _game(url, key, 3)
            await _game(url, key, 4)
            _status, me = await _post(session, url + "/players/me", {"key": key})
            first, second = (g["table"] for g in me["games"])
            _status, record = await _post(session, url + "/players/record", {"key": key, "table": first})
            reviewed = await _post(session, url + "/players/review", {"key": key, "table": first})
            kept = sorted(p.name for p in (tmp_path / "notes").glob("*.analysis.json"))
            again = await _post(session, url + "/players/review", {"key": key, "table": first})
            other = await _post(session, url + "/players/review", {"key": key, "table": second})
            return record, reviewed, kept, again, other

    record, (status, reviewed), kept, again, (other_status, other) = asyncio.run(run())
    assert status == 200 and len(kept) == 1
    game = game_from_record(parse_record(json.dumps(record)))
    view = game.view(reviewed["seat"])
    assert len(reviewed["hands"]) == len(view.history)
    for hand, past in zip(reviewed["hands"], view.history, strict=True):
        found = analyse_past(past, seen=seen_by(view))
        assert found is not None
        assert hand["analysis"] == [
            f"Hand {past.number} against perfect play:",
            *analysis_lines(found, view.players, view.seat),
        ]
        assert len(hand["positions"]) == len(hand["tricks"]) == 12
        assert hand["positions"][0] == position_lines(found, 3, view.players, view.seat)
        assert hand["positions"][-1] == position_lines(found, 36, view.players, view.seat)
    assert again == (200, reviewed)  # kept: the allowance, spent on the first, is not asked again
    assert other_status == 200 and other["hands"] and other["hands"][0]["tricks"]
    refused = "The hand analysis of more games from your address must wait: try again in a minute."
    assert all(h["analysis"] == [refused] and h["positions"] == [] for h in other["hands"])
