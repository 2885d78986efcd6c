"""Saving under stress: damaged and huge saves, folders that cannot be written, two copies at once."""

from __future__ import annotations

import asyncio
import errno
import os
import stat
from random import Random

import pytest

from stepping_stones.storage.files import atomic_write
from stepping_stones.storage.records import load_game
from stepping_stones.storage.session import SlotLock, current_path, slot_path
from stepping_stones.storage.sidecar import sidecar_of
from stepping_stones.tui.dialogs import ConfirmScreen, NoticeScreen, OpenElsewhereScreen
from stepping_stones.tui.screens import ReviewScreen, SetupScreen
from stepping_stones.tui.table import TableScreen
from tui_support import human_turn, make_app, press, saved_game_near_the_end, wait_for_person, widget_text


async def _notice_at_start(app, size=(80, 24)) -> str:
    """Run ``app`` until it shows the notice it opens with (it looks for the saved game once its
    first screen is drawn) and return the notice's text."""
    async with app.run_test(size=size) as pilot:
        shown = asyncio.Event()
        app.screen_change_signal.subscribe(app, lambda screen: shown.set())
        async with asyncio.timeout(60):  # a safety net only: the notice comes with the first screen
            while not isinstance(app.screen, NoticeScreen):
                shown.clear()
                await shown.wait()
        await pilot.pause()  # the notice is mounted
        return widget_text(app.screen.query_one("#notice"))


@pytest.mark.parametrize(
    "content",
    [
        "[" * 50_000 + "]" * 50_000,  # nested far too deep
        '{"format": "stepping-stones-record/1", "players": [' + "1" * 5000 + "]}",  # a huge number
    ],
)
def test_a_hostile_save_is_moved_aside_and_the_app_opens(home, content):
    current_path().parent.mkdir(parents=True)
    current_path().write_text(content)
    text = asyncio.run(_notice_at_start(make_app()))
    assert "could not be resumed" in text
    assert not current_path().exists()
    assert len(list(current_path().parent.glob("current.json.bad-*"))) == 1


