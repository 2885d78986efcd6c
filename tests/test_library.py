"""The game library (docs/library.md): import, duplicates, bad records, rebuilding the index,
two writers at once, and the statistics against figures worked out from the records directly."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import random_game
from stepping_stones.cli import main
from stepping_stones.engine import CONTRACTS, Goal, Rules
from stepping_stones.storage.library import Library, file_game
from stepping_stones.storage.library import database as library_module
from stepping_stones.storage.records import read_record, record_from_game, summary, write_record

NAMES = ["Ann", "Bo", "Cy", "Di"]


def make_records(folder: Path, count: int, start: int = 0) -> list[Path]:
    """Whole games of random play, the names in varying seats, some short, advanced or with redo."""
    folder.mkdir(parents=True, exist_ok=True)
    options = [
        Rules(),
        Rules("advanced", redo_tokens=True),
        Rules(short_game=True),
        Rules("standard", redo_tokens=True),
    ]
    paths = []
    for i in range(start, start + count):
        game = random_game(1000 + i, options[i % len(options)])
        k = i % len(NAMES)
        others = (1, 2) if i % 2 == 0 else (3, 1)
        players = [NAMES[k], NAMES[(k + others[0]) % len(NAMES)], NAMES[(k + others[1]) % len(NAMES)]]
        record = record_from_game(game).model_copy(update={"players": players})
        path = folder / f"g{i:03d}.json"
        write_record(path, record)
        paths.append(path)
    return paths


def expected_stats(paths: list[Path], name: str, assisted: set[Path] = frozenset()) -> dict:
    """The figures of ``stats --json``, worked out from each record's replay summary alone."""
    games = wins = shared = 0
    points: list[int] = []
    per: dict[str, dict[str, list]] = {}
    for path in paths:
        record = read_record(path)
        if name not in record.players or path in assisted:
            continue
        from stepping_stones.storage.records import game_from_record

        facts = summary(game_from_record(record))
        if not facts["complete"]:
            continue
        seat = record.players.index(name)
        games += 1
        points.append(facts["totals"][seat])
        if seat in facts["winners"]:
            wins += 1
            shared += len(facts["winners"]) > 1
        for cid, row in facts["sheet"].items():
            best = (max if CONTRACTS[cid].goal is Goal.WIN else min)(row)
            d = per.setdefault(cid, {"counts": [], "points": [], "firsts": 0})
            d["counts"].append(row[seat])
            d["points"].append(facts["points"][cid][seat])
            d["firsts"] += row[seat] == best
    return {
        "player": name,
        "games": games,
        "wins": wins,
        "shared_wins": shared,
        "mean_points": sum(points) / len(points) if points else None,
        "assisted_games": sum(1 for p in assisted if name in read_record(p).players),
        "stand_in_games": 0,  # no table's game here
        "per_contract": {
            cid: {
                "games": len(d["counts"]),
                "mean_count": sum(d["counts"]) / len(d["counts"]),
                "mean_points": sum(d["points"]) / len(d["points"]),
                "firsts": d["firsts"],
            }
            for cid, d in sorted(per.items(), key=lambda kv: list(CONTRACTS).index(kv[0]))
        },
    }


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def stats_json(capsys, name: str, *extra: str) -> dict:
    code, out, _err = run_cli(capsys, "stats", "--player", name, "--json", *extra)
    assert code == 0
    return json.loads(out)


def test_import_twice_and_the_figures_equal_those_worked_out_from_the_records(home, tmp_path, capsys):
    paths = make_records(tmp_path / "in", 10)
    code, out, err = run_cli(capsys, "library", "import", str(tmp_path / "in"))
    assert (code, out) == (0, "imported 10, already there 0, refused 0\n")
    assert err == ""  # a first start makes the library without a word ("built again (there was none)")
    assert len(list((home / "data" / "games").glob("imported-*.json"))) == 10
    code, out, _ = run_cli(capsys, "library", "import", str(tmp_path / "in"), str(paths[0]))
    assert (code, out) == (0, "imported 0, already there 11, refused 0\n")
    for name in NAMES:
        assert stats_json(capsys, name) == expected_stats(paths, name)


