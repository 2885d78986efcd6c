"""The app's Play online shows the server's open tables with one key (Ctrl+L), each in the
presenter's words, following the server live, and sits the person at the one chosen; with none
listed, it says so and sits nobody.  And the app watches a table by its watch code."""

from __future__ import annotations

import asyncio
import re

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


async def _play_online(pilot, url: str) -> None:
    """F4, Play online, with the server and the name Ann filled in."""
    from textual.widgets import Input

    await pilot.pause()
    await pilot.press("f4")
    await _until(pilot, lambda: isinstance(pilot.app.screen, OnlineScreen))
    pilot.app.screen.query_one("#server", Input).value = url
    pilot.app.screen.query_one("#online-name", Input).value = "Ann"


def test_play_online_lists_the_open_tables_live_and_sits_at_the_one_chosen(tmp_path, monkeypatch):
    """Ctrl+L on Play online shows the server's open tables, each its code and the presenter's
    line (rules, who sits, the seats free), following the server as tables are listed and leave;
    Enter sits the person at the table chosen, not only at the newest."""
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))
    from textual.widgets import OptionList

    from stepping_stones.net.client import SeatClient
    from stepping_stones.net.watching import listed_line
    from stepping_stones.tui.listed import ListedScreen

    async def game() -> None:
        async with running(tmp_path / "server") as (server, url):
            app = SteppingStonesApp(settings=Settings(pace="instant", colour="colour", trick_pause=False))
            async with app.run_test(size=(120, 40)) as pilot:
                await _play_online(pilot, url)
                await open_table(url, new_table(("open", "open", "expert")))  # private: never listed
                await pilot.press("ctrl+l")
                await _until(pilot, lambda: isinstance(app.screen, ListedScreen))
                listed = app.screen
                await _until(pilot, lambda: NO_LISTED in widget_text(listed.query_one("#listed-status")))
                tables = listed.query_one("#listed-tables", OptionList)
                assert tables.option_count == 0
                older = await open_table(url, new_table(("open", "open", "expert"), listed=True))
                newer = await open_table(url, new_table(("open", "open", "open"), listed=True))
                await _until(pilot, lambda: tables.option_count == 2)  # live: no key pressed
                assert [tables.get_option_at_index(i).id for i in range(2)] == [newer.code, older.code]
                facts = server.tables.by_code[older.code]
                line = listed_line(facts.rules, facts.facts())
                assert "1 seat free" not in line and line in str(tables.get_option_at_index(1).prompt)
                async with SeatClient(url, code=newer.code, name="Bea") as bea:
                    await bea.join()
                    await _until(pilot, lambda: "Bea (person" in str(tables.get_option_at_index(0).prompt))
                # the table first shown stays chosen as a newer one comes above it
                assert tables.highlighted_option.id == older.code
                await pilot.press("up")
                assert tables.highlighted_option.id == newer.code
                await pilot.press("down")  # the older table, chosen
                assert tables.highlighted_option.id == older.code
                await pilot.press("enter")
                await _until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                assert server.tables.by_code[older.code].seats[0].name == "Ann"
                assert server.tables.by_code[newer.code].seats[0].name != "Ann"
                await pilot.press("escape")  # leave the lobby: the seat's connection closes
                await _until(pilot, lambda: not isinstance(app.screen, LobbyScreen))

    asyncio.run(game())


def test_an_open_table_that_fills_leaves_the_list_on_play_online(tmp_path, monkeypatch):
    """The table chosen stays chosen while the list changes; a table that fills up leaves it, and
    Escape goes back to Play online without sitting anywhere."""
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))
    from textual.widgets import OptionList

    from stepping_stones.net.client import SeatClient
    from stepping_stones.tui.listed import ListedScreen

    async def game() -> None:
        async with running(tmp_path / "server") as (_server, url):
            app = SteppingStonesApp(settings=Settings(pace="instant", colour="colour", trick_pause=False))
            async with app.run_test(size=(120, 40)) as pilot:
                await _play_online(pilot, url)
                full = await open_table(url, new_table(("open", "random", "random"), listed=True))
                kept = await open_table(url, new_table(("open", "open", "random"), listed=True))
                await pilot.press("ctrl+l")
                await _until(pilot, lambda: isinstance(app.screen, ListedScreen))
                tables = app.screen.query_one("#listed-tables", OptionList)
                await _until(pilot, lambda: tables.option_count == 2)
                await pilot.press("down")
                assert tables.highlighted_option.id == full.code
                async with SeatClient(url, code=full.code, name="Bea") as bea:
                    await bea.join()  # its last free seat: it fills up and starts
                    await _until(pilot, lambda: tables.option_count == 1)
                assert tables.highlighted_option.id == kept.code
                await pilot.press("escape")
                await _until(pilot, lambda: isinstance(app.screen, OnlineScreen))

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


def test_the_app_s_watcher_counts_down_the_clock_of_the_person_waited_for(tmp_path, monkeypatch):
    """The terminal's watcher shows the seconds the server sent for the person the table waits
    for, and counts them down as the players' clients do (the app's clock is the test's; three
    people, so that the table waits for one of them at once)."""
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))
    from textual.widgets import Static

    from stepping_stones.net.client import SeatClient
    from stepping_stones.tui.watching import WatchApp

    waiting = re.compile(r"Waiting for (Ann|Bo|Cy): (\d+) s left\.")

    async def game() -> None:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table(("open", "open", "open")))
            now = [100.0]
            app = WatchApp(url, opened.watch or "", clock=lambda: now[0])
            async with (
                app.run_test(size=(100, 40)) as pilot,
                SeatClient(url, code=opened.code, name="Ann") as ann,
                SeatClient(url, code=opened.code, name="Bo") as bo,
                SeatClient(url, code=opened.code, name="Cy") as cy,
            ):
                shown = lambda: str(app.query_one("#watched", Static).render())  # noqa: E731
                for client in (ann, bo, cy):
                    await client.join()
                await _until(pilot, lambda: waiting.search(shown()) is not None)
                who, sent = waiting.search(shown()).groups()
                now[0] += 30
                app.tick()
                assert f"Waiting for {who}: {int(sent) - 30} s left." in shown()
                now[0] += 1000  # past the timeout: nothing below zero (the server stands a computer in)
                app.tick()
                assert f"Waiting for {who}: 0 s left." in shown()

    asyncio.run(game())