def test_a_50_megabyte_save_is_refused_at_once(home, monkeypatch):
    """Refused by its size, before it is read: not one byte of the 50 MB is read or parsed."""
    current_path().parent.mkdir(parents=True)
    with open(current_path(), "w") as f:
        f.write('{"format": "stepping-stones-record/1", "hands": [')
        f.write("{}, " * (50 * 1024 * 1024 // 4))
        f.write("{}]}")
    save = os.stat(current_path())
    read_from_save = []
    real_read = os.read

    def read(fd: int, n: int) -> bytes:
        data = real_read(fd, n)
        info = os.fstat(fd)
        if (info.st_dev, info.st_ino) == (save.st_dev, save.st_ino):
            read_from_save.append(len(data))
        return data

    monkeypatch.setattr(os, "read", read)
    text = asyncio.run(_notice_at_start(make_app()))
    assert f"too large ({save.st_size:,} bytes" in "".join(text.split("\n"))
    assert read_from_save == []
    assert len(list(current_path().parent.glob("current.json.bad-*"))) == 1  # moved aside, whole


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
            notice = " ".join(widget_text(table.query_one("#save-notice")).split())
            assert "not being saved" in notice and "is a file, not a folder" in notice
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


def test_a_save_that_cannot_be_written_is_reported_not_raised(home):
    """The save's place is taken by a folder, which no user can write a file over -- root
    included, as CI runs (a read-only folder, the test before, skipped itself there)."""
    session = saved_game_near_the_end(seed="ro", hands=1, cards_left=30)
    path = current_path()
    path.unlink()
    path.mkdir()
    assert session.save() is False
    assert session.problem == f"{path} cannot be written (Is a directory)"
    assert path.is_dir() and not any(path.iterdir())  # nothing half-written was left in its place
    assert not list(path.parent.glob(".current.json.*.tmp"))  # nor its temporary file


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
            monkeypatch.setattr("stepping_stones.storage.files.tempfile.mkstemp", no_space)
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
    from stepping_stones.storage.settings import Settings, load_settings, settings_path

    settings_path().parent.mkdir(parents=True)
    os.mkfifo(settings_path())
    assert load_settings() == Settings()  # no hang on a FIFO
    settings_path().unlink()
    settings_path().write_text("[" * 10_000 + "]" * 10_000)
    assert load_settings() == Settings()


# --- a full disk when the game ends, a folder that becomes writable, bad sidecars --------------


def _disk_full(monkeypatch) -> None:
    """Every file written from now on fails as on a full disk: the data reaches the temporary file
    but cannot be flushed to the disk (a tmpfs of 1 MB fails on the write itself, the same way)."""
    real = os.fsync

    def no_space(fd):
        if stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd)

    monkeypatch.setattr(os, "fsync", no_space)


class Answers:
    """Input for the plain mode: ``answer(prompt_so_far)`` gives each line (``""`` ends the input)."""

    def __init__(self, out, answer):
        self.out = out
        self.answer = answer

    def readline(self, size: int = -1) -> str:
        return self.answer(self.out.getvalue())


def _finished_in_games(home) -> list:
    return [p for p in (home / "data" / "games").glob("game-*.json") if ".session" not in p.name]


def test_a_game_that_ends_on_a_full_disk_is_kept_and_written_once_there_is_room(home, monkeypatch):
    import io

    from stepping_stones.game.choices import Setup
    from stepping_stones.plain import Options, run

    saved_game_near_the_end(seed="full-end", cards_left=1)
    before = current_path().read_bytes()
    _disk_full(monkeypatch)
    out = io.StringIO()
    tries: list[str] = []

    def answer(printed: str) -> str:
        tries.append(printed)
        # Never claimed as saved while the disk is full; the old save is untouched, nothing filed.
        assert "record: " not in printed and "game is saved" not in printed
        assert current_path().read_bytes() == before
        assert not _finished_in_games(home)
        if len(tries) == 2:
            monkeypatch.undo()  # room again
            monkeypatch.setenv("STEPPING_STONES_HOME", str(home))
        return "\n"

    status = run(Options(Setup(), resume=True), Answers(out, answer), out, hinter=None)
    text = out.getvalue()
    assert status == 0 and len(tries) == 2
    assert text.count("The finished game is not saved:") == 2
    assert f"{current_path()} cannot be written (No space left on device)" in text
    [filed] = _finished_in_games(home)
    assert text.rstrip("\n").endswith(f"record: {filed}")
    assert load_game(filed).over  # the finished game, not the old save
    assert not current_path().exists()
    assert not list(current_path().parent.glob(".*.tmp"))  # no half-written temporary file left


def test_a_game_that_ends_on_a_full_disk_and_is_given_up_says_so_and_keeps_the_old_save(home, monkeypatch):
    import io

    from stepping_stones.game.choices import Setup
    from stepping_stones.plain import Options, run

    saved_game_near_the_end(seed="full-quit", cards_left=1)
    before = current_path().read_bytes()
    _disk_full(monkeypatch)
    out = io.StringIO()
    status = run(Options(Setup(), resume=True), Answers(out, lambda _: "quit\n"), out, hinter=None)
    assert status == 1
    assert out.getvalue().rstrip("\n").splitlines()[-1].startswith("The finished game was not saved: ")
    assert "record: " not in out.getvalue()
    assert current_path().read_bytes() == before
    assert not _finished_in_games(home)


class ReadOnly:
    """The data folder as a read-only folder looks to a user who is not root: nothing can be
    created, replaced or removed in it (every write goes through these calls, the lock file's
    too).  ``on`` switches it; the tests run as root, who could write a chmod-ed folder."""

    WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT

    def __init__(self, monkeypatch, folder):
        self.folder = str(folder)
        self.on = True
        for name in ("open", "mkdir", "replace", "rename", "unlink"):
            monkeypatch.setattr(os, name, self._guard(name, getattr(os, name)))

    def _inside(self, path) -> bool:
        return os.path.abspath(os.fspath(path)).startswith(self.folder)

    def _guard(self, name, real):
        def call(path, *args, **kwargs):
            writes = name != "open" or (args and args[0] & self.WRITES)
            if self.on and writes and self._inside(path):
                raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
            return real(path, *args, **kwargs)

        return call


def _first_legal(printed: str) -> str:
    last = printed.rstrip("\n").rsplit("\n", 1)[-1]
    assert last.startswith("legal: ")
    return last[len("legal: ") :].split(", ")[0] + "\n"


def test_after_a_read_only_start_the_lock_is_taken_before_the_first_write(home, monkeypatch):
    import io

    from stepping_stones.game.choices import Setup
    from stepping_stones.plain import Options, run
    from stepping_stones.storage import session as session_module
    from stepping_stones.storage.session import lock_of, open_elsewhere

    saved_game_near_the_end(seed="ro-then-rw", hands=1, cards_left=20, person_to_play=True)
    before = current_path().read_bytes()
    folder = ReadOnly(monkeypatch, current_path().parent)
    writes: list[tuple[str, bool]] = []
    real_write = session_module.atomic_write

    def spy(path, text):
        held = SlotLock(current_path())
        try:
            free = held.acquire()  # another copy could have claimed it: the lock was not held
        finally:
            held.release()
        writes.append((os.path.basename(path), not free))
        return real_write(path, text)

    monkeypatch.setattr(session_module, "atomic_write", spy)
    monkeypatch.setattr("stepping_stones.storage.records.atomic_write", spy)
    out = io.StringIO()
    reads: list[str] = []

    def answer(printed: str) -> str:
        reads.append(printed)
        if len(reads) == 1:
            # Said at once, before the first action, not only at the end.
            assert "This game is not being saved: " in printed
            assert f"{current_path()} cannot be written (Permission denied)" in printed
        if len(reads) == 3:
            assert current_path().read_bytes() == before  # nothing written while read-only
            folder.on = False  # the folder can be written now
        if len(reads) == 5:
            assert open_elsewhere(current_path())  # claimed: a second copy leaves it alone
            assert sidecar_of(current_path()).exists()
            return "quit\n"
        return _first_legal(printed)

    status = run(Options(Setup(), resume=True), Answers(out, answer), out, hinter=None)
    assert status == 0, out.getvalue()
    assert "The game is being saved again." in out.getvalue()
    assert writes and all(held for _, held in writes), writes  # every write under the lock
    assert current_path().read_bytes() != before
    assert not lock_of(current_path()).exists() or not open_elsewhere(current_path())


def test_after_a_read_only_start_a_slot_taken_meanwhile_is_never_written(home, monkeypatch):
    import io

    from stepping_stones.game.choices import Setup
    from stepping_stones.plain import Options, run

    saved_game_near_the_end(seed="ro-two", hands=1, cards_left=20, person_to_play=True)
    before = current_path().read_bytes()
    folder = ReadOnly(monkeypatch, current_path().parent)
    other_copy = SlotLock(current_path())
    out = io.StringIO()
    reads: list[str] = []

    def answer(printed: str) -> str:
        reads.append(printed)
        if len(reads) == 2:
            folder.on = False
            assert other_copy.acquire()  # a second copy resumes the same save meanwhile
        if len(reads) == 4:
            return "quit\n"
        return _first_legal(printed)

    try:
        status = run(Options(Setup(), resume=True), Answers(out, answer), out, hinter=None)
        assert status == 0, out.getvalue()
        assert current_path().read_bytes() == before  # the other copy's save is untouched
        moved = load_game(slot_path(2))  # this copy's game went on in a slot of its own
        assert len(moved.log[-1].plays) > len(load_game(current_path()).log[-1].plays)
        assert slot_path(2).with_suffix(".session.json").exists()
    finally:
        other_copy.release()


@pytest.mark.parametrize(
    "sidecar, why",
    [
        ({"seed": "s", "levels": [None, None, None]}, "levels: seats 1 and 2 each need an AI level"),
        ({"seed": "s", "levels": [None, "heuristic", None]}, "levels: seats 1 and 2 each need an AI level"),
        ({"seed": "s", "levels": ["expert", "heuristic", "random"]}, "the person's seat (seat 0) has no AI level"),
        ({"seed": "\x1b]0;pwned\x07\x1b[2J", "levels": [None, "random", "random"]}, "seed: it may not contain control"),
        ({"seed": "7" * 60_000, "levels": [None, "random", "random"]}, "seed: String should have at most 100"),
        ({"seed": "s", "levels": [None, "random\x1b[2J", "random"]}, "levels.1: it may not contain control"),
        ({"seed": 7, "levels": [None, "random", "random"]}, "seed: Input should be a valid string"),
    ],
)
def test_a_bad_sidecar_is_moved_aside_with_a_notice_and_the_game_resumes(home, sidecar, why):
    import io
    import json

    from stepping_stones.game.choices import Setup
    from stepping_stones.plain import Options, run

    saved_game_near_the_end(seed="side", hands=1, cards_left=20, person_to_play=True)
    sidecar_of(current_path()).write_text(json.dumps(sidecar))
    out = io.StringIO()
    reads: list[str] = []

    def answer(printed: str) -> str:
        reads.append(printed)
        return "quit\n" if len(reads) > 1 else _first_legal(printed)

    assert run(Options(Setup(), resume=True), Answers(out, answer), out, hinter=None) == 0
    text = out.getvalue()
    assert text.isprintable() or all(line.isprintable() for line in text.splitlines())  # nothing raw
    assert len(text) < 5000  # a 60 KB seed is not echoed
    [notice] = [line for line in text.splitlines() if "settings could not be used" in line]
    assert why in notice and len(notice) < 400
    [aside] = sidecar_of(current_path()).parent.glob("current.session.json.bad-*")
    assert aside.read_text() == json.dumps(sidecar)  # kept, not deleted
    assert f"kept as {aside}" in notice
    assert "You stopped: the game is saved." in text
    fresh = json.loads(sidecar_of(current_path()).read_text())  # the game's new settings are saved with it
    assert fresh["levels"] == [None, "heuristic", "heuristic"] and fresh["seed"] in text


def test_a_bad_sidecar_is_reported_in_the_app_and_the_game_resumes(home):
    import json

    saved_game_near_the_end(seed="side-app", hands=1, cards_left=20, person_to_play=True)
    sidecar_of(current_path()).write_text(json.dumps({"seed": "\x1b]0;pwned\x07", "levels": [None, None, None]}))

    async def run(resume):
        app = make_app(resume=resume)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, NoticeScreen)
            text = " ".join(widget_text(app.screen.query_one("#notice")).split())
            assert "settings could not be used" in text and "\x1b" not in text
            await press(pilot, "enter")
            await pilot.pause()
            if not resume:
                await press(pilot, "r")  # then the game is offered as always
            screen = await wait_for_person(pilot)
            assert isinstance(screen, TableScreen)
            assert screen.session.info.levels == [None, "heuristic", "heuristic"]

    asyncio.run(run(True))
    sidecar_of(current_path()).write_text(json.dumps({"seed": "x", "levels": [None, "random", None]}))
    asyncio.run(run(False))


