"""Claims at a table on a server: the server judges them on its own cards; one that holds plays the
hand out and is kept in the journal, one that does not is refused in words that tell nothing of the
unseen cards; bad, early, late and repeated claims are refused; the remote flow sends and tells them."""

from __future__ import annotations

import asyncio
import re

import pytest

from net_support import WAIT, Raw, new_table, next_state, running
from stepping_stones.ai import make_ai
from stepping_stones.ai.claims import ONE_A_TRICK, Claim, claim_text, counted_left, judge, tricks_left
from stepping_stones.engine import Phase, Rules
from stepping_stones.explain import Teller
from stepping_stones.game.match import Match, Seeds, Step
from stepping_stones.net.client import SeatClient, open_table
from stepping_stones.net.journal import read_table
from stepping_stones.net.protocol import (
    ClaimFact,
    ErrorMessage,
    ProtocolError,
    SeatFacts,
    StateMessage,
    Welcome,
    parse_client,
)
from stepping_stones.net.remote import RemoteFlow
from stepping_stones.net.table import Table
from stepping_stones.net.wire import legal_actions
from stepping_stones.storage.records import record_from_game

CARD = re.compile(r"\b[CKLB][1-9]\b")


async def _error(client: SeatClient) -> ErrorMessage:
    async with asyncio.timeout(WAIT):
        while True:
            message = await client.receive()
            if isinstance(message, ErrorMessage):
                return message


def test_the_claim_message_has_limits():
    assert parse_client('{"type":"claim","seq":3,"tricks":12}').tricks == 12
    for bad in (
        '{"type":"claim","seq":3,"tricks":13}',
        '{"type":"claim","seq":3,"tricks":-1}',
        '{"type":"claim","seq":3,"tricks":"3"}',
        '{"type":"claim","seq":3,"tricks":2.0}',
        '{"type":"claim","seq":3}',
        '{"type":"claim","seq":3,"tricks":1,"cards":"B9"}',
    ):
        with pytest.raises(ProtocolError):
            parse_client(bad)


def test_claims_at_a_table_on_a_server(tmp_path):
    async def game() -> None:
        async with running(tmp_path) as (server, url):
            # The server's own deal, fixed: one in which some claim of the mover's can be stopped
            # (in a random deal every claim may hold, and the refusal below would not be seen).
            server.tables.new_seed = lambda: "claims-at-a-table"
            opened = await open_table(url, new_table(("open", "open", "random")))
            table = server.tables.tables[opened.table]
            async with (
                SeatClient(url, code=opened.code, name="Ann") as ann,
                SeatClient(url, code=opened.code, name="Bo") as bo,
            ):
                await ann.join()
                await bo.join()
                people = {0: ann, 1: bo}

                async def turn_in_play(tricks: int) -> tuple[SeatClient, SeatClient, StateMessage]:
                    """Both play their first legal card until one of them is to play, ``tricks`` in."""
                    while True:
                        state = await next_state(ann, lambda s: s.waiting is not None)
                        game = table.game
                        assert game is not None and state.waiting is not None
                        seat = state.waiting.seat
                        if seat not in people or state.seq != table.seq:
                            continue
                        mover = people[seat]
                        seq = state.seq
                        mine = state if mover is ann else await next_state(bo, lambda s, seq=seq: s.seq == seq)
                        if game.phase is Phase.PLAY and game.state.trick_number >= tricks:
                            return mover, people[1 - seat], mine
                        await mover.act(mine.legal[0], mine.seq)

                mover, other, state = await turn_in_play(1)
                # the claim of a seat not to act, a stale claim, a claim of more tricks than are left
                await other.send({"type": "claim", "seq": state.seq, "tricks": 0})
                assert (await _error(other)).code == "not-your-turn"
                await mover.send({"type": "claim", "seq": state.seq - 1, "tricks": 0})
                assert (await _error(mover)).code == "stale"
                await mover.send({"type": "claim", "seq": state.seq, "tricks": 12})
                error = await _error(mover)
                assert error.code == "illegal" and "from 0 to" in error.message
                # a claim the others can stop: refused in public words; then one a trick
                before = table.to_file().model_dump_json()
                game = table.game
                assert game is not None and game.state is not None
                seat = game.to_act
                refusable = [
                    t for t in range(counted_left(game.state) + 1) if not judge(game.state, Claim(seat, t)).holds
                ]
                assert refusable
                await mover.send({"type": "claim", "seq": state.seq, "tricks": refusable[0]})
                error = await _error(mover)
                verdict = judge(game.state, Claim(seat, refusable[0]))
                assert error.code == "claim-refused"
                assert error.message == claim_text(game.state, verdict, Teller(game.players, seat))
                assert not CARD.search(error.message)
                await mover.send({"type": "claim", "seq": state.seq, "tricks": 0})
                error = await _error(mover)
                assert error.code == "illegal" and error.message == ONE_A_TRICK
                # a flood of claims: each refused at once (one a trick), no solve, nothing changes
                for _ in range(5):
                    await mover.send({"type": "claim", "seq": state.seq, "tricks": 0})
                for _ in range(5):
                    assert (await _error(mover)).code in ("illegal", "too-fast")
                assert table.to_file().model_dump_json() == before
                # a claim that holds, a trick later: the hand is played out and journalled whole
                await mover.act(state.legal[0], state.seq)
                mover, other, state = await turn_in_play(game.state.trick_number + 1)
                hand = game.log[-1]
                seat = game.to_act
                sure = 0 if game.state.contract.is_win else counted_left(game.state)
                expected = judge(game.state, Claim(seat, sure))
                assert await mover.act(f"claim {sure}", state.seq)  # as the remote flow sends it
                after = await next_state(
                    mover, lambda s: (s.view is not None and s.view.hand_number > hand.number) or s.record is not None
                )
                assert after.view is not None
                assert hand.finished and hand.result == expected.count
                # the other seat is told who claimed what: the claim is in its state too
                seen = await next_state(other, lambda s: bool(s.claims))
                assert [(c.hand, c.seat, c.tricks) for c in seen.claims] == [(hand.number, seat, sure)]
                text = server.tables.store.load(table.id)
                snapshot, moves = read_table(text)
                again = Table.from_file(snapshot, moves=moves)
                assert again.game is not None
                assert record_from_game(again.game) == record_from_game(game)
            # an unseated connection cannot claim
            async with Raw.to(url) as raw:
                await raw.send({"type": "claim", "seq": 0, "tricks": 0})
                reply = await raw.reply()
                assert isinstance(reply, ErrorMessage) and reply.code == "no-seat"

    asyncio.run(game())


