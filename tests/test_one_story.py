"""One story on every front end: a page's seat (the server runs its flow and sends what it is
shown) and a terminal seat (the flow the app and plain mode draw) at one table, with the server's
clock moved by hand.  Each says the same facts: whose turn it is and the seconds left, a computer
taking a person's seat and the person taking it back (never "lost the connection"), and a summary
open while the next turn comes (the clock waits for it)."""

from __future__ import annotations

import asyncio
import json

from net_support import WAIT, Clock, Raw, new_table, running
from stepping_stones.flow.presenter import present
from stepping_stones.net.client import SeatClient, open_table
from stepping_stones.net.protocol import StateMessage
from stepping_stones.net.remote import RemoteFlow
from stepping_stones.net.table import Table


async def _shown(raw: Raw, holds) -> dict:
    """The page's next presentation for which ``holds`` (the others are passed over)."""
    async with asyncio.timeout(WAIT):
        while True:
            text = await raw.text()
            assert text is not None, "the server closed the page's connection"
            message = json.loads(text)
            if message["type"] == "shown" and message["shown"] is not None and holds(message["shown"]):
                return message["shown"]


async def _state(client: SeatClient, flow: RemoteFlow, holds) -> None:
    """Feed the terminal seat's flow until its state ``holds``."""
    async with asyncio.timeout(WAIT):
        while not holds(flow.state if flow.started else None):
            message = await client.receive()
            if isinstance(message, StateMessage):
                flow.receive(message)


def test_the_page_and_a_terminal_seat_tell_the_same_clock_and_stand_in(tmp_path):
    clock = Clock()

    async def scenario() -> None:
        async with running(tmp_path / "server", clock=clock, timeout=120.0) as (server, url):
            opened = await open_table(url, new_table(("open", "open", "random")))
            async with Raw.to(url) as page, SeatClient(url, code=opened.code, name="Bo") as bo:
                await page.send({"type": "hello", "version": 4, "code": opened.code, "name": "Ann", "page": True})
                welcome = json.loads(await page.text() or "{}")
                assert welcome["type"] == "welcome" and welcome["seat"] == 0
                lobby = json.loads(await page.text() or "{}")
                assert lobby["type"] == "shown" and lobby["shown"] is None and lobby["page"]["lobby"]["seats"]
                flow = RemoteFlow(await bo.join(), lambda _m, _s: None, file_games=False, clock=clock)
                # the table starts (every seat taken); Bo plays his turns until it is Ann's
                async with asyncio.timeout(WAIT):
                    while True:
                        message = await bo.receive()
                        if not isinstance(message, StateMessage):
                            continue
                        flow.receive(message)
                        if message.legal:
                            await bo.act(message.legal[0], message.seq)
                        elif message.waiting is not None and message.waiting.seat == 0:
                            break
                shown = await _shown(page, lambda s: s["my_turn"])
                assert shown["status"] == "Your turn: 120 s left."
                assert present(flow.state).status == "Waiting for Ann: 120 s left."
                assert [s["seconds"] for s in shown["seats"]] == [120, None, None]
                # 121 s pass: a computer takes Ann's seat; both say so
                clock.now += 121.0
                await server.tables.sweep()
                shown = await _shown(page, lambda s: s["stand_in"] is not None)
                assert shown["stand_in"] == 'A computer plays for you: tap "Take my seat back" to come back.'
                assert shown["status"] == shown["stand_in"]
                await _state(bo, flow, lambda st: any("A computer plays for Ann" in e.text for e in st.log))
                # Ann takes it back: the page's own word; Bo is told she plays again, not that she left
                await page.send({"type": "do", "what": "back"})
                shown = await _shown(page, lambda s: s["stand_in"] is None)
                await _state(bo, flow, lambda st: any("Ann plays their own seat again" in e.text for e in st.log))
                told = [e.text for e in flow.state.log]
                assert not any("lost the connection" in t for t in told)

    asyncio.run(scenario())


