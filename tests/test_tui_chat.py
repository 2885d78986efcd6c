"""The app's chat at a table on a server (m): a quick phrase by its number, the person's own
words, a hostile line drawn as plain text in the log (no escape sequence, no markup), and a
person muted from the dialog."""

from __future__ import annotations

import asyncio

from net_support import WAIT, new_table, running
from stepping_stones.net.client import SeatClient, open_table
from stepping_stones.net.protocol import Said
from stepping_stones.storage.safety import chat_text
from stepping_stones.storage.settings import Settings
from stepping_stones.tui.app import SteppingStonesApp
from stepping_stones.tui.chat import ChatScreen
from stepping_stones.tui.online import LobbyScreen, RemoteTableScreen
from tui_support import widget_text

HOSTILE = "[bold red]loud[/] \x1b[2J\x9b2J \u202eevil"


async def _until(pilot, holds) -> None:
    async with asyncio.timeout(WAIT):
        while not holds():
            await pilot.pause()


async def _next(client: SeatClient, kind: type) -> object:
    async with asyncio.timeout(WAIT):
        while True:
            message = await client.receive()
            if isinstance(message, kind):
                return message


def test_the_app_says_a_quick_phrase_shows_a_hostile_line_as_text_and_mutes(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))

    async def scenario() -> None:
        async with running(tmp_path / "server", logo=(b"", "Koi Club")) as (_server, url):  # host --club
            opened = await open_table(url, new_table(("open", "open", "random")))
            bot = SeatClient(url, code=opened.code, name="Bot")
            await bot.join()
            app = SteppingStonesApp(
                settings=Settings(pace="instant", trick_pause=False), join=(url, opened.code, "Ann")
            )
            try:
                async with app.run_test(size=(120, 40)) as pilot:
                    await _until(pilot, lambda: isinstance(app.screen, RemoteTableScreen))
                    table = app.screen
                    assert isinstance(table, RemoteTableScreen)
                    await _until(pilot, lambda: "At the table of Koi Club." in widget_text(table.query_one("#log")))
                    await pilot.press("m")
                    await _until(pilot, lambda: isinstance(app.screen, ChatScreen))
                    assert "1 Hello!" in widget_text(app.screen.query_one("Static:last-of-type"))
                    await pilot.press("2", "enter")
                    assert await _next(bot, Said) == Said(seat=1, name="Ann", text="Well played")
                    await _until(pilot, lambda: "You say: Well played" in widget_text(table.query_one("#log")))
                    await bot.say(HOSTILE)
                    await _until(pilot, lambda: "Bot says:" in widget_text(table.query_one("#log")))
                    log = widget_text(table.query_one("#log"))
                    assert "[bold red]loud[/]" in log  # drawn as the text it is, not as markup
                    assert not any(ch in log for ch in "\x1b\x9b\u202e")
                    assert f"Bot says: {chat_text(HOSTILE)}" in " ".join(log.split())
                    await pilot.press("m")
                    await _until(pilot, lambda: isinstance(app.screen, ChatScreen))
                    await pilot.click("#mute-0")
                    await _until(pilot, lambda: "You no longer hear Bot." in widget_text(table.query_one("#log")))
                    assert table.flow.muted == [0]
                    assert not isinstance(app.screen, LobbyScreen)
            finally:
                await bot.close()

    asyncio.run(scenario())
