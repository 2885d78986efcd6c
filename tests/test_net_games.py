"""Whole games at the table server over loopback: three bot clients, one bot and two computers,
an early start, two clients taking the last seat at once, and a person who never answers."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from random import Random

import aiohttp
import pytest

from net_support import WAIT, Clock, new_table, next_state, running, three_bots
from stepping_stones.ai import make_ai
from stepping_stones.cli import main
from stepping_stones.engine import Phase
from stepping_stones.game.match import Match, Seeds
from stepping_stones.net.client import Refused, SeatClient, open_table, play_randomly
from stepping_stones.net.codes import digest
from stepping_stones.net.journal import FileTableStore, TableFile
from stepping_stones.net.players import SqlitePlayerStore, new_key
from stepping_stones.net.protocol import CHOSEN_SEED, StateMessage
from stepping_stones.net.server import Limits, TableServer
from stepping_stones.net.table import TableError
from stepping_stones.storage.library import Library
from stepping_stones.storage.records import game_from_record


def _replays(path: Path, capsys) -> dict:
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _finished(folder: Path) -> tuple[Path, TableFile]:
    (record,) = sorted((folder / "games").glob("table-*[0-9a-f].json"))
    notes = TableFile.model_validate_json((folder / "notes" / f"{record.stem}.table.json").read_text())
    return record, notes


def test_three_bots_play_a_whole_game_and_the_record_replays(tmp_path, capsys):
    async def game() -> list[StateMessage]:
        async with running(tmp_path) as (_server, url):
            opened = await open_table(url, new_table())
            return await three_bots(url, opened.code, play_randomly)

    finals = asyncio.run(game())
    record, notes = _finished(tmp_path)
    summary = _replays(record, capsys)
    assert summary["complete"]
    for final in finals:
        assert final.record is not None and final.record.model_dump_json() == finals[0].record.model_dump_json()
        assert final.view is not None and final.view.phase is Phase.OVER
        assert not final.help  # three people: no hints, no undo
    assert finals[0].view is not None
    assert json.loads(record.read_text()) == json.loads(finals[0].record.model_dump_json())
    assert [s.kind for s in notes.seats] == ["human"] * 3 and notes.substitutions == []
    view = finals[0].view
    assert summary["totals"] == view.totals() and summary["winners"] == view.winners()
    assert list((tmp_path / "tables").glob("*.jsonl")) == []  # a finished table leaves the store
    with Library.open(tmp_path, sync=False) as library:  # filed into the server's library as it finished
        (entry,) = library.history()
    assert Path(entry.file).name == record.name


def test_a_filed_table_leaves_the_server_s_memory_and_its_code_and_secret_are_spent(tmp_path):
    async def game() -> tuple[TableServer, str, str | None]:
        async with running(tmp_path) as (server, url):
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with SeatClient(url, code=opened.code, name="Ann") as client:
                welcome = await client.join()
                async with asyncio.timeout(WAIT):
                    final = await play_randomly(client, Random(5))
                assert final.record is not None
        return server, opened.code, welcome.secret  # stopped: every change, the filing too, is done

    server, code, secret = asyncio.run(game())
    assert len(list((tmp_path / "games").glob("table-*[0-9a-f].json"))) == 1
    assert server.tables.tables == {} and server.tables.by_code == {} and server.tables.by_secret == {}

    class Nobody:
        def send(self, text: str) -> None:
            raise AssertionError(f"sent {text}")

        def close(self) -> None:
            raise AssertionError("closed")

    for hello, refusal in (((code, None, "Bo"), "unknown-code"), ((None, secret, None), "bad-secret")):
        with pytest.raises(TableError) as caught:
            asyncio.run(server.tables.hello(Nobody(), *hello))
        assert caught.value.code == refusal


def test_a_seat_taken_back_with_its_secret_is_found_without_looking_through_every_table(tmp_path, monkeypatch):
    """When a process dies, all its tables' people come back to another at once: each hello with a
    secret looks at its own table alone (through every table's seats, 3,000 such hellos took tens
    of seconds at 2,000 tables).  A secret of no seat finds nothing, and nothing is looked at."""
    from stepping_stones.net.table import Table

    async def scenario() -> tuple[list[int], str]:
        roomy = Limits(tables_per_minute=100, tables_per_address=100, tables_in_play_per_address=100, hello_burst=100)
        async with running(tmp_path, limits=roomy) as (_server, url):
            secrets = []
            for _ in range(40):
                opened = await open_table(url, new_table(("open", "open", "open")))
                async with SeatClient(url, code=opened.code, name="Ann") as client:
                    secrets.append((await client.join()).secret)
            looked = []
            seat_of = Table.seat_of

            def counted(table: Table, secret: str) -> int | None:
                looked.append(1)
                return seat_of(table, secret)

            monkeypatch.setattr(Table, "seat_of", counted)
            counts = []
            for secret in secrets[::13]:
                looked.clear()
                async with SeatClient(url, secret=secret) as back:
                    await back.join()
                counts.append(len(looked))
            looked.clear()
            async with SeatClient(url, secret="x" * 43) as stranger:
                with pytest.raises(Refused) as refused:
                    await stranger.join()
            counts.append(len(looked))
            return counts, str(refused.value.code)

    counts, code = asyncio.run(scenario())
    assert counts == [1, 1, 1, 1, 0] and code == "bad-secret"


def test_a_game_finished_just_before_a_crash_is_filed_once(tmp_path):
    """The server files a finished game, then takes the table out of its store: killed in between,
    it finds the finished table again when it restarts, and files it, but not twice."""

    async def game() -> None:
        async with running(tmp_path) as (_server, url):
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with SeatClient(url, code=opened.code, name="Ann") as client:
                await client.join()
                async with asyncio.timeout(WAIT):
                    await play_randomly(client, Random(3))

    asyncio.run(game())
    record, notes = _finished(tmp_path)
    assert notes.record is not None
    # the table as the store held it when the game ended, before it was taken out
    FileTableStore(tmp_path / "tables").save(notes.id, notes.model_dump_json())

    async def again() -> None:
        async with running(tmp_path):
            pass

    asyncio.run(again())
    assert sorted((tmp_path / "games").glob("table-*[0-9a-f].json")) == [record]
    assert list((tmp_path / "tables").glob("*.jsonl")) == []
    with Library.open(tmp_path, sync=False) as library:
        assert [Path(e.file).name for e in library.history()] == [record.name]


def test_one_bot_and_two_computers(tmp_path, capsys):
    async def game() -> StateMessage:
        async with running(tmp_path) as (_server, url):
            opened = await open_table(url, new_table(("random", "open", "random"), names=["Rin", None, "Tau"]))
            assert [s.kind for s in opened.seats] == ["computer", "open", "computer"]
            async with SeatClient(url, code=opened.code, name="Ann") as client:
                welcome = await client.join()
                assert welcome.seat == 1 and welcome.secret is not None
                async with asyncio.timeout(WAIT):
                    return await play_randomly(client, Random(1))

    final = asyncio.run(game())
    assert final.help and final.view is not None and final.view.players == ("Rin", "Ann", "Tau")
    record, notes = _finished(tmp_path)
    assert _replays(record, capsys)["complete"]
    assert [s.kind for s in notes.seats] == ["computer", "human", "computer"]


def test_the_opener_starts_early_and_computers_take_the_open_seats(tmp_path):
    async def game() -> None:
        async with running(tmp_path) as (_server, url):
            opened = await open_table(url, new_table(level="random"))
            async with (
                SeatClient(url, code=opened.code, name="Ann") as ann,
                SeatClient(url, code=opened.code, name="Bo") as bo,
            ):
                assert (await ann.join()).opener
                assert not (await bo.join()).opener
                await bo.start()
                async with asyncio.timeout(WAIT):
                    while True:  # Bo is told no, and nothing starts
                        message = await bo.receive()
                        if not isinstance(message, StateMessage):
                            assert message.type == "error" and message.code == "not-opener"
                            break
                await ann.start()
                state = await next_state(ann, lambda s: s.started)
                assert [s.kind for s in state.seats] == ["human", "human", "computer"]
                assert state.seats[2].level == "random" and state.seats[2].name
                assert not state.help  # two people
                async with asyncio.timeout(WAIT):
                    await asyncio.gather(play_randomly(ann, Random(1)), play_randomly(bo, Random(2)))

    asyncio.run(game())


def test_two_clients_claiming_the_last_seat_at_once(tmp_path):
    async def game() -> None:
        async with running(tmp_path) as (_server, url):
            opened = await open_table(url, new_table(("open", "open", "random")))
            async with SeatClient(url, code=opened.code, name="Ann") as ann:
                await ann.join()
                rivals = [SeatClient(url, code=opened.code, name=n) for n in ("Bo", "Cy")]
                results = await asyncio.gather(*(r.join() for r in rivals), return_exceptions=True)
                won = [r for r in results if not isinstance(r, BaseException)]
                lost = [r for r in results if isinstance(r, BaseException)]
                assert len(won) == 1 and won[0].seat == 1
                assert len(lost) == 1 and isinstance(lost[0], Refused)
                assert "started" in str(lost[0]) or "taken" in str(lost[0])
                state = await next_state(ann, lambda s: s.started)
                assert [s.kind for s in state.seats] == ["human", "human", "computer"]
                for rival in rivals:
                    await rival.close()

    asyncio.run(game())


def test_a_person_who_never_answers_gets_a_computer_until_they_come_back(tmp_path):
    clock = Clock()
    keys = [new_key(), new_key()]

    async def game() -> list[StateMessage]:
        async with running(tmp_path, clock=clock, timeout=120.0) as (server, url):
            opened = await open_table(url, new_table(("open", "open", "random")))
            async with (
                SeatClient(url, code=opened.code, name="Ann", key=keys[0]) as ann,
                SeatClient(url, code=opened.code, name="Bo", key=keys[1]) as bo,
            ):
                await ann.join()
                await bo.join()
                # Bo plays; Ann never answers.  Wait until the table waits for Ann (Bo may be the
                # first to bid: the table's seed is a fresh one, so he acts until then).
                async with asyncio.timeout(WAIT):
                    while True:
                        message = await bo.receive()
                        if not isinstance(message, StateMessage):
                            continue
                        if message.waiting is not None and message.waiting.seat == 0:
                            break
                        if message.legal:
                            await bo.act(Random(4).choice(message.legal), message.seq)
                state = await next_state(ann, lambda s: s.waiting is not None and s.waiting.seat == 0)
                clock.now += 119.0
                await server.tables.sweep()
                assert server.tables.tables[opened.table].overdue() is None  # not yet
                clock.now += 1.0
                await server.tables.sweep()  # two minutes: a computer plays for Ann
                after = await next_state(ann, lambda s: s.seats[0].stand_in)
                assert after.seq == state.seq and after.seats[0].kind == "human"
                assert after.waiting is not None and after.waiting.seat == 0 and after.waiting.computer
                table = server.tables.tables[opened.table]
                async with asyncio.timeout(WAIT):
                    while not table.substitutions:  # the computer acts for Ann: a state Bo hears
                        message = await bo.receive()
                        if isinstance(message, StateMessage) and message.legal:
                            await bo.act(Random(3).choice(message.legal), message.seq)
                assert {s.seat for s in table.substitutions} == {0}
                # Ann comes back: her next action takes the seat back from the computer
                latest = ann.state
                assert latest is not None
                await ann.send({"type": "action", "seq": latest.seq, "bid": "pass"})
                back = await next_state(ann, lambda s: not s.seats[0].stand_in)
                assert back.seats[0].connected
                async with asyncio.timeout(WAIT):
                    return await asyncio.gather(play_randomly(ann, Random(1)), play_randomly(bo, Random(2)))

    finals = asyncio.run(game())
    record, notes = _finished(tmp_path)
    assert notes.substitutions and all(s.seat == 0 for s in notes.substitutions)
    hands = sorted({s.hand for s in notes.substitutions})
    for final in finals:  # every final screen can say which hands a computer played for Ann
        assert [s.stood_in for s in final.seats] == [hands, [], []]
    sidecar = json.loads(record.with_suffix(".session.json").read_text())
    assert sidecar["table"] and sidecar["stood_in"] == [hands, [], []] and sidecar["levels"][:2] == [None, None]
    assert sidecar["seed"] == notes.seed  # the seed, once the game is over
    with Library.open(tmp_path, sync=False) as library:
        (entry,) = library.history()
        ann, bo = library.stats("Ann"), library.stats("Bo")
        everything = library.stats("Ann", include_assisted=True)
    assert entry.stood_in == [hands, [], []] and not entry.assisted
    assert (ann.games, ann.stand_in_games) == (0, 1)  # Ann's game is counted apart...
    assert (bo.games, bo.stand_in_games) == (1, 0)  # ...Bo's is his
    assert everything.games == 1
    from stepping_stones.cli.history import assisted_text

    which = f"hand {hands[0]}" if len(hands) == 1 else f"hands {', '.join(map(str, hands))}"
    assert assisted_text(entry) == f"computer for Ann ({which})"
    # and the ratings count it apart, for everyone at the table: nobody's rating moves
    players = SqlitePlayerStore(tmp_path / "players.sqlite3")
    assert players.top(10) == []
    for key in keys:
        player = players.player_of(digest(key))
        assert player is not None and players.rating(player) is None
        (played,) = players.games(player, 10)
        assert not played.rated


def test_the_server_s_folders_and_library_are_its_owner_s_alone_under_umask_022(tmp_path):
    folder = tmp_path / "server" / "data"  # neither there yet: the server makes both

    async def game() -> None:
        async with running(folder) as (_server, url):
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with SeatClient(url, code=opened.code, name="Ann") as client:
                await client.join()
                async with asyncio.timeout(WAIT):
                    await play_randomly(client, Random(2))

    was = os.umask(0o022)
    try:
        asyncio.run(game())
    finally:
        os.umask(was)
    made = [tmp_path / "server", folder, *(p for p in folder.rglob("*"))]
    assert {p.name for p in made} >= {"server", "data", "tables", "games", "notes", "library.sqlite3"}
    loose = {str(p.relative_to(tmp_path)): oct(p.stat().st_mode & 0o777) for p in made if p.stat().st_mode & 0o077}
    assert loose == {}


Receive = Callable[..., Awaitable[aiohttp.WSMessage]]


def _listening(receive: Receive, texts: list[str]) -> Receive:
    """A websocket's ``receive`` that keeps the text of every message it hands on in ``texts``."""

    async def listening(timeout: float | None = None) -> aiohttp.WSMessage:
        message = await receive(timeout)
        if message.type == aiohttp.WSMsgType.TEXT:
            texts.append(message.data)
        return message

    return listening