def test_small_records_by_hand(home, tmp_path, capsys):
    """Three games of Ann, in seats 0, 1 and 2, added up by hand from their replay summaries."""
    paths = make_records(tmp_path / "in", 3)
    assert [read_record(p).players.index("Ann") for p in paths] == [0, 1, 2]
    rules = [Rules(), Rules("advanced", redo_tokens=True), Rules(short_game=True)]
    f0, f1, f2 = (summary(random_game(1000 + i, r)) for i, r in enumerate(rules))
    run_cli(capsys, "library", "import", *map(str, paths))
    got = stats_json(capsys, "Ann")
    assert got["games"] == 3
    assert got["mean_points"] == (f0["totals"][0] + f1["totals"][1] + f2["totals"][2]) / 3
    assert got["wins"] == (0 in f0["winners"]) + (1 in f1["winners"]) + (2 in f2["winners"])
    # Lose Tricks (No Trump) is in the standard game and the short one, not in the advanced set;
    # a Lose contract: placing first means the fewest tricks
    row0, row2 = f0["sheet"]["lose-no-trump"], f2["sheet"]["lose-no-trump"]
    assert "lose-no-trump" not in f1["sheet"]
    assert got["per_contract"]["lose-no-trump"] == {
        "games": 2,
        "mean_count": (row0[0] + row2[2]) / 2,
        "mean_points": (f0["points"]["lose-no-trump"][0] + f2["points"]["lose-no-trump"][2]) / 2,
        "firsts": int(row0[0] == min(row0)) + int(row2[2] == min(row2)),
    }
    # Must Beat only in the advanced game
    m = got["per_contract"]["must-beat"]
    row = f1["sheet"]["must-beat"]
    assert m == {
        "games": 1,
        "mean_count": row[1],
        "mean_points": f1["points"]["must-beat"][1],
        "firsts": int(row[1] == min(row)),
    }


def test_the_same_game_spaced_otherwise_is_already_there(home, tmp_path, capsys):
    [path] = make_records(tmp_path / "in", 1)
    again = tmp_path / "again.json"
    again.write_text(json.dumps(json.loads(path.read_text())))  # one line, other spacing
    run_cli(capsys, "library", "import", str(path))
    assert run_cli(capsys, "library", "import", str(again))[1] == "imported 0, already there 1, refused 0\n"


def test_bad_records_are_refused_one_line_each_and_the_others_go_on(home, tmp_path, capsys):
    folder = tmp_path / "in"
    good = make_records(folder, 2)
    (folder / "broken.json").write_text('{"format": "stepping-stones-record/1", "rules": ')
    data = json.loads(good[0].read_text())
    data["hands"][0]["play"] = data["hands"][0]["play"].replace(data["hands"][0]["play"].split()[1], "B9", 1)
    (folder / "cheat.json").write_text(json.dumps(data))
    (folder / "evil\x1b].json").write_text("[" * 50)
    (folder / "not-a-record.session.json").write_text("{}")  # sidecars are not records
    code, out, err = run_cli(capsys, "library", "import", str(folder), str(tmp_path / "missing.json"))
    assert code == 2
    assert out == "imported 2, already there 0, refused 4\n"
    lines = [line for line in err.splitlines() if line.startswith("refused ")]
    assert len(lines) == 4 and len(err.splitlines()) == 4  # and no notice for a new library
    assert any("broken.json: not valid JSON" in line for line in lines)
    assert any("cheat.json: hand 1, play" in line for line in lines)
    assert any("evil\\x1b].json" in line for line in lines) and "\x1b" not in err
    assert any("missing.json" in line and "no such file" in line for line in lines)


