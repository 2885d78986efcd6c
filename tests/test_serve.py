"""``stepping-stones serve``: the page over HTTP, the warning off 127.0.0.1, a clean stop, and a
game played by keyboard in a real (headless) Chromium.

The browser test needs Playwright and a Chromium on this machine (Debian: ``apt-get install
chromium``); where either is missing it is skipped and says which.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import asdict
from pathlib import Path

import pytest

from stepping_stones.engine import CARD_NAMES
from stepping_stones.records import load_game
from stepping_stones.serve import is_loopback
from stepping_stones.session import open_elsewhere
from stepping_stones.settings import Settings

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             shutil.which("google-chrome")) if p), None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """``stepping-stones serve`` running in its own process, with its own home folder."""

    def __init__(self, home: Path, *args: str) -> None:
        self.home = home
        self.port = free_port()
        (home / "config").mkdir(parents=True, exist_ok=True)
        # The AI seats answer quickly, so the test waits on the game, not on the pace; not at
        # once, or the line "You play ..." could be pushed out of the log by the next cards
        # before the page is ever drawn with it.
        (home / "config" / "settings.json").write_text(
            json.dumps(asdict(Settings(pace="fast", trick_pause=False))))
        env = {**os.environ, "STEPPING_STONES_HOME": str(home), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "stepping_stones", "serve", "--port", str(self.port), *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.url = f"http://127.0.0.1:{self.port}/"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url, timeout=2) as response:
                    self.page = response.read().decode()
                    return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
        self.stop()
        raise AssertionError(f"the server did not answer: {self.proc.stderr.read() if self.proc.stderr else ''}")

    def stop(self) -> tuple[int, str, str]:
        """Ctrl+C, as a person at the terminal would; the exit status and what was printed."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            out, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
            raise AssertionError(f"Ctrl+C did not stop the server: {out} {err}") from None
        return self.proc.returncode, out, err


@pytest.fixture
def served(tmp_path):
    server = Served(tmp_path / "home")
    yield server
    server.stop()


def test_the_page_answers_on_127_0_0_1_with_the_game_as_its_title(served):
    assert "<title>Stepping Stones</title>" in served.page
    assert f"ws://127.0.0.1:{served.port}/ws" in served.page
    # bound to this machine only: nothing listens on the other addresses
    other = socket.gethostbyname(socket.gethostname())
    if other != "127.0.0.1" and not other.startswith("127."):
        with pytest.raises(OSError), socket.create_connection((other, served.port), timeout=2):
            pass
    status, out, err = served.stop()
    assert status == 0, err
    assert f"Stepping Stones is served at http://127.0.0.1:{served.port}/" in out
    assert "The server has stopped." in out
    assert "Traceback" not in out + err and "Warning" not in err


def test_another_address_is_served_with_a_warning(tmp_path):
    server = Served(tmp_path / "home", "--host", "0.0.0.0")
    status, _, err = server.stop()
    assert status == 0
    assert "Warning: serving on 0.0.0.0" in err and "anyone who can reach port" in err


def test_loopback_addresses():
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert is_loopback("127.0.0.2")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5") and not is_loopback("example.org")


def test_a_port_in_use_is_one_sentence(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        env = {**os.environ, "STEPPING_STONES_HOME": str(tmp_path / "home")}
        done = subprocess.run([sys.executable, "-m", "stepping_stones", "serve", "--port", str(port)],
                              capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 1
    assert done.stderr.startswith(f"serve: cannot listen on 127.0.0.1 port {port}: ")
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_bad_port_is_refused_by_the_arguments(tmp_path):
    done = subprocess.run([sys.executable, "-m", "stepping_stones", "serve", "--port", "99999"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "99999 is not a port number" in done.stderr


# --- in a real browser ------------------------------------------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[\]P^_].*?(?:\x07|\x1b\\)|\x1b[()][0-9A-B]|\x1b[=>78]")


def _browser():
    if CHROMIUM is None:
        pytest.skip("no Chromium on this machine (Debian: apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright is not installed (pip install -e '.[test]')")
    return sync_playwright


class Screen:
    """What the app in the page has drawn: the terminal output the page received, as text."""

    def __init__(self, page) -> None:
        self.chunks: list[bytes] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload) -> None:
        if isinstance(payload, bytes):
            self.chunks.append(payload)

    def text(self) -> str:
        return ANSI.sub("", b"".join(self.chunks).decode("utf-8", "replace"))

    def wait_for(self, page, words: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while words not in self.text():
            if time.monotonic() > deadline:
                raise AssertionError(f"{words!r} never appeared in the page")
            page.wait_for_timeout(50)


def _saved(home: Path):
    path = home / "data" / "current.json"
    try:
        return load_game(path)
    except Exception:  # not written yet, or between writes
        return None


def test_a_game_in_chromium_by_keyboard(served, monkeypatch):
    sync_playwright = _browser()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 820})
            screen = Screen(page)
            page.goto(served.url)
            assert page.title() == "Stepping Stones"
            screen.wait_for(page, "Start game")
            page.locator(".xterm-screen").click()
            page.keyboard.press("Enter")  # the setup screen's Start game
            played = None
            deadline = time.monotonic() + 90
            while played is None:
                assert time.monotonic() < deadline, "the person's card never reached the saved game"
                page.wait_for_timeout(150)
                game = _saved(served.home)
                if game is None or game.to_act != 0:
                    continue
                hand = game.log[-1]
                mine = [c for k, c in enumerate(hand.plays) if hand.play_seat(k) == 0]
                if mine:
                    played = mine[0]
                    break
                if game.phase.name == "BIDDING":
                    page.keyboard.press("Enter" if game.in_puddle else "p")  # declare, or pass
                else:
                    page.keyboard.press("ArrowRight")  # the next card, then play it (or be told no)
                    page.keyboard.press("Enter")
            screen.wait_for(page, f"You play {CARD_NAMES[played]}")
            page.wait_for_timeout(500)
            if os.environ.get("STEPPING_STONES_SCREENSHOT"):
                page.screenshot(path=os.environ["STEPPING_STONES_SCREENSHOT"])
            # Ctrl+C with the tab still open: its app is told to quit, and the page says so
            status, out, err = served.stop()
            page.wait_for_timeout(300)
            assert "Session ended" in page.evaluate("document.body.innerText")
        finally:
            browser.close()
    assert status == 0, err
    assert "(1 open game saved)" in out
    assert "Traceback" not in out + err
    # the game is saved where the app saves, with the card the page played, and no copy holds it
    game = _saved(served.home)
    assert game is not None and any(played in hand.plays for hand in game.log)
    monkeypatch.setenv("STEPPING_STONES_HOME", str(served.home))
    assert not open_elsewhere(served.home / "data" / "current.json")