def test_in_the_app_a_game_that_ends_on_a_full_disk_is_kept_until_w_writes_it(home, monkeypatch):
    from stepping_stones.tui.dialogs import HandSummaryScreen
    from stepping_stones.tui.screens import GameOverScreen

    saved_game_near_the_end(seed="full-app", cards_left=1)
    before = current_path().read_bytes()

    async def run():
        app = make_app(resume=True)
        _disk_full(monkeypatch)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            screen = await wait_for_person(pilot)
            assert isinstance(screen, HandSummaryScreen)
            await press(pilot, "enter")
            screen = await wait_for_person(pilot)
            assert isinstance(screen, GameOverScreen)
            text = " ".join(widget_text(screen.query_one("#gameover-help")).split())
            assert "is not saved" in text and "No space left on device" in text and "saved as" not in text
            assert current_path().read_bytes() == before and not _finished_in_games(home)
            await press(pilot, "q")  # quitting asks first: the game would be lost
            assert isinstance(app.screen, ConfirmScreen) and "finished game is not saved" in app.screen.question
            await press(pilot, "n")
            await press(pilot, "w")  # still no room: still kept, still said
            assert screen.path is None and current_path().read_bytes() == before
            monkeypatch.undo()
            monkeypatch.setenv("STEPPING_STONES_HOME", str(home))
            await press(pilot, "w")  # room again
            [filed] = _finished_in_games(home)
            assert screen.path == filed
            text = "".join(widget_text(screen.query_one("#gameover-help")).split())  # a long path wraps
            assert f"savedas{filed}" in text
            await press(pilot, "q")
        return app

    app = asyncio.run(run())
    assert app.return_code in (0, None) and not app.unsaved
    [filed] = _finished_in_games(home)
    assert load_game(filed).over and not current_path().exists()