def test_a_summary_open_holds_the_clock_until_it_is_closed():
    now = [0.0]
    table = Table.new(new_table(("open", "open", "open")), clock=lambda: now[0], timeout=100.0)
    for name in ("Ann", "Bo", "Cy"):
        table.claim(name)
    game = table.game
    assert game is not None
    # play hand 1 to its end with the engine's first legal move each time
    while len(game.log) < 2:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = view.legal_bids[0] if view.legal_bids else min(c for c in range(36) if view.legal_cards >> c & 1)
        table.act(seat, table.seq, action)
    seat = game.to_act
    assert seat is not None
    now[0] += 150.0  # past one timeout: the person is still reading hand 1's summary
    assert table.reading(seat) and table.overdue() is None
    assert table.waiting() is not None and table.waiting().reading  # type: ignore[union-attr]
    table.seen(seat, 1)  # closed: the clock starts now, with a whole timeout
    assert not table.reading(seat) and table.waiting().seconds == 100.0  # type: ignore[union-attr]
    now[0] += 100.0
    assert table.overdue() == seat


def test_the_clock_after_a_restart_is_the_servers_not_the_clients(tmp_path):
    """A client that comes back counts from the seconds the server says are left, not from a
    fresh timeout of its own (the app said "110 s left" 33 s before the stand-in)."""
    now = [500.0]
    table = Table.new(new_table(("open", "random", "random")), clock=lambda: now[0], timeout=120.0)
    table.claim("Ann")
    while table.game is not None and table.game.to_act != 0:
        request = table.computer_request()
        assert request is not None
        table.answer(request, request.answer())
    now[0] += 87.0
    waiting = table.state_for(0).waiting
    assert waiting is not None and waiting.seconds == 33.0
    flow = RemoteFlow(table.welcome(0, None), lambda _m, _s: None, file_games=False, clock=lambda: 9.0)
    flow.receive(table.state_for(0))  # a client that has just come back, its own clock elsewhere
    assert present(flow.state).status == "Your turn: 33 s left."


def test_a_page_that_comes_back_goes_on_with_its_events_numbered_as_before(tmp_path):
    """A reload or a dropped connection: the page's seat keeps its flow on the server, so the
    events go on from the numbers the page has, and the hand is not told again from the start."""

    async def scenario() -> None:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with Raw.to(url) as page:
                await page.send({"type": "hello", "version": 4, "code": opened.code, "name": "Ann", "page": True})
                welcome = json.loads(await page.text() or "{}")
                first = await _shown(page, lambda s: s["my_turn"])
                while not (first["title"].startswith("Hand 2") and first["my_turn"] and first["summary_hand"] is None):
                    # Ann plays hand 1 through, closes its summary, and is asked in hand 2
                    if first["summary_hand"] is not None:
                        await page.send({"type": "do", "what": "seen"})
                    elif first["bids"]:
                        await page.send({"type": "do", "what": "bid", "bid": first["bids"][0]["bid"]})
                    else:
                        card = next(c["card"] for c in first["hand"] if c["legal"])
                        await page.send({"type": "do", "what": "play", "card": card})
                    first = await _shown(page, lambda s: s["my_turn"] or s["summary_hand"] is not None)
            told = max(n for n, _ in first["events"])
            async with Raw.to(url) as page:
                await page.send({"type": "hello", "version": 4, "secret": welcome["secret"], "page": True})
                assert json.loads(await page.text() or "{}")["type"] == "welcome"
                again = await _shown(page, lambda s: True)
            assert again["events"] == first["events"]  # the same numbers: nothing told twice or lost
            assert max(n for n, _ in again["events"]) == told and again["my_turn"]

    asyncio.run(scenario())


def test_a_page_that_sends_no_card_or_bid_at_all_is_told_so_in_one_line(tmp_path):
    """A ``do play`` of what is no card got no answer at all (the flow's refusal was the state it
    already had); now one error line, and nothing changes."""

    async def scenario() -> None:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with Raw.to(url) as page:
                await page.send({"type": "hello", "version": 4, "code": opened.code, "name": "Ann", "page": True})
                await _shown(page, lambda s: s["my_turn"])
                for probe in ({"what": "play", "card": "ZZZ"}, {"what": "bid", "bid": "win-everything 9"}):
                    await page.send({"type": "do", **probe})
                    reply = json.loads(await page.text() or "{}")
                    while reply.get("type") == "shown":  # what the page was shown meanwhile (the table plays on)
                        reply = json.loads(await page.text() or "{}")
                    assert reply["type"] == "error" and reply["code"] == "illegal", reply
                    assert "\\n" not in reply["message"] and "Traceback" not in reply["message"]

    asyncio.run(scenario())


