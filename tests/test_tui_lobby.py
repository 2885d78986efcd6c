"""The app's Play online sits the person at a listed table with one key (Ctrl+L): the newest table
of the server's lobby, said in the presenter's words; with none listed, it says so and sits nobody."""

from __future__ import annotations

import asyncio

from net_support import WAIT, new_table, running
from stepping_stones.flow.presenter import NO_LISTED
from stepping_stones.net.client import open_table
from stepping_stones.storage.settings import Settings
from stepping_stones.tui.app import SteppingStonesApp
from stepping_stones.tui.online import LobbyScreen, OnlineScreen
from tui_support import widget_text


async def _until(pilot, holds) -> None:
    async with asyncio.timeout(WAIT):
        while not holds():
            await pilot.pause()


def test_one_key_on_play_online_sits_at_the_listed_table(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))
    from textual.widgets import Input

    async def game() -> None:
        async with running(tmp_path / "server") as (server, url):
            app = SteppingStonesApp(settings=Settings(pace="instant", colour="colour", trick_pause=False))
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                await pilot.press("f4")
                await _until(pilot, lambda: isinstance(app.screen, OnlineScreen))
                screen = app.screen
                screen.query_one("#server", Input).value = url
                screen.query_one("#online-name", Input).value = "Ann"
                await open_table(url, new_table(("open", "open", "expert")))  # private: not for Ctrl+L
                await pilot.press("ctrl+l")
                await _until(pilot, lambda: NO_LISTED in widget_text(screen.query_one("#online-status")))
                listed = await open_table(url, new_table(("open", "open", "expert"), listed=True))
                await pilot.press("ctrl+l")
                await _until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                table = server.tables.by_code[listed.code]
                assert table.seats[0].name == "Ann"
                await pilot.press("escape")  # leave the lobby: the seat's connection closes
                await _until(pilot, lambda: not isinstance(app.screen, LobbyScreen))

    asyncio.run(game())


def test_the_app_watches_a_table_by_its_watch_code(tmp_path, monkeypatch):
    """``watch WATCHCODE --server URL`` (the app): the table before it starts, then the bidding with
    the seats, whose turn, and how many watch, as the presenter words them; no card of anyone's."""
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))
    from textual.widgets import Static

    from stepping_stones.net.client import SeatClient
    from stepping_stones.tui.watching import WatchApp

    async def game() -> None:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table(("open", "random", "random")))
            app = WatchApp(url, opened.watch or "")
            async with app.run_test(size=(100, 40)) as pilot:
                shown = lambda: str(app.query_one("#watched", Static).render())  # noqa: E731
                await _until(pilot, lambda: "The table has not started: 1 seat free." in shown())
                assert "1 person is watching." in shown()
                async with SeatClient(url, code=opened.code, name="Ann") as ann:
                    await ann.join()
                    await _until(pilot, lambda: "Ann (person" in shown() and "Hand 1 of" in shown())
                    assert "Sheet" in shown() and "Deals of the hands played" not in shown()

    asyncio.run(game())
