"""Bots from other packages (docs/bots.md): the example bot of the docs plays simulate, tournament
and a networked table, by module:factory and by entry point, and a bad bot is refused in one line."""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from net_support import WAIT, new_table, running
from stepping_stones.ai import BotError, make_lab_ai
from stepping_stones.cli import main
from stepping_stones.cli.args import lab_level, level
from stepping_stones.net.client import open_table

DOCS = Path(__file__).resolve().parents[1] / "docs" / "bots.md"


def example_bot() -> str:
    """The first Python block of docs/bots.md: the example bot."""
    found = re.search(r"```python\n(.*?)```", DOCS.read_text(), re.S)
    assert found is not None, "docs/bots.md has no python block"
    return found.group(1)


@pytest.fixture
def lowcard(tmp_path, monkeypatch) -> Path:
    """The docs' example saved as lowcard.py in a folder on sys.path (as `run from its folder`)."""
    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "lowcard.py").write_text(example_bot())
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delitem(sys.modules, "lowcard", raising=False)
    return folder


def test_the_docs_example_bot_plays_simulate_and_tournament_by_module_and_factory(lowcard, capsys):
    assert (
        main(
            [
                "simulate",
                "--games",
                "2",
                "--seats",
                "lowcard:LowCardBot,random,heuristic",
                "--seed",
                "bots-doc-1",
                "--short",
                "--json",
            ]
        )
        == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["seats"] == ["lowcard:LowCardBot", "random", "heuristic"] and result["games"] == 2
    assert (
        main(
            [
                "tournament",
                "--candidate",
                "lowcard:LowCardBot",
                "--baseline",
                "random",
                "--deals",
                "1",
                "--seed",
                "bots-doc-2",
                "--short",
                "--only",
                "one-vs-two",
                "--json",
            ]
        )
        == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["candidate"] == "lowcard:LowCardBot" and result["games"] == 3 and result["two_vs_one"] is None


def test_an_installed_bot_is_a_level_by_its_entry_point_name(lowcard):
    info = lowcard / "lowcard_bots-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lowcard-bots\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[stepping_stones.agents]\nlowcard = lowcard:LowCardBot\n")
    agent = make_lab_ai("lowcard")
    assert agent.name == "lowcard" and type(agent).__name__ == "LowCardBot"
    assert lab_level("lowcard") == "lowcard"
    with pytest.raises(argparse.ArgumentTypeError, match="'lowcard' is a bot from another package: it plays only"):
        level("lowcard")  # play and the app offer the project's own levels only
    assert make_lab_ai("expert").name == "expert"  # an entry point never shadows a level


def test_a_bot_that_cannot_be_loaded_or_is_no_agent_is_refused_in_one_line(lowcard):
    (lowcard / "notabot.py").write_text("class Nothing:\n    pass\n\ndef broken():\n    raise RuntimeError('no')\n")
    for spec, words in [
        ("nosuchmodule:Bot", "cannot import 'nosuchmodule'"),
        ("lowcard:Missing", "has no 'Missing'"),
        ("notabot:Nothing", "made a Nothing, not an Agent"),
        ("notabot:broken", "failed to start: RuntimeError: no"),
    ]:
        with pytest.raises((argparse.ArgumentTypeError, BotError), match=words):
            lab_level(spec)
            make_lab_ai(spec)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "stepping_stones",
            "simulate",
            "--games",
            "1",
            "--seed",
            "x",
            "--seats",
            "nosuchmodule:Bot,random,random",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "cannot import 'nosuchmodule' for the bot 'nosuchmodule:Bot'" in out.stderr


def test_table_bot_seats_the_docs_example_bot_at_a_networked_table(lowcard, tmp_path, capsys):
    async def scenario() -> int:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table(seats=("open", "random", "random")))
            command = [
                "table",
                "bot",
                opened.code,
                "--server",
                url,
                "--level",
                "lowcard:LowCardBot",
                "--seed",
                "bots-table",
            ]
            async with asyncio.timeout(WAIT):
                return await asyncio.to_thread(main, command)

    assert asyncio.run(scenario()) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("game over: "), captured.err
    assert "Traceback" not in captured.err
