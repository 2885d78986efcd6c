"""Undo at a table on a server with one person (issue 41): the same rule as a game on this machine
(``PlayerView.undo_point``), the computers' moves after it taken back too, the game counted apart,
the state numbers going on past the moves taken back (after a restart too), a computer's answer to a
position taken back dropped; refused where other people play."""

from __future__ import annotations

import asyncio

import pytest

from net_support import new_table, next_state, running
from stepping_stones.engine import Phase, cards_of, parse_bid
from stepping_stones.flow.game_flow import NOTHING_TO_UNDO, UNDO_OFF
from stepping_stones.net.client import SeatClient, open_table
from stepping_stones.net.journal import TableFile
from stepping_stones.net.protocol import StateMessage
from stepping_stones.net.table import Table, TableError
from stepping_stones.net.thinking import Thinkers
from stepping_stones.net.wire import legal_actions


def _to_person_card(table: Table) -> None:
    """Play the computers' moves (seats 1, 2) and the person's bids until the person is to play a card."""
    game = table.game
    assert game is not None
    while not (game.phase is Phase.PLAY and game.to_act == 0):
        request = table.computer_request()
        if request is not None:
            assert table.answer(request, request.answer())
        else:
            table.act(0, table.seq, parse_bid(legal_actions(game.view(0))[-1]))


def test_the_one_person_takes_back_their_card_and_the_computers_after_it():
    table = Table.new(new_table(("open", "random", "random")), seed="undo-1")
    table.claim("Ann")
    _to_person_card(table)
    game = table.game
    assert game is not None
    held = game.view(0).own_cards
    card = next(cards_of(game.view(0).legal_cards))
    table.act(0, table.seq, card)
    asked = table.computer_request()
    assert asked is not None
    assert table.answer(asked, asked.answer())  # the next seat answers: its card is taken back too
    before = table.seq
    plays = len(game.hand.plays)
    table.undo(0, before)
    assert len(game.hand.plays) == plays - 2 and game.to_act == 0 and game.view(0).own_cards == held
    assert table.seq > before  # the numbers only go up: an old action is stale
    with pytest.raises(TableError) as stale:
        table.act(0, before, card)
    assert stale.value.code == "stale"
    assert table.seats[0].assisted and table.resave  # counted apart; the next keep is a snapshot
    kind, text = table.keep()
    assert kind == "save"
    again = Table.from_file(TableFile.model_validate_json(text))
    assert again.seq == table.seq and again.game is not None and again.game.view(0) == game.view(0)
    assert again.seats[0].assisted


def test_a_computer_s_answer_to_a_position_taken_back_is_dropped():
    for seed in range(20):  # a deal where the person has two cards to choose from
        table = Table.new(new_table(("open", "random", "random")), seed=f"undo-2-{seed}")
        table.claim("Ann")
        _to_person_card(table)
        game = table.game
        assert game is not None
        cards = list(cards_of(game.view(0).legal_cards))
        if len(cards) >= 2:
            break
    table.act(0, table.seq, cards[0])
    asked = table.computer_request()  # asked, then the person takes the card back and plays another
    assert asked is not None
    table.undo(0, table.seq)
    table.act(0, table.seq, cards[1])
    assert not table.answer(asked, asked.answer())  # decided on a position that is no more
    again = table.computer_request()
    assert again is not None and table.answer(again, again.answer())


def test_undo_is_refused_where_it_cannot_be():
    table = Table.new(new_table(("open", "random", "random")), seed="undo-3")
    table.claim("Ann")
    _to_person_card(table)
    game = table.game
    assert game is not None
    while game.view(0).undo_point() is not None:  # until a later trick has begun since their card
        table.act(0, table.seq, next(cards_of(game.view(0).legal_cards)))
        _to_person_card(table)
    with pytest.raises(TableError, match="Nothing to take back") as nothing:
        table.undo(0, table.seq)
    assert str(nothing.value) == NOTHING_TO_UNDO
    two = Table.new(new_table(("open", "open", "random")), seed="undo-4")
    two.claim("Ann")
    two.claim("Bo")
    with pytest.raises(TableError) as others:
        two.undo(0, two.seq)
    assert str(others.value) == UNDO_OFF


class _Gated(Thinkers):
    """The computers decide in this process, once the gate is open: a test holds them while the
    person takes a card back, as a slow computer would be."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()

    async def decision(self, request, level, owner, key, alive):  # type: ignore[no-untyped-def]
        await self.gate.wait()
        return request.answer()


def test_a_client_takes_back_a_card_through_the_server(tmp_path):
    async def scenario() -> tuple[StateMessage, StateMessage, bool]:
        async with running(tmp_path) as (server, url):
            gated = _Gated()
            server.tables.thinkers = gated
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with SeatClient(url, code=opened.code, name="Ann") as ann:
                await ann.join()
                while True:
                    state = await next_state(ann, lambda s: bool(s.legal))
                    assert state.view is not None
                    if state.view.phase is Phase.PLAY:
                        break
                    await ann.act(state.legal[-1], state.seq)
                gated.gate.clear()  # the computers hold their cards while the person thinks again
                held = state.view.own_cards
                await ann.act(state.legal[0], state.seq)
                played = await next_state(ann, lambda s: s.view is not None and s.view.own_cards != held)
                await ann.act("undo", played.seq)
                back = await next_state(ann, lambda s: s.view is not None and s.view.own_cards == held)
                gated.gate.set()
                (table,) = server.tables.tables.values()
                return state, back, table.seats[0].assisted

    before, back, assisted = asyncio.run(scenario())
    assert back.view is not None and before.view is not None and assisted
    assert back.seq > before.seq and back.view.to_act == 0
    assert back.legal == before.legal