def test_quitting_on_the_last_summary_shows_the_result_on_the_next_start(home):
    from stepping_stones.tui.dialogs import HandSummaryScreen
    from stepping_stones.tui.screens import GameOverScreen

    saved_game_near_the_end(seed="last-summary", cards_left=1)

    async def run(resume, quit_on_summary):
        app = make_app(resume=resume)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            screen = await wait_for_person(pilot)
            assert isinstance(screen, HandSummaryScreen)  # the last hand's summary
            if quit_on_summary:
                await press(pilot, "ctrl+q")
                return None
            await press(pilot, "enter")
            screen = await wait_for_person(pilot)
            assert isinstance(screen, GameOverScreen)
            return screen.path

    assert asyncio.run(run(True, True)) is None
    assert load_game(current_path()).over  # the finished game is still there, not filed unseen
    assert not _finished_in_games(home)
    path = asyncio.run(run(False, False))  # the next start shows the result, then files the game
    assert path is not None and _finished_in_games(home) == [path]
    assert not current_path().exists()


def test_plain_resume_of_a_game_closed_on_its_last_summary_shows_the_result(home):
    import io

    from stepping_stones.game.choices import Setup
    from stepping_stones.game.match import drive
    from stepping_stones.plain import Options, run
    from stepping_stones.storage.session import Session

    session = Session.new(Setup(seed="plain-last", levels=("random", "random")))
    from stepping_stones.ai import RandomAI

    drive(session.game, [RandomAI()] * 3, session.seeds)
    assert session.game.over
    session.save()
    out = io.StringIO()
    assert run(Options(Setup(), resume=True), io.StringIO(""), out, hinter=None) == 0
    text = out.getvalue()
    assert text.startswith("The last game ended before its result was shown")
    assert "The game is over." in text
    [filed] = _finished_in_games(home)
    assert text.rstrip("\n").endswith(f"record: {filed}")