def test_a_refusal_is_one_bounded_line_even_for_a_deep_path_and_a_long_reason(home, tmp_path, capsys):
    folder = tmp_path / ("a" * 200) / ("b\x1b" * 60) / ("c" * 200)
    folder.mkdir(parents=True)
    good = make_records(tmp_path / "good", 1)[0]
    data = json.loads(good.read_text())
    data["\u2028" + "k" * 400] = 1
    (folder / "long.json").write_text(json.dumps(data))
    (folder / "broken.json").write_text('{"format": ')
    code, out, err = run_cli(capsys, "library", "import", str(folder))
    assert (code, out) == (2, "imported 0, already there 0, refused 2\n")
    lines = [line for line in err.splitlines() if line.startswith("refused ")]
    assert len(lines) == 2, err
    for line in lines:
        assert len(line) <= 300, len(line)
        assert line.isprintable(), repr(line)
        assert line.startswith(f"refused {str(tmp_path)[:40]}")
    assert any(line.endswith("(Expecting value at line 1, column 12)") for line in lines), lines
    assert "\x1b" not in err and "\u2028" not in err


@pytest.mark.parametrize("damage", ["delete", "garbage", "unknown-version", "truncate"])
def test_a_missing_or_damaged_database_is_rebuilt_with_the_same_answer(home, tmp_path, capsys, damage):
    paths = make_records(tmp_path / "in", 6)
    run_cli(capsys, "library", "import", str(tmp_path / "in"))
    before = stats_json(capsys, "Bo")
    db = home / "data" / "library.sqlite3"
    if damage == "delete":
        db.unlink()
    elif damage == "garbage":
        db.write_bytes(os.urandom(5000))
    elif damage == "unknown-version":
        with sqlite3.connect(db) as conn:
            conn.execute("PRAGMA user_version = 99")
    else:
        with sqlite3.connect(db) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.write_bytes(db.read_bytes()[:1500])
    code, out, err = run_cli(capsys, "stats", "--player", "Bo", "--json")
    assert code == 0
    assert json.loads(out) == before == expected_stats(paths, "Bo")
    [notice] = err.splitlines()
    assert notice.startswith("stats: The game library was built again from the game records (")
    if damage != "delete":
        assert list(db.parent.glob("library.sqlite3.bad-*"))  # kept, not deleted
    assert run_cli(capsys, "stats", "--player", "Bo", "--json")[2] == ""  # once


def test_an_older_schema_is_migrated_not_rebuilt(home, tmp_path, capsys, monkeypatch):
    make_records(tmp_path / "in", 2)
    run_cli(capsys, "library", "import", str(tmp_path / "in"))
    monkeypatch.setattr(
        library_module, "MIGRATIONS", [*library_module.MIGRATIONS, ["CREATE INDEX games_by_played ON games(played)"]]
    )
    newer = library_module.SCHEMA_VERSION + 1
    monkeypatch.setattr(library_module, "SCHEMA_VERSION", newer)
    with Library.open() as library:
        assert library.notices == []
        assert len(library.history()) == 2
        assert library.conn.execute("PRAGMA user_version").fetchone() == (newer,)
        assert library.conn.execute("SELECT name FROM sqlite_master WHERE name = 'games_by_played'").fetchone()


def test_records_put_into_or_taken_out_of_the_folder_are_noticed(home, tmp_path, capsys):
    paths = make_records(home / "data" / "games", 3)
    with Library.open() as library:
        assert len(library.history()) == 3
    paths[0].unlink()
    (home / "data" / "games" / "copy.json").write_bytes(paths[1].read_bytes())
    with Library.open() as library:
        entries = library.history()
        assert len(entries) == 2
        assert library.conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_two_writers_at_once(home, tmp_path):
    """Two imports of overlapping sets run at the same time: every game once, nothing lost."""
    make_records(tmp_path / "a", 8)
    make_records(tmp_path / "b", 8, start=4)
    env = {**os.environ, "STEPPING_STONES_HOME": str(home)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "stepping_stones", "library", "import", str(tmp_path / d)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for d in ("a", "b", "a")
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], outs
    imported = sum(int(out.split()[1].rstrip(",")) for out, _ in outs)
    assert imported == 12
    with Library.open() as library:
        assert len(library.history()) == 12
        assert library.conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert len(list((home / "data" / "games").glob("*.json"))) == 12


