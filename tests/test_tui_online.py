"""The app at a table on a server: it joins with an invite code (Pilot), waits in the lobby, and
plays a trick against two bot clients; and the seat's screen shows nothing of the cards it has
not seen: the same position at a server whose other hands are dealt again draws the same."""

from __future__ import annotations

import asyncio
import contextlib
from random import Random

from net_support import WAIT, new_table, running
from stepping_stones.ai import make_ai
from stepping_stones.engine import Phase, Rules
from stepping_stones.game.match import Match, Seeds, Step
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.net.protocol import SeatFacts, StateMessage, Welcome
from stepping_stones.net.remote import turned
from stepping_stones.net.wire import legal_actions
from stepping_stones.storage.records import game_from_record
from stepping_stones.storage.settings import Settings
from stepping_stones.tui.app import SteppingStonesApp
from stepping_stones.tui.online import LobbyScreen, RemoteSeat, RemoteTableScreen
from test_net_hidden import _redealt
from tui_support import widget_text


def _settings() -> Settings:
    return Settings(pace="instant", colour="colour", trick_pause=False)


async def _until(pilot, holds) -> None:
    """Let the app handle its messages until ``holds()`` (each pause waits for the app's queue,
    not for the clock; the timeout is only a safety net)."""
    async with asyncio.timeout(WAIT):
        while not holds():
            await pilot.pause()


def test_the_app_joins_a_table_and_plays_a_trick_against_two_bots(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))

    async def game() -> None:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table())
            bots = [SeatClient(url, code=opened.code, name=f"Bot {i}") for i in range(2)]
            await bots[0].join()  # seat 0; the app takes seat 1, the second bot seat 2
            app = SteppingStonesApp(settings=_settings(), join=(url, opened.code, "Ann"))
            rings: list[None] = []
            app.bell = lambda: rings.append(None)  # type: ignore[method-assign]
            tasks: list[asyncio.Future[StateMessage]] = []
            try:
                async with app.run_test(size=(120, 40)) as pilot:
                    await _until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                    lobby = app.screen
                    await _until(pilot, lambda: opened.code in widget_text(lobby.query_one("#lobby-code")))
                    assert "Seat 2: you (person)" in widget_text(lobby.query_one("#lobby-seats"))
                    await bots[1].join()
                    tasks = [asyncio.ensure_future(play_randomly(b, Random(i))) for i, b in enumerate(bots)]
                    await _until(pilot, lambda: isinstance(app.screen, RemoteTableScreen))
                    table = app.screen
                    assert isinstance(table, RemoteTableScreen) and table.flow.seat == 1
                    assert table.state.view.players == ("Ann", "Bot 1", "Bot 0")  # turned: the person in seat 0
                    acted = 0
                    while not any(
                        t.finished
                        for t in (table.state.view.shown_hand() or _none()).tricks()
                        if any(s == 0 for s, _ in t.cards)
                    ):
                        await _until(pilot, lambda: table.state.my_turn or table.state.view.trick_winners)
                        state = table.state
                        if not state.my_turn:
                            continue
                        seq = table.flow.message.seq
                        assert "Your turn: " in widget_text(table.query_one("#topbar"))
                        assert rings and "Hint" not in widget_text(table.query_one("#table-keys"))  # hints off
                        if state.bidding:
                            await pilot.press("b")  # Bridges as trump: b takes the seat back only from a computer
                            assert table.state.bid.trump == 3
                            await pilot.press("p" if not state.view.in_puddle else "enter")
                            if table.state.my_turn and table.state.bidding:
                                # a contract that needs a trump suit: b is Bridges here too (it takes
                                # the seat back only while a computer plays it)
                                await pilot.press("b")
                                assert table.state.bid.trump == 3
                                await pilot.press("enter")
                        else:
                            await pilot.press("enter")  # the cursor rests on a legal card
                        acted += 1
                        await _until(pilot, lambda seq=seq: table.flow.message.seq != seq or table.state.refusal)
                        assert table.state.refusal is None
                    assert acted >= 1
                    told = " ".join(e.text for e in table.state.log)
                    assert "You play" in told or "You lead" in told
                    assert "(person)" in widget_text(table.query_one("#table"))
            finally:
                for task in tasks:
                    task.cancel()
                for bot in bots:
                    await bot.close()

    asyncio.run(game())


class _none:
    def tricks(self) -> list:
        return []


def _state(game, seat: int) -> StateMessage:
    view = game.view(seat)
    seats = [SeatFacts(name=n, kind="human", level=None, connected=True, stand_in=False) for n in game.players]
    return StateMessage.model_construct(
        seq=1, started=True, seats=seats, help=False, view=view, legal=legal_actions(view), waiting=None
    )


def test_the_seats_screen_is_the_same_whatever_the_cards_it_has_not_seen(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))
    match = Match.new(
        Rules("standard", short_game=True), [make_ai("random")] * 3, Seeds("hidden-online"), players=("Ann", "Bo", "Cy")
    )
    seat = 2
    while not (
        match.game.phase is Phase.PLAY and len(match.game.hand.plays) % 3 == 1 and len(match.game.hand.plays) > 6
    ):
        assert match.step() is not Step.OVER
    other = game_from_record(_redealt(match.game, seat, Random(3)))
    assert other.hand.deal != match.game.hand.deal and turned(other.view(seat)) == turned(match.game.view(seat))

    async def screen(game) -> str:
        welcome = Welcome(
            table="t" * 16, code="AAAAA-AAAAA", seat=seat, name="Cy", secret=None, opener=False, timeout=120.0
        )
        app = SteppingStonesApp(settings=_settings())
        async with app.run_test(size=(120, 40)) as pilot:
            remote = RemoteSeat(SeatClient("http://127.0.0.1:9", code="AAAAA-AAAAA", name="Cy"), welcome)
            remote.flow.receive(_state(game, seat))
            await app.push_screen(RemoteTableScreen(remote, app.settings))
            await pilot.pause()
            text = "\n".join(widget_text(w) for w in app.screen.query("Panel"))
            with contextlib.suppress(Exception):
                await remote.client.close()
            return text

    first, second = asyncio.run(screen(match.game)), asyncio.run(screen(other))
    assert "Cy" in first and first == second


