"""Deltas: applied to the state before, a delta gives exactly the whole state the server
would send (over random games, every seat, every change); a client that misses one asks for the
whole state again and plays on; a delta that is no delta of a state is refused in one line."""

from __future__ import annotations

import asyncio
import json
from random import Random

import aiohttp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net_support import WAIT, Raw, new_table, next_state, running, three_bots
from stepping_stones.engine import Phase, parse_bid, parse_card
from stepping_stones.net.client import Glance, SeatClient, open_table, play_glances, play_randomly
from stepping_stones.net.protocol import (
    ClaimFact,
    Delta,
    ProtocolError,
    SeatFacts,
    StateMessage,
    Waiting,
    delta_text,
    parse_server,
    state_text,
)
from stepping_stones.net.table import Table
from stepping_stones.net.wire import legal_actions


def _step(table: Table, rng: Random, stand_in_at: int, steps: int) -> None:
    """One change of the table: a person's move, a computer's, or a computer standing in."""
    game = table.game
    assert game is not None and game.to_act is not None
    if steps == stand_in_at and table.seats[game.to_act].kind == "human":
        table.stand_in(game.to_act)
        return
    request = table.computer_request()
    if request is not None:
        table.answer(request, request.answer())
        return
    move = rng.choice(legal_actions(game.view(game.to_act)))
    table.act(game.to_act, table.seq, parse_bid(move) if game.phase is Phase.BIDDING else parse_card(move))


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), computer=st.booleans(), stand_in_at=st.integers(0, 80))
def test_a_delta_applied_to_the_state_before_gives_exactly_the_whole_state(seed, computer, stand_in_at):
    rng = Random(seed)
    table = Table.new(new_table(("open", "random" if computer else "open", "open")), seed=str(seed))
    held: list[StateMessage | None] = [None, None, None]  # what each seat's client holds
    last: list[dict | None] = [None, None, None]  # what the server sent each seat last
    deltas = 0

    def check() -> None:
        nonlocal deltas
        for seat, state in enumerate(table.states([0, 1, 2])):
            sent = last[seat]
            if sent is not None:
                text = delta_text(2, sent, state)
                delta = parse_server(text)
                assert isinstance(delta, Delta)
                assert delta.model_dump_json() == text  # msgspec writes what pydantic would
                made = delta.applied(held[seat])
                assert made == parse_server(state_text(state, 2))
                assert made.dump() == state_text(state, 2)
                deltas += 1
            whole = parse_server(state_text(state, 1))
            assert isinstance(whole, StateMessage) and whole.view == state["view"]
            held[seat] = whole
            last[seat] = state

    check()
    for name in ("Ann",) if computer else ("Ann", "Bo", "Cy"):
        table.claim(name)
        check()
    if computer:  # the opener starts early: computers take the seats still open
        table.start(0)
        check()
    steps = 0
    while not table.over:
        _step(table, rng, stand_in_at, steps)
        steps += 1
        check()
    assert deltas > 3 * 100


def test_a_client_that_misses_a_delta_asks_for_the_whole_state_and_plays_on(tmp_path):
    async def game() -> tuple[list[StateMessage], int, StateMessage]:
        async with running(tmp_path) as (server, url):
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with SeatClient(url, code=opened.code, name="Ann") as client:
                await client.join()
                first = await next_state(client, lambda s: bool(s.legal))
                ws = client._ws
                assert ws is not None
                receive = ws.receive
                dropped: list[str] = []

                def another_follows(data: str) -> bool:
                    """A delta after which the table waits for a computer: another delta comes."""
                    value = json.loads(data)
                    waiting = value.get("state", {}).get("waiting") if value["type"] == "delta" else None
                    return waiting is not None and waiting["seat"] != 0

                async def lossy(timeout: float | None = None) -> aiohttp.WSMessage:
                    message = await receive(timeout)
                    if not dropped and message.type == aiohttp.WSMsgType.TEXT and another_follows(message.data):
                        dropped.append(message.data)  # lost: as if the client had missed it
                        message = await receive(timeout)
                    return message

                ws.receive = lossy  # type: ignore[method-assign]
                (table,) = server.tables.tables.values()  # a finished table leaves the server's memory
                await client.act(first.legal[0], first.seq)
                seen: list[StateMessage] = []
                async with asyncio.timeout(WAIT):
                    await play_randomly(client, Random(1), on_state=seen.append)
                assert dropped
                return seen, client.resyncs, table.state_for(0)

    seen, resyncs, final = asyncio.run(game())
    assert resyncs == 1
    assert seen[-1].model_dump(exclude={"n"}) == final.model_dump(exclude={"n"})
    numbers = [s.n for s in seen]
    assert all(n is not None for n in numbers) and numbers == sorted(numbers)