def test_assisted_games_are_counted_apart(home, tmp_path, capsys):
    paths = make_records(tmp_path / "in", 4)
    helped = paths[0]
    helped.with_suffix(".session.json").write_text(
        json.dumps(
            {"format": "stepping-stones-session/1", "seed": "s", "levels": [None, "random", "random"], "assisted": True}
        )
    )
    run_cli(capsys, "library", "import", str(tmp_path / "in"))
    name = read_record(helped).players[0]
    got = stats_json(capsys, name)
    assert got == expected_stats(paths, name, assisted={helped})
    assert got["assisted_games"] == 1
    everything = stats_json(capsys, name, "--include-assisted")
    assert everything["games"] == got["games"] + 1
    assert everything["assisted_games"] == 1
    _code, out, _ = run_cli(capsys, "history", "--json")
    assert [e["assisted"] for e in json.loads(out)].count(True) == 1


def test_the_default_player_is_seat_0_of_the_most_recent_game(home, capsys):
    folder = home / "data" / "games"
    for stamp, players in (
        ("20260101-100000", ["Ann", "Bo", "Cy"]),
        ("20260301-100000", ["Di", "Ann", "Bo"]),
        ("20260201-100000", ["Cy", "Ann", "Bo"]),
    ):
        write_record(
            folder / f"game-{stamp}.json",
            record_from_game(random_game(int(stamp[4:8]))).model_copy(update={"players": players}),
        )
    assert json.loads(run_cli(capsys, "stats", "--json")[1])["player"] == "Di"
    code, out, _ = run_cli(capsys, "history", "--json")
    history = json.loads(out)
    assert [e["played"] for e in history] == ["2026-03-01 10:00:00", "2026-02-01 10:00:00", "2026-01-01 10:00:00"]
    assert history[0]["players"] == ["Di", "Ann", "Bo"]
    assert history[0]["winners"] and set(history[0]) >= {"rules", "points", "complete", "assisted"}
    code, out, _ = run_cli(capsys, "history")
    assert code == 0 and "Di" in out


def test_no_games_yet(home, capsys):
    code, _out, err = run_cli(capsys, "stats")
    assert code == 2 and err.splitlines()[-1].startswith("stats: the library has no games yet")
    assert json.loads(run_cli(capsys, "stats", "--player", "Nobody", "--json")[1]) == {
        "player": "Nobody",
        "games": 0,
        "wins": 0,
        "shared_wins": 0,
        "mean_points": None,
        "assisted_games": 0,
        "stand_in_games": 0,
        "per_contract": {},
    }
    assert run_cli(capsys, "history", "--json")[1] == "[]\n"


def test_filing_a_game_never_raises(home, tmp_path):
    [path] = make_records(home / "data" / "games", 1)
    assert file_game(path) is None
    with Library.open() as library:
        assert len(library.history()) == 1
    (home / "data" / "library.sqlite3").unlink()
    (home / "data" / "library.sqlite3").mkdir()  # a folder where the database should be
    notice = file_game(path)
    assert notice is not None and "\n" not in notice and notice.startswith("The game is not in the library yet")
    assert file_game(None) is None


def _index_rows(folder: Path) -> list[list[tuple[object, ...]]]:
    with sqlite3.connect(folder / "library.sqlite3") as conn:
        return [sorted(conn.execute(f"SELECT * FROM {t}").fetchall()) for t in ("files", "games", "seats", "results")]


