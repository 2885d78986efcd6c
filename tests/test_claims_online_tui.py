"""A claim from the app at a table on a server (Pilot): c, the dialog, and the server's verdict told
on the table once the hand is played out."""

from __future__ import annotations

import asyncio
from random import Random

from net_support import WAIT, new_table, running
from stepping_stones.engine import Phase
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.storage.settings import Settings
from stepping_stones.tui.app import SteppingStonesApp
from stepping_stones.tui.claim import ClaimScreen
from stepping_stones.tui.online import RemoteTableScreen


async def _until(pilot, holds) -> None:
    async with asyncio.timeout(WAIT):
        while not holds():
            await pilot.pause()


def test_the_app_claims_at_a_table_on_a_server(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))

    async def game() -> None:
        async with running(tmp_path / "server") as (server, url):
            opened = await open_table(url, new_table())
            bots = [SeatClient(url, code=opened.code, name=f"Bot {i}") for i in range(2)]
            await bots[0].join()
            app = SteppingStonesApp(
                settings=Settings(pace="instant", colour="colour", trick_pause=False), join=(url, opened.code, "Ann")
            )
            tasks = []
            try:
                async with app.run_test(size=(120, 40)) as pilot:
                    await _until(pilot, lambda: app.screen.__class__.__name__ == "LobbyScreen")
                    await bots[1].join()
                    tasks = [asyncio.ensure_future(play_randomly(b, Random(i))) for i, b in enumerate(bots)]
                    await _until(pilot, lambda: isinstance(app.screen, RemoteTableScreen))
                    table = app.screen
                    assert isinstance(table, RemoteTableScreen)
                    while True:
                        await _until(pilot, lambda: table.state.my_turn)
                        state = table.state
                        if state.playing:
                            break
                        seq = table.flow.message.seq
                        await pilot.press("p" if not state.view.in_puddle else "enter")
                        if table.state.my_turn and table.state.bidding:
                            await pilot.press("c", "enter")
                        await _until(pilot, lambda seq=seq: table.flow.message.seq != seq)
                    game = server.tables.tables[opened.table].game
                    assert game is not None and game.phase is Phase.PLAY
                    word = "none" if game.state.contract.is_win else "all"
                    number = state.view.hand_number
                    await pilot.press("c")
                    await _until(pilot, lambda: isinstance(app.screen, ClaimScreen))
                    await pilot.press(*word, "enter")
                    await _until(pilot, lambda: any(e.kind == "claim" for e in table.state.log))
                    claim = next(e.text for e in table.state.log if e.kind == "claim")
                    assert claim.startswith("Claim accepted: ")
                    assert game.log[number - 1].finished
            finally:
                for task in tasks:
                    task.cancel()
                for bot in bots:
                    await bot.close()

    asyncio.run(game())
