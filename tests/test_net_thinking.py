"""The computers' thinking at a table server (``net/thinking.py``): in worker processes, served in
turn by address, bounded, dropped when its asker has gone, and stopped at a table nobody is
connected to.  The server's clock is the test's own."""

from __future__ import annotations

import asyncio
import os

import pytest

from net_support import WAIT, Clock, new_table, next_state, running
from stepping_stones.ai import make_ai
from stepping_stones.ai.claims import Claim, ClaimRequest
from stepping_stones.engine import Game, Phase, Rules
from stepping_stones.game.match import Match, Seeds
from stepping_stones.net.client import SeatClient, open_table
from stepping_stones.net.server import Limits
from stepping_stones.net.thinking import Busy, Dropped, Thinkers


def _claim_request() -> ClaimRequest:
    """A claim in the first trick of a dealt hand (the referee's copy of the real cards)."""
    seeds = Seeds("thinking")
    game = Game(Rules("standard"), ["A", "B", "C"], seeds.first_forehand())
    match = Match(game, [make_ai("random")] * 3, seeds)
    match.deal()
    while game.phase is not Phase.PLAY:  # the bidding, by random seats
        match.apply(match.request().answer())
    assert game.state is not None and game.to_act is not None
    return ClaimRequest(Claim(game.to_act, 0), game.state.copy())


def test_a_claim_is_judged_in_a_worker_and_dropped_unrun_once_its_asker_has_gone():
    async def scenario() -> None:
        thinkers = Thinkers(workers=1)
        try:
            request = _claim_request()
            verdict = await asyncio.wait_for(thinkers.claim(request, "a", "t", lambda: True), WAIT)
            assert verdict.claim == request.claim
            (pid,) = thinkers._executor()._processes  # one worker, not this process
            assert pid != os.getpid()
            with pytest.raises(Dropped):
                await thinkers.claim(request, "a", "t", lambda: False)
        finally:
            thinkers.close()

    asyncio.run(scenario())


def test_the_queue_is_bounded_in_all_and_per_table():
    async def scenario() -> None:
        thinkers = Thinkers(workers=1, queue=2, per_key=1)
        thinkers._running = {"elsewhere": 1}  # every worker busy: the jobs wait in the queue
        request = _claim_request()
        first = asyncio.ensure_future(thinkers.claim(request, "a", "t1", lambda: True))
        await asyncio.sleep(0)  # let it queue (a turn of the loop, not a wait for time)
        with pytest.raises(Busy):
            await thinkers.claim(request, "a", "t1", lambda: True)  # one a table
        second = asyncio.ensure_future(thinkers.claim(request, "b", "t2", lambda: True))
        await asyncio.sleep(0)
        with pytest.raises(Busy):
            await thinkers.claim(request, "c", "t3", lambda: True)  # two in all
        thinkers.close()
        for job in (first, second):
            with pytest.raises(Dropped):
                await job

    asyncio.run(scenario())


def test_addresses_are_served_in_turn_and_one_never_takes_every_worker():
    """Address a asks for ten jobs, then b for one: with two workers, a runs one at a time, and
    b's job comes right after a's first, not after its ten."""

    async def scenario() -> None:
        thinkers = Thinkers(workers=2)
        thinkers._running = {"elsewhere": 2}
        request = _claim_request()
        jobs = [asyncio.ensure_future(thinkers.claim(request, "a", f"a{i}", lambda: True)) for i in range(10)]
        jobs.append(asyncio.ensure_future(thinkers.claim(request, "b", "b0", lambda: True)))
        await asyncio.sleep(0)
        thinkers._running = {}
        order = []
        while (job := thinkers._next()) is not None:
            order.append(job.key)
            thinkers._running[job.owner] = thinkers._running.get(job.owner, 0) + 1
        assert order == ["a0", "b0"]  # a's share is one worker: the rest of a's wait their turn
        thinkers._running = {}
        order = [job.key for job in iter(thinkers._next, None)]
        assert order[:2] == ["a1", "a2"]
        thinkers.close()
        for job in jobs:
            job.cancel()

    asyncio.run(scenario())


