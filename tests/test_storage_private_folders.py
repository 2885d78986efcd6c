"""The player's own data folder is theirs alone, whatever the umask, after ``join`` and ``play``:
``data/``, ``data/games/`` and ``data/seats/`` 0700, the save's lock file 0600 (issue 42: they
were 0755 and 0644).  What ``join`` and ``play`` do to the folder, through storage's own calls."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from stepping_stones.storage.games import file_copy, games_dir
from stepping_stones.storage.seats import KeptSeat, keep_seat
from stepping_stones.storage.session import SlotLock, lock_of
from stepping_stones.storage.settings import HOME_ENV, data_dir


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(HOME_ENV, str(tmp_path))
    old = os.umask(0o022)
    try:
        yield tmp_path
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_join_keeps_its_seat_and_files_its_game_in_folders_of_its_own(home):
    keep_seat(KeptSeat("http://127.0.0.1:8765", "K7QX2-MRB9T", "t1", 0, "Ann", "s" * 22))
    # a front end that makes the games folder as any folder (mkdir, the umask's 0755), then files
    games_dir().mkdir(parents=True, exist_ok=True)
    record = file_copy(games_dir(), "online-1-t1.json", "{}", None)
    assert _mode(data_dir()) == _mode(games_dir()) == _mode(data_dir() / "seats") == 0o700
    assert _mode(record) == 0o600


def test_play_claims_its_save_with_a_lock_file_of_its_own(home):
    save = data_dir() / "current.json"
    lock = SlotLock(save)
    assert lock.acquire()
    try:
        assert _mode(data_dir()) == 0o700
        assert _mode(Path(lock_of(save))) == 0o600
    finally:
        lock.release()


def test_a_folder_the_user_names_elsewhere_is_left_as_it_is(home, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    os.chmod(shared, 0o755)
    file_copy(shared, "x.json", "{}", None)
    assert _mode(shared) == 0o755
