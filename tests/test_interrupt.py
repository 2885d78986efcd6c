"""Ctrl+C at any moment of a command ends it with one line and exit status 130, never a traceback.

Each test runs the command in a fresh interpreter and interrupts it at a chosen point, without
waiting on the clock: an import hook sends the process SIGINT itself just as a given module is
about to be imported (so the interrupt lands in the middle of the imports, as a real Ctrl+C in the
first moments does), or an exit hook sends it while the interpreter shuts down.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import random_game
from stepping_stones.engine import Rules
from stepping_stones.storage.records import record_from_game, write_record

PRELUDE = """
import os, signal, sys
target = sys.argv.pop(1)

class InterruptAt:
    def find_spec(self, name, path=None, target_=None):
        if name == target:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

if target == "<exit>":
    import atexit
    atexit.register(lambda: os.kill(os.getpid(), signal.SIGINT))
else:
    sys.meta_path.insert(0, InterruptAt())
sys.argv[0] = "stepping-stones"
import runpy
runpy.run_module("stepping_stones", run_name="__main__")
"""


def interrupted(tmp_path: Path, at: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"STEPPING_STONES_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-c", PRELUDE, at, *args], input="", capture_output=True, text=True, timeout=120, env=env
    )


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    write_record(path, record_from_game(random_game(3, Rules())))
    return path


# The moments: the command line's own imports (before cli.main runs), the subcommands' imports
# (pydantic and the records), inside the command, and the interpreter's shutdown.
REPLAY_MOMENTS = ["argparse", "stepping_stones.cli.replay", "pydantic", "<exit>"]
PLAIN_MOMENTS = [
    "argparse",
    "stepping_stones.storage.records",
    "stepping_stones.plain",
    "stepping_stones.flow",
    "<exit>",
]


@pytest.mark.parametrize("at", REPLAY_MOMENTS)
def test_ctrl_c_while_replay_starts_or_ends(tmp_path, record_file, at):
    done = interrupted(tmp_path, at, "replay", str(record_file), "--json")
    assert (done.returncode, done.stderr) == (130, "stepping-stones: interrupted\n"), done.stderr
    if at == "<exit>":
        assert json.loads(done.stdout)["complete"] is True  # the work was done and printed first


@pytest.mark.parametrize("at", PLAIN_MOMENTS)
def test_ctrl_c_while_the_plain_game_starts_or_ends(tmp_path, at):
    done = interrupted(tmp_path, at, "play", "--plain", "--seed", "5", "--levels", "random,random")
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    assert (done.returncode, done.stderr) == (130, "stepping-stones: interrupted\n"), done.stderr