def test_the_load_test_s_bots_glance_at_states_and_still_play_whole_games(tmp_path):
    async def game() -> list[Glance]:
        async with running(tmp_path) as (_server, url):
            opened = await open_table(url, new_table())
            return await three_bots(url, opened.code, play_glances, checked=False)

    finals = asyncio.run(game())
    assert all(g.over and g.phase == "over" and g.legal == [] for g in finals)
    assert len({g.seq for g in finals}) == 1 and finals[0].seq > 100


@pytest.mark.parametrize(
    "delta,says",
    [
        ({"type": "delta", "n": 2, "state": {"secret": "x"}, "view": None}, "state.secret: is not a field"),
        ({"type": "delta", "n": 2, "state": {}, "view": {"hidden_cards": "K9"}}, "view.hidden_cards: is not a field"),
        ({"type": "delta", "n": 2, "state": {"view": None}, "view": {"seat": 1}}, "not both"),
        ({"type": "delta", "n": 1, "state": {}, "view": None}, "greater than or equal to 2"),
        ({"type": "delta", "n": 2, "state": {}}, "view: is missing"),
        ({"type": "delta", "n": 2, "state": {f"k{i}": 0 for i in range(40)}, "view": None}, "is not a field"),
    ],
)
def test_a_delta_that_is_not_one_is_refused_in_one_line(delta, says):
    with pytest.raises(ProtocolError) as caught:
        parse_server(json.dumps(delta))
    line = str(caught.value)
    assert says in line and "\n" not in line and len(line) <= 300


def test_a_delta_that_does_not_make_a_state_is_refused_in_one_line():
    for delta, says in (
        ({"type": "delta", "n": 2, "state": {"seq": "3"}, "view": None}, "seq"),
        ({"type": "delta", "n": 2, "state": {"view": None, "legal": ["K9"] * 100}, "view": None}, "legal"),
        ({"type": "delta", "n": 2, "state": {}, "view": {"own_cards": "Z9 Q4"}}, "own_cards"),
        ({"type": "delta", "n": 2, "state": {}, "view": {"plays": ["K9", "K10"]}}, "plays"),
        ({"type": "delta", "n": 2, "state": {}, "view": {"to_act": 3}}, "to_act"),
        ({"type": "delta", "n": 2, "state": {}, "view": {"bids": ["win-no-trump 7"]}}, "bids"),
    ):
        with pytest.raises(ProtocolError) as caught:
            parse_server(json.dumps(delta))
        line = str(caught.value)
        assert says in line and "\n" not in line and len(line) <= 300, line
    no_view = parse_server(state_text(Table.new(new_table()).states([0])[0], 1))
    assert isinstance(no_view, StateMessage)
    with pytest.raises(ProtocolError, match="a view that the state does not have"):
        Delta(type="delta", n=2, state={}, view={"seat": 0}).applied(no_view)


def test_hostile_resyncs_change_nothing_and_are_held_to_the_rate(tmp_path):
    async def probe() -> None:
        async with running(tmp_path) as (_server, url):
            opened = await open_table(url, new_table())  # not started while seats are open: quiet
            async with Raw.to(url) as raw:  # before a hello: no seat to resync
                await raw.send({"type": "resync"})
                assert (await raw.reply()).code == "no-seat"
            async with Raw.to(url) as raw:
                await raw.send({"type": "hello", "version": 4, "code": opened.code, "name": "Eve"})
                assert (await raw.reply()).type == "welcome"
                first = await raw.reply()
                assert isinstance(first, StateMessage) and first.n == 1
                for bad in (
                    {"type": "resync", "n": 1},
                    {"type": "resync", "ack": 7},
                    {"type": "resync", "pad": "x" * 5000},
                    {"type": "ack", "n": 1},
                    '{"type":"resync"',
                ):
                    await raw.send(bad)
                    reply = await raw.reply()
                    assert reply.type == "error" and reply.code == "bad-message", reply
                await raw.send({"type": "resync"})  # good: the whole state again, numbered on
                again = await raw.reply()
                assert isinstance(again, StateMessage) and again.n == 2
                assert again.model_dump(exclude={"n"}) == first.model_dump(exclude={"n"})
                async with Raw.to(url) as other:  # a change: the delta after it follows the resent state
                    await other.send({"type": "hello", "version": 4, "code": opened.code, "name": "Bo"})
                    delta = await raw.reply()
                    assert isinstance(delta, Delta) and delta.n == 3 and set(delta.state) == {"seats", "help"}
                    # a flood of resyncs: held to the allowance like any message, and the table plays on
                    for _ in range(60):
                        await raw.send({"type": "resync"})
                    replies: list[str] = []
                    async with asyncio.timeout(WAIT):
                        while "too-fast" not in replies:
                            reply = await raw.reply()
                            replies.append(reply.type if reply.type != "error" else reply.code)
                    assert set(replies) == {"state", "too-fast"} and replies.count("state") < 40
                    await other.send({"type": "ping", "nonce": 5})
                    async with asyncio.timeout(WAIT):
                        while (await other.reply()).type != "pong":
                            pass

    asyncio.run(probe())


