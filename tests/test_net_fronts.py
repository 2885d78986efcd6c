"""The real front ends at a table: plain mode's opener starts the table early from its lobby, and
plain mode (with the app's table under Pilot) loses the server to ``kill -9`` mid-hand, says so,
comes back by itself when the server is started again on its folder and port, and plays on."""

from __future__ import annotations

import asyncio
import re
from random import Random

from fronts_support import Host, Plain, three_fronts, within
from net_support import WAIT, new_table, running
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.net.protocol import StateMessage

CARD_LINE = re.compile(r"(Trick \d+\. )?You (lead|play) \w+\.")


def test_the_opener_starts_the_table_early_from_plain_mode_s_lobby(tmp_path):
    async def main() -> tuple[Plain, int, str]:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table(level="random"))
            quit_at_first_turn = iter([None, None, "nonsense", "start"])
            plain = await Plain.start(
                url, opened.code, tmp_path / "home", "Ann", lambda _actions: next(quit_at_first_turn, "quit")
            )
            first_prompt = plain.expect(lambda line: line == "legal: start")
            running_plain = asyncio.ensure_future(plain.run())
            await within(first_prompt)
            # another person sits down: the seats are said again, then the prompt again
            seats = plain.expect(lambda line: line.startswith("Seats: ") and "Bo (person)" in line)
            again = plain.expect(lambda line: line == "legal: start")
            async with SeatClient(url, code=opened.code, name="Bo") as bo:
                await bo.join()
                await within(seats)
                await within(again)
                await plain.type("help")  # answered, and the prompt comes again (then "nonsense", "start")
                started = plain.expect(lambda line: line.startswith("You play as Ann against"))
                bot = asyncio.ensure_future(play_randomly(bo, Random(1)))
                await within(started)
                status, err = await within(running_plain)  # type: ignore[misc]
                bot.cancel()
            return plain, status, err

    plain, status, err = asyncio.run(main())
    text = "\n".join(plain.lines)
    assert status == 0 and err == "", text + err
    assert plain.lines[0].startswith("You sit in seat 1 of table ")
    assert "or when you start it: type start to start it now" in plain.lines[1]
    assert "start starts the table now: computers take the seats still open." in plain.lines
    assert any(line.startswith("nonsense is not something") for line in plain.lines), text
    assert "Starting the table: computers take the seats still open." in plain.lines
    intro = next(line for line in plain.lines if line.startswith("You play as Ann against"))
    assert "Bo (person)" in intro and "(computer)" in intro  # the open seat went to a computer
    # every read was announced: a legal: line just before each thing typed (the lobby's news of
    # the seats may come between that line and the typing)
    assert all(
        any(line.startswith("legal: ") for line in plain.lines[max(0, n - 3) : n]) for n, _typed in plain.typed
    ), plain.typed
    assert plain.typed[-1][1] == "quit" and plain.lines[-1].startswith("You left the table.")


def test_plain_mode_loses_a_killed_server_and_comes_back_by_itself(tmp_path):
    host = Host(tmp_path / "server")
    url = host.start()

    async def main() -> tuple[Plain, int, str, list[str]]:
        opened = await open_table(url, new_table())
        rng = Random(7)
        plain = await Plain.start(
            url,
            opened.code,
            tmp_path / "home",
            "Ann",
            lambda actions: None if actions == ["start"] else rng.choice(actions),
        )
        played = plain.expect(_card)
        reading = asyncio.ensure_future(plain.run())
        notices: list[str] = []
        bots = [
            SeatClient(url, code=opened.code, name=f"Bot {i}", notice=notices.append, retry_seconds=WAIT)
            for i in range(2)
        ]
        try:
            # the plain client sat first (the opener: its lobby offers start, which it never takes)
            await within(plain.expect(lambda line: line == "legal: start"))
            for bot in bots:
                await bot.join()
            playing = [asyncio.ensure_future(play_randomly(b, Random(i))) for i, b in enumerate(bots)]
            await within(played)  # the person has played a card of the first hand
            lost = plain.expect(lambda line: "connection to the server was lost" in line)
            host.kill()
            await within(lost)
            back = plain.expect(lambda line: line.startswith("Back at the table"))
            host.start()  # the same folder and port: the table resumes from its journal
            await within(back)
            before = len(plain.lines)
            again = plain.expect(_card)
            await within(again)  # and the game goes on: the person plays another card
            after = plain.since(before)
            status, err = await within(asyncio.ensure_future(_finish(reading, playing)))  # type: ignore[misc]
        finally:
            for bot in bots:
                await bot.close()
        return plain, status, err, after

    try:
        plain, status, err, after = asyncio.run(main())
    finally:
        _out, server_err = host.stop()
    text = "\n".join(plain.lines)
    assert status == 0 and err == "", text + err
    assert any(_card(line) for line in after)
    assert plain.lines[-1].startswith("record: "), text
    assert "Traceback" not in server_err


