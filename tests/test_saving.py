"""Saving under stress: damaged and huge saves, folders that cannot be written, two copies at once."""

from __future__ import annotations

import asyncio
import errno
import os
import stat
import time
from random import Random

import pytest

from stepping_stones.files import atomic_write
from stepping_stones.records import load_game
from stepping_stones.session import SlotLock, current_path, slot_path
from stepping_stones.tui.dialogs import ConfirmScreen, NoticeScreen, OpenElsewhereScreen
from stepping_stones.tui.screens import ReviewScreen, SetupScreen
from stepping_stones.tui.table import TableScreen
from tui_support import human_turn, make_app, press, saved_game_near_the_end, wait_for_person, widget_text


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return tmp_path / "home"


async def _start(app, size=(80, 24)):
    """Run ``app`` and return the screen it settles on and the text of its notice, if any."""
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        text = widget_text(screen.query_one("#notice")) if isinstance(screen, NoticeScreen) else ""
        return type(screen), text


@pytest.mark.parametrize("content", [
    "[" * 50_000 + "]" * 50_000,  # nested far too deep
    '{"format": "stepping-stones-record/1", "players": [' + "1" * 5000 + "]}",  # a huge number
])
def test_a_hostile_save_is_moved_aside_and_the_app_opens(home, content):
    current_path().parent.mkdir(parents=True)
    current_path().write_text(content)
    screen, text = asyncio.run(_start(make_app()))
    assert screen is NoticeScreen
    assert "could not be resumed" in text
    assert not current_path().exists()
    assert len(list(current_path().parent.glob("current.json.bad-*"))) == 1


def test_a_50_megabyte_save_is_refused_at_once(home):
    current_path().parent.mkdir(parents=True)
    with open(current_path(), "w") as f:
        f.write('{"format": "stepping-stones-record/1", "hands": [')
        f.write(", ".join(["{}"] * (50 * 1024 * 1024 // 4)))
        f.write("]}")
    start = time.monotonic()
    screen, text = asyncio.run(_start(make_app()))
    assert time.monotonic() - start < 5
    assert screen is NoticeScreen and "too large" in text


def test_a_save_folder_that_cannot_be_made_never_stops_the_game(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("STEPPING_STONES_HOME", str(blocker / "home"))  # no folder can be made there

    async def run():
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "enter")  # start a game: nothing can be saved
            screen = await wait_for_person(pilot)
            table = app.table
            assert isinstance(screen, TableScreen)
            notice = widget_text(table.query_one("#save-notice"))
            assert "not being saved" in notice and "cannot be written" in notice
            plays = len(table.game.log[-1].plays)
            await human_turn(pilot, table, Random(1))  # the game goes on
            await wait_for_person(pilot)
            assert table.game.log[-1].bids or len(table.game.log[-1].plays) > plays
            await press(pilot, "ctrl+q")  # quitting asks first, and says it is lost
            assert isinstance(app.screen, ConfirmScreen)
            assert "not saved" in app.screen.question and "lost" in app.screen.question
            await press(pilot, "y")
        return app

    app = asyncio.run(run())
    assert app.return_code == 1
    assert app.unsaved and "not saved" in app.unsaved


def test_a_read_only_save_file_is_reported_not_raised(home):
    session = saved_game_near_the_end(seed="ro", hands=1, cards_left=30)
    folder = current_path().parent
    os.chmod(folder, stat.S_IRUSR | stat.S_IXUSR)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as a user who can write a read-only folder (root)")
        assert session.save() is False
        assert "cannot be written" in session.problem
    finally:
        os.chmod(folder, stat.S_IRWXU)


def test_a_second_copy_never_writes_the_game_open_in_the_first(home):
    saved_game_near_the_end(seed="two", hands=2, cards_left=12, person_to_play=True)
    before = current_path().read_bytes()
    other_copy = SlotLock(current_path())
    assert other_copy.acquire()  # the first copy has the game open
    try:
        async def run(key):
            app = make_app()
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                assert isinstance(app.screen, OpenElsewhereScreen)
                await press(pilot, key)
                await pilot.pause()
                if key == "r":
                    assert isinstance(app.screen, ReviewScreen)
                    return None
                assert isinstance(app.screen, SetupScreen)
                await press(pilot, "enter")
                await wait_for_person(pilot)
                assert app.table.session.path == slot_path(2)
                return app.table.session.path

        assert asyncio.run(run("r")) is None
        assert asyncio.run(run("n")) == slot_path(2)
        assert current_path().read_bytes() == before  # untouched
        assert slot_path(2).exists()
    finally:
        other_copy.release()
    # With the first copy gone, the next start offers the most recent game again.
    assert load_game(current_path()).log


def test_atomic_write_flushes_the_folder(tmp_path, monkeypatch):
    synced: list[bool] = []
    real = os.fsync

    def spy(fd):
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        return real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    atomic_write(tmp_path / "sub" / "file.json", "{}")
    assert synced == [False, True]  # the file, then its folder
    assert (tmp_path / "sub" / "file.json").read_text() == "{}"


def test_the_exit_status_is_not_zero_after_a_crash(monkeypatch):
    from stepping_stones.tui import app as app_module

    def crash(self, *args, **kwargs):
        self._return_code = 1  # what Textual sets when the app stops on an exception

    monkeypatch.setattr(app_module.SteppingStonesApp, "run", crash)
    assert app_module.run() == 1


def test_the_app_crashing_sets_a_non_zero_return_code(monkeypatch):
    def boom(self):
        raise RuntimeError("a bug")

    monkeypatch.setattr(SetupScreen, "compose", boom)
    app = make_app()

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()

    with pytest.raises(RuntimeError):
        asyncio.run(run())
    assert app.return_code == 1


def test_a_full_disk_mid_game_is_reported_and_the_game_goes_on(home, monkeypatch):
    saved_game_near_the_end(seed="full", hands=1, cards_left=30, person_to_play=True)
    before = current_path().read_bytes()

    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(current_path().parent))

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            table = app.table
            monkeypatch.setattr("stepping_stones.files.tempfile.mkstemp", no_space)
            await human_turn(pilot, table, Random(2))
            await pilot.pause()
            assert "No space left on device" in widget_text(table.query_one("#save-notice"))
            await wait_for_person(pilot)  # the AI seats and the person play on
            monkeypatch.undo()
            monkeypatch.setenv("STEPPING_STONES_HOME", str(home))
            await human_turn(pilot, table, Random(3))  # room again: the next save works
            await pilot.pause()
            assert table.session.problem is None
            assert not table.query_one("#save-notice").display

    asyncio.run(run())
    assert current_path().read_bytes() != before


def test_settings_that_are_a_fifo_or_garbage_give_the_defaults(home):
    from stepping_stones.settings import Settings, load_settings, settings_path

    settings_path().parent.mkdir(parents=True)
    os.mkfifo(settings_path())
    assert load_settings() == Settings()  # no hang on a FIFO
    settings_path().unlink()
    settings_path().write_text("[" * 10_000 + "]" * 10_000)
    assert load_settings() == Settings()