def test_a_game_filed_with_the_game_it_was_written_from_is_indexed_as_its_replay(home, tmp_path):
    """A table server files each game it finished with the game itself (``file_game(path,
    written)``), which the index takes instead of replaying the record: the same rows as the
    replay of the file.  A file that does not hold the bytes said to be written there (a table
    filed before keeps its first record) is replayed: the index says what the file holds."""
    from stepping_stones.storage.records import game_from_record

    made = make_records(tmp_path / "made", 2)
    games = [game_from_record(read_record(path)) for path in made]
    folders = {how: tmp_path / how for how in ("replayed", "given", "other")}
    for folder in folders.values():
        for path in made:
            copy = folder / "games" / path.name
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(path.read_bytes())
            os.utime(copy, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    for i, path in enumerate(made):
        name = path.name
        assert file_game(folders["replayed"] / "games" / name) is None
        assert file_game(folders["given"] / "games" / name, (path.read_bytes(), games[i])) is None
        other = made[1 - i]  # said to be the other game's record: not what the file holds
        assert file_game(folders["other"] / "games" / name, (other.read_bytes(), games[1 - i])) is None
    replayed = _index_rows(folders["replayed"])
    assert len(replayed[1]) == 2
    assert _index_rows(folders["given"]) == replayed
    assert _index_rows(folders["other"]) == replayed


def test_an_unusable_library_is_one_line_and_exit_2(home, capsys):
    (home / "data").mkdir(parents=True)
    (home / "data" / "library.sqlite3").mkdir()
    code, _out, err = run_cli(capsys, "history")
    assert code == 2 and len(err.splitlines()) == 1 and err.startswith("history: the library ")


def test_a_finished_game_enters_the_library_when_it_ends(home):
    from random import Random

    from stepping_stones.flow import AiTurn, GameFlow, GameOver, HandSummary, PersonTurn
    from stepping_stones.storage.session import Session, Setup
    from stepping_stones.storage.settings import Settings

    session = Session.new(Setup(seed="lib-flow", levels=("random", "random")))
    session.claim()
    flow = GameFlow(session, Settings(pace="instant"))
    rng = Random(3)
    while True:
        step = flow.next_step()
        if isinstance(step, GameOver):
            break
        if isinstance(step, HandSummary):
            flow.summary_seen()
        elif isinstance(step, AiTurn):
            flow.ai_answered(step.request, step.request.answer())
        elif isinstance(step, PersonTurn):
            view = step.view
            if view.legal_bids:
                flow.bid(rng.choice(view.legal_bids))
            else:
                cards = [c for c in range(36) if view.legal_cards >> c & 1]
                flow.play(rng.choice(cards))
    assert step.path is not None
    db = home / "data" / "library.sqlite3"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT file, complete, seed FROM games").fetchall() == [(step.path.name, 1, "lib-flow")]


# --- rows that SQLite finds sound but that are wrong (issue 16, item 8) ---------------------

WRONG_ROWS = {
    "rules-not-json": "UPDATE games SET rules = 'not json' WHERE rowid = 1",
    "total-not-a-number": "UPDATE seats SET total = 'x' WHERE rowid = 2",
    "unknown-contract-set": 'UPDATE games SET rules = \'{"contract_set": "zzz", "short_game": false, '
    '"redo_tokens": false}\' WHERE rowid = 1',
    "options-that-make-no-game": 'UPDATE games SET rules = \'{"contract_set": "standard", "short_game": false, '
    '"omit": "must-beat", "redo_tokens": false}\' WHERE rowid = 2',
    "unknown-contract": "UPDATE results SET contract = 'grab-all' WHERE rowid = 5",
    "a-seat-missing": "DELETE FROM seats WHERE rowid = 4",
    "file-outside-games": "UPDATE games SET file = '../../../etc/passwd.json' WHERE rowid = 3",
    "a-blob-for-a-name": "UPDATE seats SET name = x'00ff' WHERE rowid = 1",
    "winner-of-seven": "UPDATE seats SET winner = 7 WHERE rowid = 6",
    "a-game-of-no-file": "UPDATE files SET hash = NULL, problem = 'x' WHERE rowid = 2",
    "hash-of-nothing": "UPDATE files SET hash = '" + "0" * 64 + "' WHERE rowid = 1",
}


@pytest.mark.parametrize("damage", list(WRONG_ROWS))
def test_a_wrong_row_is_said_in_one_line_and_its_game_indexed_again(home, tmp_path, capsys, damage):
    paths = make_records(tmp_path / "in", 6)
    run_cli(capsys, "library", "import", str(tmp_path / "in"))
    history_before = run_cli(capsys, "history", "--json")[1]
    stats_before = {name: stats_json(capsys, name) for name in NAMES}
    with sqlite3.connect(home / "data" / "library.sqlite3") as conn:
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute(WRONG_ROWS[damage])
        assert conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]  # SQLite finds nothing wrong
    code, out, err = run_cli(capsys, "history", "--json")
    assert (code, out) == (0, history_before)
    [notice] = err.splitlines()
    # one wrong thing; a file that names a game of nothing also leaves its own game without a file
    if damage == "hash-of-nothing":
        assert notice.startswith("history: The game library had 2 wrong entries (")
        assert notice.endswith("; their games were indexed again from their records in games/.")
    else:
        assert notice.startswith("history: The game library had 1 wrong entry (")
        assert notice.endswith("; its game was indexed again from its record in games/.")
    assert run_cli(capsys, "history")[0] == 0
    for name in NAMES:
        assert stats_json(capsys, name) == stats_before[name] == expected_stats(paths, name)
    assert capsys.readouterr().err == ""  # put right once


