"""Snapshots of the app's screens at 80x24, 120x40, 160x50 and 200x60 (pytest-textual-snapshot).

Deals come from fixed seeds and the seats use the ``random`` level with the
seeded per-decision generator, so every run shows the same cards.  Update the
pictures with ``pytest tests/test_tui_snapshots.py --snapshot-update`` after
checking the differences by eye.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from textual import _doc

from stepping_stones.engine import Phase
from stepping_stones.tui.dialogs import HandSummaryScreen
from stepping_stones.tui.screens import GameOverScreen
from tui_support import (
    analysed,
    make_app,
    play_until,
    press,
    saved_game_near_the_end,
    settled,
)

PICTURED_HOME = "/tmp/stepping-stones-snapshot-home"  # the home in the pictures (the end-of-game screen's save path)
SIZES = [(80, 24), (120, 40), (160, 50), (200, 60)]


@pytest.fixture(autouse=True)
def home(monkeypatch):
    """Each test's own home, so that two runs at once (two checkouts, or two test processes) do
    not share one: a new folder whose path is exactly as long as ``PICTURED_HOME``, so that the
    screens are laid out the same, and the screenshots are compared with its path written as
    ``PICTURED_HOME``.  A path of another length, or a screen drawn differently, still differs."""
    home = Path(tempfile.mkdtemp(prefix="stepping-stones-snap-", dir=Path(PICTURED_HOME).parent))
    assert len(str(home)) == len(PICTURED_HOME), home  # mkdtemp's eight random letters
    take_svg_screenshot = _doc.take_svg_screenshot  # the one snap_compare calls (it imports it when called)

    def pictured(*args, **kwargs) -> str:
        return take_svg_screenshot(*args, **kwargs).replace(str(home), PICTURED_HOME)

    monkeypatch.setattr(_doc, "take_svg_screenshot", pictured)
    monkeypatch.setenv("STEPPING_STONES_HOME", str(home))
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr("stepping_stones.storage.session._stamp", lambda: "20260101-120000")
    yield home
    shutil.rmtree(home, ignore_errors=True)


async def _start(pilot):
    await pilot.pause()
    await press(pilot, "enter")


@pytest.mark.parametrize("size", SIZES)
def test_setup_screen(snap_compare, size):
    assert snap_compare(make_app(seed="snap"), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_bidding(snap_compare, size):
    async def before(pilot):
        await _start(pilot)
        await play_until(pilot, lambda app, s: app.table and app.table.game.phase is Phase.BIDDING)
        await press(pilot, "down", "down", "k")
        await settled(pilot, pilot.app.table.query_one("#bidpanel"))  # the bid panel's height follows its text

    assert snap_compare(make_app(seed="snap-bid"), terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", SIZES)
def test_table_mid_trick(snap_compare, size):
    def mid_trick(app, screen):
        t = app.table
        return (
            screen is t and t.game.phase is Phase.PLAY and t.game.state.trick_number >= 3 and t.game.state.in_trick > 0
        )

    async def before(pilot):
        await _start(pilot)
        await play_until(pilot, mid_trick)
        await pilot.pause()

    assert snap_compare(make_app(seed="snap-mid"), terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", SIZES)
def test_end_of_hand(snap_compare, size):
    # From a saved game at the last trick of the first hand, which plays itself out: playing
    # the eleven tricks before it through the keys took four fifths of this test's time.
    saved_game_near_the_end(seed="snap-hand", cards_left=3, hands=1)

    async def before(pilot):
        await play_until(pilot, lambda app, s: isinstance(s, HandSummaryScreen))
        await analysed(pilot)  # the analysis is worked out in a thread worker

    assert snap_compare(make_app(resume=True), terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", SIZES)
def test_end_of_game(snap_compare, size):
    saved_game_near_the_end(seed="snap-end", cards_left=3)

    async def before(pilot):
        await play_until(pilot, lambda app, s: isinstance(s, GameOverScreen))
        await pilot.pause()

    assert snap_compare(make_app(resume=True), terminal_size=size, run_before=before)


def test_too_small_message(snap_compare):
    assert snap_compare(make_app(seed="snap"), terminal_size=(60, 20))
