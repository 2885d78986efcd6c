"""The published JSON Schemas of the commands' ``--json`` outputs (docs/json.md) stay true: the
document is what scripts/json_schemas.py writes from the declared types, and what the commands
print reads back through those types' adapters and dumps again unchanged (so every key, value and
nesting is the schema's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from conftest import random_game
from game_support import game_at
from stepping_stones.ai.analysis import Analysis, GameHintJSON
from stepping_stones.cli import main
from stepping_stones.engine import Rules
from stepping_stones.lab.simulate import SimulationResult
from stepping_stones.lab.speed import BenchResult
from stepping_stones.lab.tournament import TournamentJSON
from stepping_stones.storage.games import games_dir
from stepping_stones.storage.library.stats import HistoryEntryJSON, PlayerStats
from stepping_stones.storage.records import record_from_game, write_record

ROOT = Path(__file__).resolve().parent.parent


def printed(capsys, *args: str):
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def fits(kind, value) -> None:
    adapter = TypeAdapter(kind)
    assert adapter.dump_python(adapter.validate_python(value), mode="json") == value


def test_docs_json_md_is_what_the_script_writes():
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "json_schemas.py"), "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def test_analyse_and_hint_print_what_their_schemas_say(tmp_path, capsys):
    path = tmp_path / "game.json"
    write_record(path, record_from_game(game_at("json-schemas", Rules(), 30)))
    fits(Analysis, printed(capsys, "analyse", str(path), "--json"))
    fits(GameHintJSON, printed(capsys, "hint", str(path), "--json"))


def test_history_and_stats_print_what_their_schemas_say(capsys):
    for seed in (1, 2):
        write_record(games_dir() / f"game-2026010{seed}-100000.json", record_from_game(random_game(seed)))
    history = printed(capsys, "history", "--json")
    fits(list[HistoryEntryJSON], history)
    assert len(history) == 2
    fits(PlayerStats, printed(capsys, "stats", "--player", history[0]["players"][0], "--json"))


@pytest.mark.usefixtures("step_clock")
def test_bench_prints_what_its_schema_says(capsys):
    fits(
        BenchResult,
        printed(
            capsys,
            "bench",
            "--json",
            "--hands",
            "200",
            "--repeats",
            "1",
            "--levels",
            "random",
            "--decision-games",
            "2",
            "--solver-positions",
            "1",
        ),
    )


def test_simulate_and_tournament_print_what_their_schemas_say(capsys):
    fits(
        SimulationResult,
        printed(capsys, "simulate", "--games", "1", "--seats", "random,random,random", "--seed", "json", "--json"),
    )
    both = printed(
        capsys,
        "tournament",
        "--candidate",
        "heuristic",
        "--baseline",
        "random",
        "--deals",
        "1",
        "--seed",
        "json",
        "--defence",
        "1",
        "--json",
    )
    fits(TournamentJSON, both)
    assert both["two_vs_one"] is not None and "defence" in both
    one_side = printed(
        capsys,
        "tournament",
        "--candidate",
        "random",
        "--baseline",
        "heuristic",
        "--deals",
        "1",
        "--seed",
        "json",
        "--only",
        "one-vs-two",
        "--json",
    )
    fits(TournamentJSON, one_side)
    assert one_side["two_vs_one"] is None


def test_a_wrong_output_would_not_fit():
    with pytest.raises(ValueError):
        fits(GameHintJSON, {"hand": 1, "seat": 0, "player": "Ann", "phase": "play", "action": 4})