def test_the_clock_of_a_state_is_the_object_pydantic_would_make_of_it():
    """``Table.waiting`` makes its ``Waiting`` without ``model_construct``: the same object in every
    respect (fields in order, all set, no extra or private), of valid values, at every change."""
    rng = Random(11)
    table = Table.new(new_table(("open", "random", "open")), seed="clock")
    for name in ("Ann", "Bo"):
        table.claim(name)
    made = 0
    steps = 0
    while not table.over:
        waiting = table.waiting()
        if waiting is not None:
            like = Waiting.model_construct(**waiting.__dict__)
            assert list(waiting.__dict__) == list(Waiting.model_fields) == list(like.__dict__)
            assert waiting.__dict__ == like.__dict__ and waiting == like
            assert waiting.model_fields_set == like.model_fields_set == set(Waiting.model_fields)
            assert waiting.__pydantic_extra__ is None and waiting.__pydantic_private__ is None
            assert waiting.model_dump_json() == like.model_dump_json()
            assert Waiting.model_validate(waiting.model_dump(), strict=True) == waiting
            made += 1
        _step(table, rng, 10**6, steps)
        steps += 1
    assert made > 100


def test_the_hands_play_is_joined_once_a_change_for_every_seats_delta(monkeypatch):
    """Each seat's delta carries the hand's play, the same tuple for all three (``Game.views``):
    its text is joined once a change, and each delta says it all the same."""
    from stepping_stones.net import wire

    joined: list[tuple[int, ...]] = []
    record_cards = wire.record_cards

    def counted(cards: tuple[int, ...]) -> str:
        joined.append(cards)
        return record_cards(cards)

    monkeypatch.setattr(wire, "record_cards", counted)
    rng = Random(7)
    table = Table.new(new_table(("open", "open", "open")), seed="7")
    for name in ("Ann", "Bo", "Cy"):
        table.claim(name)
    while table.game is None or table.game.phase is not Phase.PLAY:
        _step(table, rng, -1, 0)
    before = table.states([0, 1, 2])
    _step(table, rng, -1, 0)  # the first card of the hand
    after = table.states([0, 1, 2])
    joined.clear()
    texts = [delta_text(2, old, new) for old, new in zip(before, after, strict=True)]
    assert len(joined) == 1
    for text, new in zip(texts, after, strict=True):
        assert json.loads(text)["view"]["plays"] == record_cards(new["view"].plays)


def test_a_state_with_claims_stand_ins_and_ratings_is_written_as_pydantic_writes_it():
    """msgspec writes a state from the plain values of its models' fields (``wire.writer``): the
    fields that the games above leave empty (claims, the hands a computer stood in, ratings, the
    watchers) come out as pydantic writes them too, whole and in a delta."""
    rng = Random(5)
    table = Table.new(new_table(("open", "open", "open")), seed="5")
    for name in ("Ann", "Bo", "Cy"):
        table.claim(name)
    for _ in range(12):
        _step(table, rng, -1, 0)
    before = table.states([0, 1, 2])[1]
    facts = [
        SeatFacts(name="Ann", kind="human", level="expert", connected=False, stand_in=True, stood_in=[1, 2], rating=-7),
        *before["seats"][1:],
    ]
    state = {
        **before,
        "seats": facts,
        "claims": [ClaimFact(hand=1, seat=2, tricks=3, play=4), ClaimFact(hand=2, seat=0, tricks=0, play=0)],
        "watchers": 3,
    }
    assert state_text(state, 4) == StateMessage.model_construct(**state, n=4).dump()
    text = delta_text(5, before, state)
    assert json.loads(text)["state"] == {
        "seats": [f.model_dump(mode="json") for f in facts],
        "claims": [{"hand": 1, "seat": 2, "tricks": 3, "play": 4}, {"hand": 2, "seat": 0, "tricks": 0, "play": 0}],
        "watchers": 3,
    }
    assert parse_server(text).model_dump_json() == text
