"""``stepping-stones serve --server URL``: a page whose every tab joins a table of that table server.

Its argument is checked; each tab's app opens on Play online with the server's address filled in
and fixed; and, in a real (headless) Chromium, a page joins a table where a plain-mode client sits
too, and both play: each sees the other's card.  The browser tests are skipped, saying why, where
Playwright or a Chromium is missing (as in ``test_serve.py``).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from pathlib import Path
from random import Random

from fronts_support import Host, Plain, within
from net_support import WAIT, new_table
from stepping_stones.engine import CARD_NAMES, Phase
from stepping_stones.net.client import open_table
from stepping_stones.serve.server import app_argv
from test_serve import CHROMIUM, Screen, Served, _browser, refused


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "stepping_stones", "serve", *args], capture_output=True, text=True, timeout=WAIT
    )


def test_a_bad_server_address_is_one_line_and_status_2(capsys, monkeypatch):
    done = _serve("--port", "9", "--server", "ftp://example.org")  # in its own process, as a person runs it
    assert done.returncode == 2, done
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("serve: --server: "), done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    for bad in ("not an address", "http://"):  # the same code in this process
        err = refused(["serve", "--port", "9", "--server", bad], capsys, monkeypatch)
        assert err.count("\n") == 1 and err.startswith("serve: --server: "), err


def test_join_without_a_code_needs_the_app(capsys):
    from stepping_stones.cli import main

    assert main(["join", "--server", "http://127.0.0.1:9", "--plain"]) == 2
    assert capsys.readouterr().err == "join: --plain needs the table's invite code (join CODE --server URL --plain)\n"
    assert main(["join", "--server", "ftp://x"]) == 2
    assert capsys.readouterr().err.startswith("join: 'ftp://x' is not an http:// or https:// address")


def test_each_tab_runs_the_app_on_play_online_at_that_server_alone():
    argv = app_argv(table_server="http://127.0.0.1:8765")
    assert argv[1:] == ["-m", "stepping_stones", "join", "--server", "http://127.0.0.1:8765", "--name", ""]
    assert app_argv()[1:] == ["-m", "stepping_stones"]  # without --server, as before


def test_the_online_screen_of_one_server_shows_its_address_and_takes_no_other(tmp_path, monkeypatch):
    """The app as a tab of ``serve --server`` runs it: the address is there and cannot be typed
    over, the name is left to the person, and F4 after Escape opens the same server again."""
    from textual.widgets import Input

    from stepping_stones.storage.settings import Settings
    from stepping_stones.tui.app import SteppingStonesApp
    from stepping_stones.tui.online import OnlineScreen

    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))

    async def main() -> None:
        app = SteppingStonesApp(settings=Settings(pace="instant"), online=("http://127.0.0.1:8765", ""))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, OnlineScreen)
            server = screen.query_one("#server", Input)
            assert server.value == "http://127.0.0.1:8765" and server.disabled
            name = screen.query_one("#online-name", Input)
            assert name.value == "" and app.focused is name
            await pilot.press(*"Bea", "enter")  # the name, then on to the code
            assert app.focused is screen.query_one("#code", Input)
            assert "Now the invite code" in str(screen.query_one("#online-status").render())
            await pilot.press("enter")  # no code yet: told what to type
            assert "invite code" in str(screen.query_one("#online-status").render())
            await pilot.press("escape")  # back to the setup screen; F4 opens the same server
            await pilot.press("f4")
            await pilot.pause()
            again = app.screen
            assert isinstance(again, OnlineScreen) and again is not screen
            assert again.query_one("#server", Input).disabled and again.server == "http://127.0.0.1:8765"

    asyncio.run(main())


# --- in a real browser ------------------------------------------------------------------------


def _table(folder: Path):
    """The table as the server's journal has it now (written before any client hears of a move):
    the test's oracle of whose turn it is."""
    from stepping_stones.net.journal import read_table
    from stepping_stones.net.table import Table

    paths = list((folder / "tables").glob("*.jsonl"))
    if len(paths) != 1:
        return None
    try:
        snapshot, moves = read_table(paths[0].read_text(encoding="utf-8"))
        return Table.from_file(snapshot, moves=moves)
    except Exception:  # being written
        return None


def _cards_of(table, name: str) -> list[str]:
    game = table.game if table is not None else None
    if game is None:
        return []
    seat = [s.name for s in table.seats].index(name)
    return [CARD_NAMES[c] for hand in game.log for k, c in enumerate(hand.plays) if hand.play_seat(k) == seat]


def _told(text: str, name: str, cards: list[str]) -> list[str]:
    """The cards of ``cards`` that ``text`` tells ``name`` playing or leading."""
    return [c for c in cards if f"{name} plays {c}." in text or f"{name} leads {c}." in text]