def test_wrong_rows_found_by_stats_first(home, tmp_path, capsys):
    paths = make_records(tmp_path / "in", 4)
    run_cli(capsys, "library", "import", str(tmp_path / "in"))
    with sqlite3.connect(home / "data" / "library.sqlite3") as conn:
        conn.execute("UPDATE seats SET total = 'x'")
        conn.execute("UPDATE games SET rules = 'not json'")
    code, out, err = run_cli(capsys, "stats", "--player", "Ann", "--json")
    assert code == 0 and json.loads(out) == expected_stats(paths, "Ann")
    assert err.startswith("stats: The game library had 16 wrong entries (games row 1 (")  # 4 games, 12 seats
    assert err.rstrip().endswith("their games were indexed again from their records in games/.")


def test_a_wrong_row_whose_record_went_away_is_dropped(home, capsys):
    paths = make_records(home / "data" / "games", 3)
    with Library.open() as library:
        victim = next(e for e in library.history() if e.file == paths[0].name)
    with sqlite3.connect(home / "data" / "library.sqlite3") as conn:
        conn.execute(
            "UPDATE seats SET total = 'x' WHERE hash = (SELECT hash FROM games WHERE file = ?)", (paths[0].name,)
        )
    paths[0].unlink()
    with Library.open() as library:
        assert [e.file for e in library.history()] == [p.name for p in reversed(paths[1:])]
        assert len(library.notices) == 1 and "3 wrong entries" in library.notices[0]  # its three seats
    assert victim.file == paths[0].name


# --- a schema that is not the expected one (issue 16, item 9) -------------------------------

WRONG_SCHEMAS = {
    "version-0-with-tables": "PRAGMA user_version = 0",
    "version-1-no-tables": "DROP TABLE results; DROP TABLE seats; DROP TABLE games; DROP TABLE files",
    "a-table-missing": "DROP TABLE results",
    "an-index-missing": "DROP INDEX seats_by_name",
    "a-table-more": "CREATE TABLE notes (x TEXT)",
    "a-trigger": "CREATE TRIGGER t AFTER INSERT ON games BEGIN DELETE FROM seats; END",
    "a-column-more": "ALTER TABLE games ADD COLUMN extra TEXT",
    "another-column-type": "DROP TABLE results; CREATE TABLE results (hash TEXT, seat TEXT, contract TEXT, "
    "count TEXT, points TEXT, first TEXT)",
}