def test_temporary_files_left_by_a_killed_copy_are_removed_under_the_lock(home):
    import io

    from stepping_stones.game.choices import Setup
    from stepping_stones.plain import Options, run

    saved_game_near_the_end(seed="stale", hands=1, cards_left=20, person_to_play=True)
    folder = current_path().parent
    stale = [folder / ".current.json.k9x2_a.tmp", folder / ".current.session.json.b7q.tmp"]
    for path in stale:
        path.write_text('{"half": ')
    others = folder / ".current-2.json.zz1.tmp"  # another copy's slot, open in that copy
    others.write_text("{")
    other_copy = SlotLock(slot_path(2))
    assert other_copy.acquire()
    try:
        out = io.StringIO()
        assert run(Options(Setup(), resume=True), Answers(out, lambda _: "quit\n"), out, hinter=None) == 0
        assert not any(path.exists() for path in stale)
        assert others.exists()  # not this copy's to clean
    finally:
        other_copy.release()


def test_a_data_folder_that_is_a_file_is_said_to_be_one(home):
    import io

    from stepping_stones.game.choices import Setup
    from stepping_stones.plain import Options, run

    home.mkdir()
    (home / "data").write_text("a file where the data folder should be")
    out = io.StringIO()
    assert run(Options(Setup(seed="f")), Answers(out, lambda _: "quit\n"), out, hinter=None) == 1
    text = out.getvalue()
    said = f"This game is not being saved: the data folder {home / 'data'} is a file, not a folder."
    assert said in text
    assert "File exists" not in text and "Not a directory" not in text