def _card(line: str) -> bool:
    """The person's card, as plain mode tells it ("Trick 2. You lead K9." or "You play K9.")."""
    return CARD_LINE.fullmatch(line) is not None


async def _finish(
    reading: asyncio.Future[tuple[int, str]], playing: list[asyncio.Future[StateMessage]]
) -> tuple[int, str]:
    """The game played to its end (a short game): the plain client's status and stderr."""
    await asyncio.gather(*playing)
    return await reading


def test_back_at_the_table_the_seat_acts_again_on_an_action_lost_in_flight():
    """The server died with the person's bid in flight (not yet in its journal): when the client is
    back, the table's state has the same number as before, and the seat is asked again instead of
    waiting for ever for an answer to an action the server never had."""
    from stepping_stones.ai import make_ai
    from stepping_stones.engine import Rules, parse_bid
    from stepping_stones.flow import PersonTurn
    from stepping_stones.game.match import Match, Seeds
    from stepping_stones.net.protocol import SeatFacts, Welcome
    from stepping_stones.net.remote import RemoteFlow
    from stepping_stones.net.wire import legal_actions

    match = Match.new(
        Rules("standard", short_game=True),
        [make_ai("random")] * 3,
        Seeds("lost-in-flight"),
        players=("Ann", "Bo", "Cy"),
    )
    match.step()  # the deal
    seat = match.game.to_act
    assert seat is not None
    view = match.game.view(seat)
    seats = [SeatFacts(name=n, kind="human", level=None, connected=True, stand_in=False) for n in view.players]
    state = StateMessage.model_construct(
        seq=1, started=True, seats=seats, help=False, view=view, legal=legal_actions(view), waiting=None
    )
    sent: list[tuple[str, int]] = []
    flow = RemoteFlow(
        Welcome(
            table="t" * 16,
            code="AAAAA-AAAAA",
            seat=seat,
            name=view.players[seat],
            secret=None,
            opener=False,
            timeout=120.0,
        ),
        lambda move, seq: sent.append((move, seq)),
    )
    flow.receive(state)
    assert isinstance(flow.next_step(), PersonTurn)
    flow.bid(parse_bid("pass"))
    assert sent == [("pass", 1)] and not isinstance(flow.next_step(), PersonTurn)  # waiting for the server
    flow.notice("the connection to the server was lost; trying again")
    assert not isinstance(flow.next_step(), PersonTurn)
    flow.notice("back at the table")
    flow.receive(state)  # the same state again: the bid never reached the server
    assert isinstance(flow.next_step(), PersonTurn)
    flow.bid(parse_bid("pass"))
    assert sent == [("pass", 1), ("pass", 1)]


def test_the_app_and_plain_mode_lose_a_killed_server_come_back_and_play_on(tmp_path, monkeypatch):
    """Three front ends at one table over loopback: the app under Pilot, plain mode through pipes
    and a bot client.  The server is killed with ``kill -9`` in the first hand and started again;
    the app and plain mode each say they lost it and are back, and each plays a card after.  (The
    whole game, filed and replayed by each, is ``scripts/three_fronts_game.py``: some 55 s of CPU
    for the app's drawing alone, too much for the suite.)"""
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "app-home"))
    host = Host(tmp_path / "server")
    host.start()
    try:
        result = asyncio.run(three_fronts(tmp_path, host, kill_at="Trick 2.", whole=False))
    finally:
        _out, server_err = host.stop()
    plain, app = result.plain_lines, result.app_events
    assert result.status == 0 and result.err == "", "\n".join(plain) + result.err
    for told in (plain, app):
        lost = next(i for i, line in enumerate(told) if "connection to the server was lost" in line)
        back = next(i for i, line in enumerate(told) if line.startswith("Back at the table") and i > lost)
        assert any(CARD_LINE.fullmatch(line) for line in told[:lost]), told  # a card before the kill
        assert any(CARD_LINE.fullmatch(line) for line in told[back:]), told  # and one after it
    assert plain[-1].startswith("You left the table."), plain[-3:]
    assert "Traceback" not in server_err