def test_the_contract_and_its_progress_are_the_presenters_in_the_app_and_on_the_page():
    """The declarer's count so far and what the others made of the contract are worded once, by
    the presenter: the app's target panel draws those words (the page draws them too: ``#progress``)."""
    from random import Random

    from stepping_stones.engine import Game, Phase, Rules
    from stepping_stones.flow import TableState
    from stepping_stones.tui.drawing import Scene, target_text
    from stepping_stones.tui.render import Look

    game = Game(Rules("standard", short_game=True), first_forehand=0)
    game.deal_hand(Random(3))
    bidding = present(TableState.of(game.view(0)))
    assert bidding.progress.endswith("the forehand card"), bidding
    while game.phase is not Phase.PLAY or len(game.hand.plays) < 6:  # two tricks into the first hand
        view = game.view(game.to_act)
        if view.legal_bids:
            game.bid(view.legal_bids[-1])  # the last of the list: a declaration
        else:
            game.play(min(c for c in range(36) if view.legal_cards >> c & 1))
    for seat in range(3):
        shown = present(TableState.of(game.view(seat)))
        assert " so far" in shown.progress and "not yet played by" in shown.progress, shown.progress
        drawn = target_text(Scene(TableState.of(game.view(seat)), Look(True))).plain
        assert drawn == f"{shown.contract} - {shown.progress}", drawn


def test_the_last_trick_is_told_once_in_the_app_s_window_and_by_plain_mode_s_trick_command():
    """The app's "last trick" window and plain mode's ``trick`` command say the presenter's one
    sentence: the cards, who won and why (the app once said "Kenji led; you lead next." where
    plain mode gave the reason)."""
    from random import Random
    from types import SimpleNamespace

    from stepping_stones.engine import Game, Phase, Rules
    from stepping_stones.flow import TableState
    from stepping_stones.flow.presenter import NO_TRICK_YET, last_trick
    from stepping_stones.plain.plain_mode import PlainTable
    from stepping_stones.tui.dialogs import LastTrickScreen
    from stepping_stones.tui.render import Look

    def told(view):
        app = LastTrickScreen(view, Look(True))._text().plain
        plain = PlainTable.last_trick(SimpleNamespace(flow=SimpleNamespace(state=TableState.of(view))))
        return app, plain

    game = Game(Rules("standard", short_game=True), ["Ann", "Kenji", "Hana"], first_forehand=0)
    game.deal_hand(Random(5))
    app, plain = told(game.view(0))
    assert app == plain == NO_TRICK_YET
    while game.phase is not Phase.PLAY or len(game.hand.plays) < 4:  # a trick and a card
        view = game.view(game.to_act)
        if view.legal_bids:
            game.bid(view.legal_bids[-1])
        else:
            game.play(min(c for c in range(36) if view.legal_cards >> c & 1))
    for seat in range(3):
        last = last_trick(game.view(seat))
        assert last is not None and last.text.startswith("Trick 1 of hand 1: "), last
        assert " wins it (" in last.text or " win it (" in last.text, last.text
        app, plain = told(game.view(seat))
        assert plain == last.text
        assert app.rstrip().endswith(last.text), app


def test_in_the_puddle_the_prompt_does_not_say_again_what_the_event_just_said():
    """Plain mode reads the event and then the prompt, one after the other: in the puddle they
    were the same sentence twice ("All three passed: you are in the puddle and must declare")."""
    from random import Random

    from stepping_stones.engine import Game, Pass, Phase, Rules
    from stepping_stones.explain import Teller
    from stepping_stones.flow.presenter import turn_prompt

    game = Game(Rules("standard"), ["Ann", "Kenji", "Hana"], first_forehand=1)
    game.deal_hand(Random(3))
    for _ in range(3):
        game.bid(Pass())
    assert game.phase is Phase.BIDDING and game.in_puddle and game.to_act == 1
    view = game.view(1)
    event = Teller(view.players, view.seat).puddle(view.seat)
    prompt = turn_prompt(view)
    assert event.startswith("All three passed") and "open contracts" in prompt, (event, prompt)
    assert event.rstrip(".") not in prompt and "All three passed" not in prompt, (event, prompt)