def test_every_seed_a_game_can_start_with_is_one_its_save_can_resume_with(home):
    """The command line and the setup screen hold seeds to the length a save's sidecar accepts:
    the longest seed starts a game that resumes with it, and a longer one is refused at once."""
    import subprocess
    import sys

    from stepping_stones.game.choices import SEED_LENGTH, Setup
    from stepping_stones.storage.session import Session, find_saved, free_slot

    longest = "7" * SEED_LENGTH
    session = Session.new(Setup(seed=longest), free_slot())
    assert session.claim()
    session.save()
    session.release()
    saved = find_saved()
    assert saved.session is not None and saved.session.info.seed == longest and saved.problem is None
    too_long = "7" * (SEED_LENGTH + 1)
    done = subprocess.run(
        [sys.executable, "-m", "stepping_stones", "play", "--plain", "--seed", too_long],
        capture_output=True,
        text=True,
        input="",
        timeout=60,
        env={**os.environ, "STEPPING_STONES_HOME": str(home)},
    )
    assert done.returncode == 2 and f"at most {SEED_LENGTH}" in done.stderr and "Traceback" not in done.stderr


def test_the_setup_screen_takes_no_longer_seed_than_a_save_keeps(home):
    from textual.widgets import Input

    from stepping_stones.game.choices import SEED_LENGTH

    async def main() -> None:
        app = make_app()
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            assert app.screen.query_one("#seed", Input).max_length == SEED_LENGTH

    asyncio.run(main())


def test_a_finished_game_written_but_not_filed_is_not_called_lost(home, monkeypatch):
    """The finished game reaches its save, but the games folder cannot be written: it is said to
    be saved (it is), not lost, and the next start files it."""
    import io

    from stepping_stones.game.choices import Setup
    from stepping_stones.plain import Options, run
    from stepping_stones.storage import session as session_module

    saved_game_near_the_end(seed="no-games-folder", cards_left=1)

    def cannot_file(kind="game", path=None):
        raise OSError(errno.EACCES, "Permission denied", str(home / "data" / "games"))

    monkeypatch.setattr(session_module, "archive_current", cannot_file)
    out = io.StringIO()
    reads: list[str] = []

    def answer(printed: str) -> str:  # Enter (try again) twice, then give up
        reads.append(printed)
        return "\n" if len(reads) < 3 else "quit\n"

    status = run(Options(Setup(), resume=True), Answers(out, answer), out, hinter=None)
    text = out.getvalue()
    assert status == 0, text
    assert "not saved" not in text and "lost" not in text
    assert "could not be put into the games folder" in text
    assert text.rstrip("\n").endswith(f"record: {current_path()}")
    assert load_game(current_path()).over  # the finished game is in the save
    monkeypatch.undo()
    monkeypatch.setenv("STEPPING_STONES_HOME", str(home))
    out = io.StringIO()
    assert run(Options(Setup(), resume=True), Answers(out, lambda _: "\n"), out, hinter=None) == 0
    [filed] = _finished_in_games(home)
    assert load_game(filed).over and not current_path().exists()
