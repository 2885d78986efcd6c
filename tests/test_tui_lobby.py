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
