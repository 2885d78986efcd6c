"""The ``Shelf`` contract, run against both stores of a table server's finished games: the data
folder's (``games/``, ``notes/`` and ``library.sqlite3``) and PostgreSQL's (a real server started by
the tests, ``pg_support.py``).  A game is filed once per table, read back by its name, and the
history and the statistics are the same whichever keeps them; ``history`` and ``stats`` read a
server's shelf (``--data-dir``, ``--store``), and a server files its finished games on the shelf
of its store."""

from __future__ import annotations

import asyncio
import json

import pytest

from net_support import WAIT, new_table, running, three_bots
from stepping_stones.ai import RandomAI
from stepping_stones.cli import main
from stepping_stones.engine import Game, Rules
from stepping_stones.game.match import Seeds, drive
from stepping_stones.net.client import open_table, play_randomly
from stepping_stones.storage.library import HistoryEntry, Library
from stepping_stones.storage.records import record_from_game, record_json
from stepping_stones.storage.sidecar import SessionInfo

NAMES = [("Ann", "Bo", "Cy"), ("Bo", "Cy", "Ann"), ("Ann", "Dee", "Bo")]


def _finished(seed: str, players: tuple[str, str, str]) -> Game:
    seeds = Seeds(seed)
    game = Game(Rules(short_game=True), players=list(players), first_forehand=seeds.first_forehand())
    drive(game, [RandomAI()] * 3, seeds)
    assert game.over
    return game


def _sidecar(seed: str, stood_in: int | None = None, assisted: bool = False) -> str:
    hands: list[list[int]] = [[], [], []]
    if stood_in is not None:
        hands[stood_in] = [2, 3]
    return SessionInfo(seed=seed, levels=[None, None, "random"], table=True, stood_in=hands, assisted=assisted).text()


def _file_three(shelf) -> list[str]:  # type: ignore[no-untyped-def]
    names = []
    for n, players in enumerate(NAMES):
        game = _finished(f"shelf {n}", players)
        record = record_json(record_from_game(game))
        name, line = shelf.file(f"{n:016x}", record, _sidecar(f"seed {n}", stood_in=1 if n == 1 else None), "{}")
        assert line is None
        assert shelf.record(name) == record
        names.append(name)
    return names


def _plain(entries: list[HistoryEntry]) -> list[str]:
    """The entries but their names and times (those of two shelves differ by when they were filed)."""
    return sorted(json.dumps({k: v for k, v in e.to_json().items() if k not in ("file", "played")}) for e in entries)


def test_games_are_filed_once_and_read_back_the_same_from_either_store(stores, tmp_path):
    shelf = stores.shelf(tmp_path)
    names = _file_three(shelf)
    assert len(set(names)) == 3 and all(n.startswith("table-") and n.endswith(".json") for n in names)
    # the same table filed again (a crash after its filing): the first record is kept, not a second
    again, _line = shelf.file(
        f"{0:016x}", record_json(record_from_game(_finished("other", NAMES[0]))), _sidecar("x"), "{}"
    )
    assert again == names[0]
    history = shelf.history()
    assert len(history) == 3 and {e.file for e in history} == set(names)
    assert sorted(e.stood_in for e in history) == [[[], [], []], [[], [], []], [[], [2, 3], []]]
    with pytest.raises(KeyError):
        shelf.record("table-20260101-000000-00000000000000ff.json")
    # the answers are the data folder's library's own, over the same games
    reference = tmp_path / "reference"
    from stepping_stones.storage.library import FolderShelf

    _file_three(FolderShelf(reference))
    with Library.open(reference) as library:
        assert _plain(shelf.history()) == _plain(library.history())
        for player in ("Ann", "Bo", "Cy", "Dee", "Nobody"):
            for assisted in (False, True):
                assert shelf.stats(player, assisted) == library.stats(player, assisted)
    assert shelf.person() in {n[0] for n in NAMES}
    shelf.close()


def test_a_server_files_its_finished_games_on_its_store_s_shelf_and_the_commands_read_it(stores, tmp_path, capsys):
    async def game() -> None:
        async with running(tmp_path / "server", store=stores(tmp_path / "server")) as (_server, url):
            opened = await open_table(url, new_table())
            async with asyncio.timeout(WAIT):
                await three_bots(url, opened.code, play_randomly)

    asyncio.run(game())
    shelf = stores.shelf(tmp_path / "server")
    (entry,) = shelf.history()
    assert entry.complete and sorted(entry.players) == ["Bot 0", "Bot 1", "Bot 2"]
    dsn = stores.dsn(tmp_path / "server")
    source = ["--store", dsn] if dsn is not None else ["--data-dir", str(tmp_path / "server")]
    if dsn is not None:  # nothing of the game in the server's data folder: the store holds it
        assert not (tmp_path / "server" / "games").exists()
    capsys.readouterr()
    assert main(["history", *source, "--json"]) == 0
    (shown,) = json.loads(capsys.readouterr().out)
    assert shown["file"] == entry.file and shown["players"] == entry.players and shown["complete"]
    assert main(["stats", *source, "--player", entry.players[0], "--include-assisted", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 1 and figures["player"] == entry.players[0]
    assert [c["games"] for c in figures["per_contract"].values()] == [1, 1, 1]  # a short game: three contracts


def test_a_store_that_cannot_be_read_is_refused_in_one_line_without_its_password(capsys):
    url = "postgresql://someone:hunter2@127.0.0.1:1/none?connect_timeout=1"
    assert main(["history", "--store", url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("history: ") and "hunter2" not in err
    with pytest.raises(SystemExit) as refused:
        main(["stats", "--store", "mysql://x"])
    assert refused.value.code == 2 and "a store is a postgresql:// URL" in capsys.readouterr().err
