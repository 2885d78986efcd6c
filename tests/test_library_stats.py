"""The library's statistics, worked out by SQLite, against the same figures worked out here in
plain Python from the games themselves (docs/library.md, "stepping-stones stats").

The library under test holds varied games: both contract sets, short games, an omitted contract,
redo tokens, unfinished games, assisted games (their sidecar says so), games with a sidecar that
says they were not, games with none, one game in two files, and names that move from seat to
seat.  The oracle below reads none of the library: it replays the games it wrote."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from conftest import ALL_RULES, random_game
from stepping_stones.cli import main
from stepping_stones.cli.args import json_data
from stepping_stones.cli.stats import print_stats
from stepping_stones.engine import CONTRACTS, Game, Goal
from stepping_stones.storage.library import ContractStats, Library, PlayerStats
from stepping_stones.storage.records import record_from_game, write_record

NAMES = ["You", "Ann", "Bo", "Cy", "Di"]


@dataclass
class Filed:
    """One game as it was filed: its game, when it was played, its file, whether it was assisted."""

    game: Game
    played: str  # the stamp in its file name, as the library orders games
    file: str
    assisted: bool


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def fill(home, count: int = 28) -> list[Filed]:
    """Write ``count`` varied games into the games folder; one of them twice (one game, two files)."""
    folder = home / "data" / "games"
    folder.mkdir(parents=True)
    filed = []
    for i in range(count):
        rules = ALL_RULES[i % len(ALL_RULES)]
        unfinished = i % 7 == 3
        game = random_game(5000 + i, rules, stop_after=40 + i if unfinished else None)
        k = (i * 3) % len(NAMES)
        players = [NAMES[k], NAMES[(k + 1 + i % 2) % len(NAMES)], NAMES[(k + 3) % len(NAMES)]]
        record = record_from_game(game).model_copy(update={"players": players})
        # the day in the stamp goes back and forth, so file order is not play order
        stamp = f"2026{1 + i % 12:02d}{1 + (i * 7) % 28:02d}-1200{i:02d}"
        name = f"game-{stamp}.json"
        write_record(folder / name, record)
        assisted = i % 4 == 1
        if i % 4 != 2:  # every fourth game has no sidecar: not assisted
            (folder / f"game-{stamp}.session.json").write_text(
                json.dumps(
                    {
                        "format": "stepping-stones-session/1",
                        "seed": f"s{i}",
                        "levels": [None, "random", "heuristic"],
                        "assisted": assisted,
                    }
                )
            )
        filed.append(Filed(_with_players(game, players), stamp, name, assisted))
    # The same game again, in a later file: the library counts it once (the first file holds it).
    first = filed[0]
    write_record(folder / "game-20271231-235959.json", record_from_game(first.game))
    return filed


def _with_players(game: Game, players: list[str]) -> Game:
    """The game with the names it was filed under (the record's names; the play is the same)."""
    from stepping_stones.storage.records import game_from_record

    return game_from_record(record_from_game(game).model_copy(update={"players": players}))


def _mean(values: list[int]) -> float | None:
    return sum(values) / len(values) if values else None


def oracle(filed: list[Filed], player: str, include_assisted: bool) -> PlayerStats:
    """The figures of ``player``, worked out game by game in plain Python."""
    mine = [
        (f, f.game.players.index(player))
        for f in sorted(filed, key=lambda f: (f.played, f.file))
        if f.game.over and player in f.game.players
    ]
    counted = [(f, seat) for f, seat in mine if include_assisted or not f.assisted]
    wins = shared = 0
    own: dict[str, dict[str, list]] = {}
    others: dict[str, list[int]] = {}
    for f, seat in counted:
        winners = f.game.winners()
        if seat in winners:
            wins += 1
            shared += len(winners) > 1
        for cid, row in f.game.sheet.items():
            d = own.setdefault(cid, {"counts": [], "points": [], "firsts": 0, "games": 0})
            d["games"] += 1
            if row[seat] is not None:
                d["counts"].append(row[seat])
            points = f.game.points(cid)
            if points is not None:
                d["points"].append(points[seat])
            if None not in row:
                best = (max if CONTRACTS[cid].goal is Goal.WIN else min)(row)
                d["firsts"] += row[seat] == best
            others.setdefault(cid, []).extend(row[s] for s in range(3) if s != seat and row[s] is not None)
    trend = [f.game.totals()[seat] for f, seat in counted]
    return PlayerStats(
        player=player,
        games=len(counted),
        wins=wins,
        shared_wins=shared,
        mean_points=_mean(trend),
        assisted_games=sum(1 for f, _ in mine if f.assisted),
        per_contract={
            cid: ContractStats(
                games=own[cid]["games"],
                mean_count=_mean(own[cid]["counts"]),
                mean_points=_mean(own[cid]["points"]),
                firsts=own[cid]["firsts"],
                others_mean_count=_mean(others[cid]),
            )
            for cid in CONTRACTS
            if cid in own
        },
        include_assisted=include_assisted,
        trend=trend,
    )


def test_the_library_is_varied_enough_to_test_the_statistics(home):
    filed = fill(home)
    games = [f.game for f in filed]
    assert {g.rules.contract_set for g in games} == {"standard", "advanced"}
    assert any(g.rules.short_game for g in games) and any(not g.over for g in games)
    assert any(f.assisted for f in filed if f.game.over) and any(not f.assisted for f in filed if f.game.over)
    assert any(len(g.winners()) > 1 for g in games if g.over)  # a shared win
    # a short game or an omitted contract leaves contracts off the sheet: per contract, games differ
    assert len({frozenset(g.sheet) for g in games if g.over and g.rules.contract_set == "standard"}) > 1
    assert all(sum(1 for f in filed if f.game.over and name in f.game.players) >= 4 for name in NAMES)


def test_statistics_in_sql_equal_the_figures_worked_out_from_the_games(home, capsys):
    filed = fill(home)
    with Library.open() as library:
        # records and no database yet: it is built from them; nothing was found wrong
        assert library.notices == ["The game library was built again from the game records (its database was missing)."]
        for name in [*NAMES, "Nobody"]:
            for include in (False, True):
                assert library.stats(name, include_assisted=include) == oracle(filed, name, include), (name, include)
        counts = {name: sum(1 for f in filed if name in f.game.players) for name in NAMES}
        assert library.names() == sorted(counts, key=lambda n: (-counts[n], n))
        latest = max(filed, key=lambda f: (f.played, f.file))
        assert library.person() == latest.game.players[0]
    # the command prints the same figures: as JSON, and as the table
    for name in NAMES:
        for extra in ([], ["--include-assisted"]):
            assert main(["stats", "--player", name, "--json", *extra]) == 0
            assert json.loads(capsys.readouterr().out) == json_data(oracle(filed, name, bool(extra)))
            assert main(["stats", "--player", name, *extra]) == 0
            shown = capsys.readouterr().out
            print_stats(oracle(filed, name, bool(extra)))
            assert shown == capsys.readouterr().out


def test_a_game_whose_rows_cannot_be_put_right_is_left_out_of_the_figures_too(home):
    """A wrong row that indexing the record again cannot put right (here a trigger on this one
    connection spoils every row written for that game) leaves its game out of the history, and of
    every figure SQLite works out, as if it were not there."""
    filed = fill(home, count=12)
    victim = next(f for f in filed if f.game.over and not f.assisted and "Ann" in f.game.players)
    with Library.open() as library:
        library.conn.execute(
            "CREATE TEMP TRIGGER spoil AFTER INSERT ON seats WHEN NEW.hash = "
            "(SELECT hash FROM files WHERE name = " + _sql_text(victim.file) + ") "
            "BEGIN UPDATE seats SET total = 'lots' WHERE rowid = NEW.rowid; END"
        )
        library.conn.execute(
            "UPDATE seats SET total = 'lots' WHERE hash = (SELECT hash FROM files WHERE name = ?) AND seat = 0",
            (victim.file,),
        )
        library.verify()
        assert "could not be put right" in library.notices[-1]
        assert victim.file not in {e.file for e in library.history()}
        rest = [f for f in filed if f is not victim]
        for name in NAMES:
            assert library.stats(name, include_assisted=True) == oracle(rest, name, True), name
        assert library.stats("Ann").games == oracle(filed, "Ann", False).games - 1


def _sql_text(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def test_the_statistics_read_no_row_into_python_but_the_answers(home):
    """The figures come out of SQLite already added up: a player's statistics read one row of
    totals, one row per contract and one number per game (the chart's line), never the seats or
    results tables row by row."""
    fill(home, count=12)
    with Library.open() as library:
        library.verify()  # the rows are checked once, when the library opens or changes
        fetched: list[int] = []
        real = library.conn

        class Counting:
            def execute(self, sql, params=()):
                cursor = real.execute(sql, params)
                if sql.lstrip().upper().startswith(("SELECT", "WITH")):
                    rows = cursor.fetchall()
                    fetched.append(len(rows))
                    return _Rows(rows)
                return cursor

        library.conn = Counting()
        try:
            stats = library.stats("Ann", include_assisted=True)
        finally:
            library.conn = real
        assert stats.games > 3 and len(stats.per_contract) > 3
        assert fetched == [1, len(stats.per_contract), stats.games]


class _Rows:
    def __init__(self, rows):
        self._rows = rows

    def fetchall(self):
        return self._rows