def test_the_app_ended_at_a_table_offers_the_seat_at_its_next_start_and_takes_it_back(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))
    from stepping_stones.tui.dialogs import ConfirmScreen

    async def game() -> None:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table(("open", "open", "random")))
            bot = SeatClient(url, code=opened.code, name="Bot")
            await bot.join()
            tasks: list[asyncio.Future[StateMessage]] = []
            try:
                app = SteppingStonesApp(settings=_settings(), join=(url, opened.code, "Ann"))
                async with app.run_test(size=(120, 40)) as pilot:
                    await _until(pilot, lambda: isinstance(app.screen, RemoteTableScreen))
                    seat = app.screen.flow.seat
                tasks = [asyncio.ensure_future(play_randomly(bot, Random(1)))]
                again = SteppingStonesApp(settings=_settings())  # started again, as a person would
                async with again.run_test(size=(120, 40)) as pilot:
                    await _until(pilot, lambda: isinstance(again.screen, ConfirmScreen))
                    assert opened.code in again.screen.question
                    await pilot.press("y")
                    await _until(pilot, lambda: isinstance(again.screen, RemoteTableScreen))
                    table = again.screen
                    assert table.flow.seat == seat and table.seat.welcome.secret is None  # taken back
                    await _until(pilot, lambda: table.state.my_turn)
                    seq = table.flow.message.seq
                    await pilot.press("p" if table.state.bidding else "enter")
                    await _until(pilot, lambda: table.flow.message.seq != seq or table.state.refusal)
                    assert table.state.refusal is None
            finally:
                for task in tasks:
                    task.cancel()
                await bot.close()

    asyncio.run(game())


def test_a_table_opened_from_the_app_has_the_setup_screens_rules_and_a_second_f4_keeps_server_and_name(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))
    from textual.widgets import Input

    from stepping_stones.tui.online import OnlineScreen
    from stepping_stones.tui.widgets import Choice

    async def game() -> None:
        async with running(tmp_path / "server") as (server, url):
            app = SteppingStonesApp(settings=_settings())
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                app.screen.query_one("#short_game", Choice).focus()
                await pilot.press("right")  # Short game: yes, 9 hands (not started: only shown)
                await pilot.press("f4")
                await _until(pilot, lambda: isinstance(app.screen, OnlineScreen))
                app.screen.query_one("#server", Input).value = url
                app.screen.query_one("#online-name", Input).value = "Ann"
                await pilot.press("ctrl+o")
                await _until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                (table,) = server.tables.tables.values()
                assert table.rules.short_game
                await pilot.press("escape")  # leave the lobby: the setup screen
                await _until(pilot, lambda: not isinstance(app.screen, LobbyScreen))
                await pilot.press("f4")
                await _until(pilot, lambda: isinstance(app.screen, OnlineScreen))
                assert app.screen.query_one("#server", Input).value == url
                assert app.screen.query_one("#online-name", Input).value == "Ann"

    asyncio.run(game())


def test_again_at_the_end_of_a_table_asks_everyone_to_sit_at_a_new_one_with_one_key(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "home"))
    from stepping_stones.net.protocol import Invite
    from stepping_stones.tui.dialogs import ConfirmScreen
    from stepping_stones.tui.online import RemoteGameOverScreen

    async def game() -> None:
        async with running(tmp_path / "server") as (server, url):
            opened = await open_table(url, new_table(("open", "open", "random")))
            clients = [SeatClient(url, code=opened.code, name=name) for name in ("Ann", "Bo")]
            for client in clients:
                await client.join()
            async with asyncio.timeout(WAIT):
                finals = await asyncio.gather(*(play_randomly(c, Random(i)) for i, c in enumerate(clients)))
            app = SteppingStonesApp(settings=_settings())
            try:
                async with app.run_test(size=(120, 40)) as pilot:
                    seat = RemoteSeat(clients[0], clients[0].welcome)  # Ann's seat, in the app
                    seat.flow.receive(finals[0])
                    app.run_worker(seat.read(), exit_on_error=False)
                    from stepping_stones.flow import GameOver

                    while not isinstance(step := seat.flow.next_step(), GameOver):
                        seat.flow.summary_seen()  # the hands' summaries, as the table screen shows them
                    await app.push_screen(RemoteGameOverScreen(seat, step.view, step.path))
                    assert "again, at a new table" in widget_text(app.screen.query_one("#gameover-help"))
                    await clients[1].again()  # Bo asks for a new table: Ann is asked to sit
                    await _until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
                    assert "Bo asks everyone to play again" in app.screen.question
                    await pilot.press("y")
                    await _until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                    invite = seat.invite
                    assert isinstance(invite, Invite) and app.screen.seat.welcome.code == invite.code
                    new = server.tables.by_code[invite.code]
                    assert [s.kind for s in new.seats] == ["human", "open", "computer"]
            finally:
                for client in clients:
                    await client.close()

    asyncio.run(game())