SEAT = 1


def test_the_remote_flow_sends_a_claim_and_tells_it_once_the_hand_is_played_out():
    match = Match.new(
        Rules("standard", short_game=True), [make_ai("random")] * 3, Seeds("remote-claim"), players=("Ann", "Bo", "Cy")
    )
    game = match.game
    while not (game.phase is Phase.PLAY and game.to_act == SEAT and game.state.trick_number >= 3):
        assert match.step() is not Step.OVER

    def state(seq: int, claims: list[ClaimFact] | None = None) -> StateMessage:
        view = game.view(SEAT)
        seats = [SeatFacts(name=n, kind="human", level=None, connected=True, stand_in=False) for n in game.players]
        return StateMessage.model_construct(
            seq=seq,
            started=True,
            seats=seats,
            help=False,
            view=view,
            legal=legal_actions(view),
            waiting=None,
            claims=claims or [],
        )

    sent: list[tuple[str, int]] = []
    welcome = Welcome(
        table="t" * 16, code="AAAAA-AAAAA", seat=SEAT, name="Bo", secret=None, opener=False, timeout=120.0
    )
    flow = RemoteFlow(welcome, lambda move, seq: sent.append((move, seq)), file_games=False)
    flow.receive(state(50))
    sure = 0 if game.state.contract.is_win else counted_left(game.state)
    assert flow.claim(sure) is True
    assert sent == [(f"claim {sure}", 50)] and not flow.my_turn
    # the server judges it and plays the hand out
    position = game.state.copy()
    verdict = judge(position, Claim(SEAT, sure))
    fact = ClaimFact(hand=game.view(SEAT).hand_number, seat=SEAT, tricks=sure, play=len(game.view(SEAT).plays))
    for card in verdict.line:
        match.apply(card)
    match.deal()
    flow.receive(state(90, [fact]))  # the server names the claim that held: every seat is told it
    claims = [e.text for e in flow.state.log if e.kind == "claim"]
    assert claims == [claim_text(position, verdict, Teller(game.players, SEAT))]
    # a refused claim: the server's line is the refusal, and the seat is asked again
    while not (game.phase is Phase.PLAY and game.to_act == SEAT):
        assert match.step() is not Step.OVER
    flow.receive(state(120))
    assert flow.claim(0) is True
    flow.refused("Claim refused: the others could stop you taking all of the remaining 12 tricks. Play on.")
    assert flow.my_turn and flow.state.refusal.startswith("Claim refused")
    assert len([e for e in flow.state.log if e.kind == "claim"]) == 1


def test_a_claimed_hand_survives_a_kill_9_of_the_server(tmp_path):
    import json
    import os
    import signal

    import psutil

    from test_net_restart import _cli, _free_port, _host

    port = _free_port()
    server, url = _host(tmp_path, port)
    try:
        made = _cli("table", "new", "--server", url, "--short", "--seats", "open,random,random", "--json")
        assert made.returncode == 0, made.stderr
        code = json.loads(made.stdout)["code"]

        async def play() -> tuple[StateMessage, StateMessage]:
            nonlocal server
            notices: list[str] = []
            async with SeatClient(url, code=code, name="Ann", retry_seconds=WAIT, notice=notices.append) as ann:
                await ann.join()
                while True:
                    state = await next_state(ann, lambda s: bool(s.legal))
                    view = state.view
                    assert view is not None
                    if view.phase is Phase.PLAY and len(view.trick_winners) >= 2:
                        break
                    await ann.act(state.legal[0], state.seq)
                assert view.declaration is not None
                contract = view.declaration.contract
                left = tricks_left(contract, len(view.trick_winners))
                assert await ann.act(f"claim {0 if contract.is_win else left}", state.seq)
                claimed = await next_state(
                    ann, lambda s: s.view is not None and any(h.number == 1 for h in s.view.history)
                )
                workers = psutil.Process(server.pid).children()  # the computers' and the claim's thinking
                assert workers
                os.kill(server.pid, signal.SIGKILL)
                server.wait()
                _gone, left = psutil.wait_procs(workers, timeout=WAIT)  # ended with it: none left behind
                assert not left, left
                server, _again = _host(tmp_path, port)
                while True:  # the first state after the client is back: the new server's
                    resumed = await next_state(ann)
                    if any("back" in n for n in notices) and resumed.view is not None:
                        return claimed, resumed

        claimed, resumed = asyncio.run(play())
        hand = next(h for h in claimed.view.history if h.number == 1)
        again = next(h for h in resumed.view.history if h.number == 1)
        assert len(hand.plays) == 36 and again == hand  # the hand played out, whole, after the kill
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=WAIT)