@pytest.mark.parametrize("damage", list(WRONG_SCHEMAS))
def test_a_schema_not_the_expected_one_is_moved_aside_and_rebuilt(home, tmp_path, capsys, damage):
    paths = make_records(tmp_path / "in", 4)
    run_cli(capsys, "library", "import", str(tmp_path / "in"))
    db = home / "data" / "library.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.executescript(WRONG_SCHEMAS[damage])
    for _ in range(2):  # every run, not only the first, had failed
        code, out, err = run_cli(capsys, "stats", "--player", "Cy", "--json")
        assert code == 0 and json.loads(out) == expected_stats(paths, "Cy")
        if err:
            assert err.startswith(
                "stats: The game library was built again from the game records (its tables "
                "are not those of schema version "
            )
    assert len([p for p in db.parent.glob("library.sqlite3.bad-*") if not p.name.endswith(("-wal", "-shm"))]) == 1
    assert run_cli(capsys, "history")[2] == ""


def test_the_expected_schema_is_what_the_migrations_make(home):
    with Library.open() as library:
        from stepping_stones.storage.library.database import _schema, expected_schema

        assert _schema(library.conn) == expected_schema(library_module.SCHEMA_VERSION)
        assert {name for kind, name, _t, _s in expected_schema(1) if kind == "table"} == {
            "files",
            "games",
            "seats",
            "results",
        }
    assert expected_schema(0) == []


# --- another copy holding the library (issue 16, item 10) -----------------------------------