def test_nobody_can_choose_or_learn_a_table_s_seed_until_its_game_is_over(tmp_path, capsys):
    """The deals and the computers' choices follow from the table's seed: a client may not choose
    it, no seat is sent it while the game goes on, and the game's notes hold it once it is over."""
    request = new_table(("open", "random", "random"))

    async def game() -> list[list[str]]:
        async with running(tmp_path) as (_server, url):
            chosen = json.loads(request.model_dump_json()) | {"seed": "guessed"}
            async with (
                aiohttp.ClientSession() as session,
                session.post(f"{url}/tables", data=json.dumps(chosen)) as response,
            ):
                assert response.status == 400
                assert CHOSEN_SEED in (await response.json())["message"]
            heard: list[list[str]] = []
            for _ in range(2):  # the same request twice
                opened = await open_table(url, request)
                async with SeatClient(url, code=opened.code, name="Ann") as client:
                    await client.join()
                    ws = client._ws
                    assert ws is not None
                    texts: list[str] = []
                    ws.receive = _listening(ws.receive, texts)  # type: ignore[method-assign]
                    async with asyncio.timeout(WAIT):
                        await play_randomly(client, Random(4))
                heard.append(texts)
            return heard

    heard = asyncio.run(game())
    assert main(["table", "new", "--server", "http://127.0.0.1:1", "--seed", "guessed"]) == 2
    assert capsys.readouterr().err == f"table new: --seed: {CHOSEN_SEED}\n"
    filed = sorted((tmp_path / "games").glob("table-*[0-9a-f].json"))
    notes = [TableFile.model_validate_json((tmp_path / "notes" / f"{r.stem}.table.json").read_text()) for r in filed]
    assert len(notes) == 2 and notes[0].seed != notes[1].seed
    deals = []
    for note, texts in zip(notes, heard, strict=False):
        assert len(note.seed) == 32 and len(texts) > 50
        assert not any(note.seed in text for text in texts)  # never sent to the seat while it played
        assert note.record is not None
        game = game_from_record(note.record)  # the seed in the notes replays the deal
        match = Match.new(game.rules, [make_ai("random")] * 3, Seeds(note.seed), players=tuple(game.players))
        match.step()
        assert match.game.log[0].deal == game.log[0].deal
        deals.append(game.log[0].deal)
    assert deals[0] != deals[1]  # the same request, other cards: the deal is not the client's to know