class _PlainThread:
    """A plain-mode client on an event loop of its own thread, answering every ``legal:`` line with
    a random legal action, while the test's own thread drives the browser."""

    def __init__(self, url: str, code: str, home: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        rng = Random(3)
        self.plain: Plain = self.call(Plain.start(url, code, home, "Ann", lambda actions: rng.choice(actions)))
        self.done = asyncio.run_coroutine_threadsafe(self.plain.run(), self.loop)

    def call(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=WAIT)

    def seen(self, holds) -> str:
        """Wait until the client has printed a line for which ``holds`` is true."""

        async def wait() -> str:
            line = next((line for line in self.plain.lines if holds(line)), None)
            return line if line is not None else str(await within(self.plain.expect(holds)))

        return self.call(wait())

    def stop(self) -> None:
        async def kill() -> None:
            if self.plain.proc.returncode is None:
                self.plain.proc.kill()

        self.call(kill())
        self.done.result(timeout=WAIT)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=WAIT)


def test_a_page_joins_a_table_with_a_plain_client_and_each_sees_the_other_s_card(tmp_path):
    sync_playwright = _browser()
    assert CHROMIUM is not None
    host = Host(tmp_path / "server")
    url = host.start()
    opened = asyncio.run(open_table(url, new_table(("open", "open", "random"), level="random")))
    served = Served(tmp_path / "home", "--server", url)
    plain: _PlainThread | None = None
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 820})
                requests: list[str] = []
                page.on("request", lambda request: requests.append(request.url))
                screen = Screen(page)
                page.goto(served.url)
                screen.wait_for("Type your name and the invite code")
                assert url in screen.text()  # the server's address, shown
                page.locator(".xterm-helper-textarea").focus()  # keys to the app; a click would be a click in it
                page.keyboard.type("Bea")
                page.keyboard.press("Enter")
                screen.wait_for("Now the invite code")  # the keys that follow go to the code's field
                page.keyboard.type(opened.code)
                page.keyboard.press("Enter")
                screen.wait_for("Invite code:")  # the lobby: the page sat first, so it is the opener
                screen.wait_for("Seat 1: you (person)")
                plain = _PlainThread(url, opened.code, tmp_path / "plain-home")  # the last open seat
                acted: tuple[tuple[int, int, int], int, int] | None = None  # position, frames, tries
                while True:
                    table = _table(host.folder)
                    text = screen.text()
                    mine = _cards_of(table, "Bea")
                    if mine and _told(text, "Ann", _cards_of(table, "Ann")):
                        break
                    frames = len(screen.chunks)
                    game = table.game if table is not None else None
                    seat = [s.name for s in table.seats].index("Bea") if game is not None else None
                    if game is not None and not game.over and game.to_act == seat:
                        hand = game.hand
                        position = (len(game.log), len(hand.bids), len(hand.plays))
                        if acted is None or acted[0] != position or acted[1] < frames:
                            tries = acted[2] + 1 if acted is not None and acted[0] == position else 0
                            if game.phase is Phase.BIDDING:
                                keys = ["Enter"] if game.in_puddle else ["p"]
                                if game.in_puddle and tries % 2:
                                    keys = ["c", "Enter"]  # a contract that needs its trump suit
                            else:
                                keys = ["Enter"] if tries == 0 else ["ArrowRight", "Enter"]  # the cursor starts legal
                            for key in keys:
                                page.keyboard.press(key)
                            acted = (position, len(screen.chunks), tries)
                            continue
                    screen.next_frame()
                played = _cards_of(_table(host.folder), "Bea")
                # the journal is written before any client hears: the page may not have drawn it yet
                while not any(f"You {verb} {played[0]}." in screen.text() for verb in ("play", "lead")):
                    screen.next_frame()
                if os.environ.get("STEPPING_STONES_SCREENSHOT"):
                    page.screenshot(path=os.environ["STEPPING_STONES_SCREENSHOT"])
                # the plain client was told the page's card, as the page was told the plain client's
                seen = plain.seen(lambda line: bool(_told(line, "Bea", played)))
                assert all(u.startswith((served.origin, f"ws://127.0.0.1:{served.port}")) for u in requests), (
                    requests
                )  # the page talks to its own server only; the app in it talks to the table server
            finally:
                browser.close()
    finally:
        if plain is not None:
            plain.stop()
        status, out, err = served.stop()
        _out, host_err = host.stop()
    assert seen.startswith(("Bea plays ", "Trick ")), seen
    intro = next(line for line in plain.plain.lines if line.startswith("You play as Ann against"))
    assert "Bea (person)" in intro and "(computer)" in intro
    assert status == 0, err
    assert "joins a table of the table server " + url in out
    assert "Traceback" not in err + host_err