def test_while_a_summary_is_open_the_seats_say_the_roles_of_its_hand_not_of_the_next():
    """At a table on a server the next hand is dealt behind a hand's summary.  While the summary is
    open the table shows the finished hand's last trick and tricks: its seats said "declarer" of
    the next hand's declarer beside the finished hand's tricks (seen on the page as a new user)."""
    from random import Random

    from stepping_stones.engine import Game, Phase, Rules
    from stepping_stones.flow import TableState

    game = Game(Rules("standard", short_game=True), ["Ann", "Kenji", "Hana"], first_forehand=0)
    game.deal_hand(Random(7))
    while len(game.log) < 2 or game.phase is not Phase.PLAY:  # hand 1 played, hand 2 declared
        view = game.view(game.to_act) if game.to_act is not None else None
        if view is None:  # between the hands: the next is dealt
            game.deal_hand(Random(8))
        elif view.legal_bids:
            game.bid(view.legal_bids[-1])
        else:
            game.play(min(c for c in range(36) if view.legal_cards >> c & 1))
    view = game.view(0)
    first, second = view.history[0], view.shown_hand()
    assert second is not None and second.number == 2 and first.declarer is not None
    open_ = present(TableState.of(view, summary=1))
    roles = {line.seat: line.tags for line in open_.seats}
    assert [s for s in roles if "declarer" in roles[s]] == [first.declarer], roles
    assert [s for s in roles if "forehand" in roles[s]] == [first.forehand], roles
    assert [line.tricks for line in open_.seats] == [first.tricks_won(s) for s in range(3)]
    closed = present(TableState.of(view))
    roles = {line.seat: line.tags for line in closed.seats}
    assert [s for s in roles if "declarer" in roles[s]] == [view.declarer], roles
    assert [s for s in roles if "forehand" in roles[s]] == [view.forehand], roles


def test_the_line_over_the_table_says_whether_it_is_a_refusal():
    """The page drew a hint in the refusals' red: the presenter says which the line is, as the app
    draws it (a refusal in bold red, a hint or its note in bold)."""
    from dataclasses import replace
    from random import Random

    from rich.console import Console

    from stepping_stones.engine import Game, Rules
    from stepping_stones.flow import TableState
    from stepping_stones.tui.drawing import Scene, log_text
    from stepping_stones.tui.render import Look

    game = Game(Rules("standard", short_game=True), first_forehand=0)
    game.deal_hand(Random(3))
    state = TableState.of(game.view(game.to_act))
    refused = replace(state, refusal="That bid is not open to you.")
    noted = replace(state, hint_note="No hint this turn.")
    assert present(refused).message == "That bid is not open to you." and present(refused).refused
    assert present(noted).message == "No hint this turn." and not present(noted).refused
    for shown, style in ((refused, "bold red"), (noted, "bold")):
        drawn = log_text(Scene(shown, Look(True)), 60, 6, Console(width=60))
        assert drawn.spans[0].style == style, drawn.spans


def test_each_bid_comes_whole_and_in_the_parts_the_page_lays_out():
    """The page lays the bids out under their contracts, a row a ranking and a button a trump;
    the parts are the presenter's, and together they say the whole bid (redo tokens too)."""
    from random import Random

    from stepping_stones.engine import Game, Phase, Rules
    from stepping_stones.flow import TableState
    from stepping_stones.flow.presenter import BidLine

    REDO = " again, with your redo token"

    def kinds(lines: list[BidLine]) -> set[tuple[bool, bool]]:
        return {(b.group.endswith(REDO), b.suit is not None) for b in lines if b.contract is not None}

    lines: list[BidLine] = []
    for seed in range(30):  # random games until a redo of a contract with a trump and of one without were open
        game = Game(Rules("standard", redo_tokens=True), first_forehand=0)
        rng = Random(seed)
        while not game.over and len(kinds(lines)) < 4:
            if game.phase is Phase.DEAL:
                game.deal_hand(rng)
                continue
            view = game.view(game.to_act)
            if view.legal_bids:
                if game.to_act == 0:  # the person's turn (``TableState.of`` is seat 0's)
                    bids = present(TableState.of(view)).bids
                    assert [b.bid for b in bids] == [str(b) for b in view.legal_bids]
                    lines.extend(bids)
                game.bid(rng.choice(view.legal_bids))
            else:
                game.play(rng.choice([c for c in range(36) if view.legal_cards >> c & 1]))
    assert kinds(lines) == {(False, False), (False, True), (True, False), (True, True)}
    for line in lines:
        if line.contract is None:
            assert (line.text, line.group, line.row, line.short, line.suit) == ("Pass", "Pass", "", "Pass", None)
            continue
        redo = line.group.endswith(REDO)
        words = f"{line.group.removesuffix(REDO)}, {line.row}"
        if line.suit is not None:
            assert line.bid.split()[2] == line.suit
            words += f", {line.short} trump"
        else:
            assert line.short == line.row
        assert line.text == words + (" (redo)" if redo else ""), line