def test_a_busy_library_is_waited_for_in_slices_given_up_plainly_or_stopped(home, capsys, monkeypatch):
    from stepping_stones.storage.library import LibraryBusy, LibraryCancelled, Patience

    make_records(home / "data" / "games", 2)
    Library.open().close()
    make_records(home / "data" / "games", 1, start=2)  # a new record: opening the library writes
    holder = sqlite3.connect(home / "data" / "library.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another copy's write transaction
    try:
        with Library.open(sync=False) as library:  # reading needs no wait (WAL)
            assert len(library.history()) == 2
            assert library.conn.execute("PRAGMA busy_timeout").fetchone() == (100,)  # one slice
        monkeypatch.setattr(library_module, "BUSY_SECONDS", 0.0)
        waits: list[int] = []
        with pytest.raises(LibraryBusy, match=r"^gave up waiting for the game library after 0 s: another copy"):
            Library.open(patience=Patience(on_wait=lambda: waits.append(1)))
        assert waits == [1]
        code, _out, err = run_cli(capsys, "history")
        assert (
            code == 2
            and err.startswith("history: gave up waiting for the game library after 0 s")
            and len(err.splitlines()) == 1
        )
        # a wait that would last an hour stops as soon as whoever asked for it says so
        monkeypatch.setattr(library_module, "BUSY_SECONDS", 3600.0)
        stop: list[int] = []
        with pytest.raises(LibraryCancelled):
            Library.open(patience=Patience(cancelled=lambda: bool(stop), on_wait=lambda: stop.append(1)))
        assert stop == [1]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with Library.open() as library:
        assert len(library.history()) == 3


def test_records_whose_names_times_or_sidecars_sqlite_cannot_keep_as_they_are(home, capsys):
    """What a folder may hold but SQLite cannot take as it is: a name with control characters or
    a backslash, a name that is not UTF-8, a time past 2262, a stamp of the year 1, a seed with a
    lone surrogate. None of it is a traceback, and none is found wrong again at the next opening."""
    folder = home / "data" / "games"
    paths = make_records(folder, 6)
    os.rename(paths[0], folder / "evil\x1b]0;x\x07.json")
    os.rename(paths[1], folder / "a\\b.json")
    os.rename(bytes(paths[2]), bytes(folder) + b"/\xff\xfe.json")  # not indexed, left where it is
    os.utime(paths[3], ns=(0, 10**19))
    os.rename(paths[4], folder / "game-00010101-000000.json")
    paths[5].with_suffix(".session.json").write_text(
        '{"format": "stepping-stones-session/1", "seed": "\\ud800", "levels": [null, "random", "random"]}'
    )
    for notices in (["The game library was built again from the game records (its database was missing)."], []):
        with Library.open() as library:
            entries = library.history()
            assert library.notices == notices
        assert len(entries) == 5
    by_file = {e.file: e for e in entries}
    assert by_file["game-00010101-000000.json"].played == "0001-01-01 00:00:00"
    assert by_file[paths[5].name].seed is None  # a sidecar whose seed is no text is not used
    assert "evil\x1b]0;x\x07.json" in by_file and "a\\b.json" in by_file
    code, out, _err = run_cli(capsys, "history")
    assert code == 0 and "\x1b" not in out


def test_a_library_made_under_an_older_version_becomes_owner_only(tmp_path):
    import stat

    with Library.open(tmp_path, sync=False):
        pass
    (tmp_path / "library.sqlite3").chmod(0o644)  # as SQLite made it under umask 022
    with Library.open(tmp_path, sync=False) as library:
        library.conn.execute("PRAGMA user_version")
        files = [p for p in tmp_path.iterdir() if p.name.startswith("library.sqlite3")]
        assert {p.name for p in files} >= {"library.sqlite3", "library.sqlite3.lock"}
        assert {p.name: stat.S_IMODE(os.stat(p).st_mode) for p in files} == {p.name: 0o600 for p in files}


def test_a_library_of_schema_1_gains_the_stand_in_column_and_keeps_its_games(home, tmp_path, capsys):
    make_records(tmp_path / "in", 2)
    run_cli(capsys, "library", "import", str(tmp_path / "in"))
    db = home / "data" / "library.sqlite3"
    with sqlite3.connect(db) as conn:  # the library as version 1 left it
        conn.executescript("ALTER TABLE seats DROP COLUMN stood_in; PRAGMA user_version = 1")
    with Library.open() as library:
        assert library.notices == []  # migrated, not built again
        assert len(library.history()) == 2
        assert library.conn.execute("PRAGMA user_version").fetchone() == (library_module.SCHEMA_VERSION,)
        assert all(e.stood_in == [[], [], []] for e in library.history())


def test_only_a_table_s_sidecar_has_stand_ins_and_only_for_people():
    from pydantic import ValidationError

    from stepping_stones.storage.sidecar import SessionInfo

    table = SessionInfo(seed="s", levels=["random", None, None], table=True, stood_in=[[], [5, 6], []])
    assert SessionInfo.model_validate_json(table.text()) == table
    for bad in (
        {"levels": [None, "random", "random"], "stood_in": [[2], [], []]},  # the app's game
        {"levels": ["random", None, None], "table": True, "stood_in": [[3], [], []]},  # a computer's seat
        {"levels": ["random", "random", "random"], "table": True},
    ):  # nobody
        with pytest.raises(ValidationError):
            SessionInfo(seed="s", **bad)


def test_the_history_fits_80_columns(home, capsys, monkeypatch):
    """Issue 43, item 9: at 80 columns `history` cut "(unfinished)" to "(unfinish…" and wrapped
    a rule set over seven lines."""
    monkeypatch.setenv("COLUMNS", "80")
    folder = home / "data" / "games"
    rules = Rules("advanced", short_game=True, omit="must-beat", redo_tokens=True)
    for stamp, seed, stop in (("20260101-100000", 1, None), ("20260201-100000", 2, 40)):
        write_record(
            folder / f"game-{stamp}.json",
            record_from_game(random_game(seed, rules, stop_after=stop)).model_copy(
                update={"players": ["Annabelle", "Bartholomew", "Cy"]}
            ),
        )
    code, out, _ = run_cli(capsys, "history")
    assert code == 0
    lines = out.rstrip("\n").splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "(unfinished)" in out and "…" not in out, out
    body = [line for line in lines[next(i for i, line in enumerate(lines) if "───" in line) + 1 :] if line.strip()]
    assert len(body) <= 2 * 3, out  # each game in three lines at most (long names: two a line)
    # the rule set in brief, in two lines at most ("Advanced set," over "short, redo")
    assert sum("Advanced set," in line for line in body) == 2 and sum("short, redo" in line for line in body) == 2