def test_a_table_nobody_is_connected_to_stops_thinking_until_someone_is_back(tmp_path):
    """The only person leaves; after the timeout a computer stands in for them, but nobody is
    there: no computer thinks, and the game stays where it was.  Back, the person plays on."""
    clock = Clock()

    async def scenario() -> None:
        async with running(tmp_path, clock=clock, limits=Limits(thinkers=1), timeout=30.0) as (server, url):
            opened = await open_table(url, new_table(("open", "random", "random")))
            ann = SeatClient(url, code=opened.code, name="Ann")
            welcome = await ann.join()
            state = await next_state(ann, lambda s: s.legal != [])  # the computers played up to Ann's turn
            secret = ann.secret
            await ann.close()
            table = server.tables.tables[opened.table]
            async with asyncio.timeout(WAIT):
                while table.attended:
                    await asyncio.sleep(0.01)  # polls the server's hearing of the close
            seq = table.seq
            clock.now += 30.0
            await server.sweep()
            assert table.seats[welcome.seat].stand_in
            assert not table.thinking and not server.tables._tasks
            assert table.seq == seq == state.seq
            async with SeatClient(url, secret=secret) as back:
                await back.join()
                again = await next_state(back, lambda s: s.legal != [])
                assert again.seq == seq and not table.seats[welcome.seat].stand_in
                await back.act(again.legal[0], again.seq)
                shown = await next_state(back, lambda s: s.seq > again.seq)
                while shown.legal:  # Ann to act again (the deal is the server's: a puddle of hers, her lead)
                    await back.act(shown.legal[0], shown.seq)
                    shown = await next_state(back, lambda s, seen=shown.seq: s.seq > seen)
                await next_state(back, lambda s: s.seq > shown.seq)  # a computer to act: the computers think again

    asyncio.run(scenario())


def test_the_workers_get_a_seat_s_view_only():
    """A decision is given the seat's view; a request of the lab's all-seeing seat is refused."""
    from dataclasses import replace

    async def scenario() -> None:
        thinkers = Thinkers(workers=1)
        seeds = Seeds("view")
        game = Game(Rules("standard"), ["A", "B", "C"], seeds.first_forehand())
        match = Match(game, [make_ai("random")] * 3, seeds)
        match.deal()
        request = match.request()
        assert request is not None
        try:
            action = await asyncio.wait_for(thinkers.decision(request, "random", "a", "t", lambda: True), WAIT)
            assert action in request.view.legal_bids
            with pytest.raises(ValueError):
                await thinkers.decision(replace(request, hands=(0, 0, 0)), "random", "a", "t", lambda: True)
        finally:
            thinkers.close()

    asyncio.run(scenario())


def test_a_worker_that_dies_is_replaced():
    """A worker killed (out of memory, kill -9): the job it had, or the next one, fails, and the
    one after runs in a new worker."""
    import signal
    from concurrent.futures.process import BrokenProcessPool

    async def scenario() -> None:
        thinkers = Thinkers(workers=1)
        try:
            request = _claim_request()
            await asyncio.wait_for(thinkers.claim(request, "a", "t", lambda: True), WAIT)
            (pid,) = thinkers._executor()._processes
            os.kill(pid, signal.SIGKILL)
            with pytest.raises(BrokenProcessPool):
                await asyncio.wait_for(thinkers.claim(request, "a", "t", lambda: True), WAIT)
            verdict = await asyncio.wait_for(thinkers.claim(request, "a", "t", lambda: True), WAIT)
            assert verdict.claim == request.claim and pid not in thinkers._executor()._processes
        finally:
            thinkers.close()

    asyncio.run(scenario())


def test_a_hint_whose_asker_has_gone_is_dropped_unworked(tmp_path):
    """A page's hint waits its turn with the computers' decisions; when its page has gone by
    then, it is never worked out (before, each was, for nobody).  A hint whose page is still there
    is worked out in a worker, from the seat's view."""
    from stepping_stones.ai import make_ai
    from stepping_stones.engine import Rules
    from stepping_stones.game.match import Match, Seeds
    from stepping_stones.net.thinking import Dropped, Thinkers

    match = Match.new(Rules("standard", short_game=True), [make_ai("random")] * 3, Seeds("hint-drop"))
    match.step()  # the deal: the forehand is to bid
    game = match.game
    assert game.to_act is not None
    view = game.view(game.to_act)

    async def scenario() -> None:
        thinkers = Thinkers(workers=1)
        try:
            with pytest.raises(Dropped):
                await thinkers.hint(view, "127.0.0.0/24", "hint 1", lambda: False)
            hint = await thinkers.hint(view, "127.0.0.0/24", "hint 2", lambda: True)
            assert hint is not None and hint.action in view.legal_bids
        finally:
            thinkers.close()

    asyncio.run(scenario())
