"""Claims on this machine: the flow's claim action, saved at once (a kill and a resume find the hand
played out), and the plain mode's ``claim`` command."""

from __future__ import annotations

import io

import pytest

from game_support import run_until
from stepping_stones.ai.claims import ONE_A_TRICK, Claim, ClaimError, counted_left, judge
from stepping_stones.engine import Phase, Rules
from stepping_stones.flow import GameFlow, HandSummary, PersonTurn
from stepping_stones.game.choices import Setup
from stepping_stones.plain import Options, run
from stepping_stones.storage.records import load_game, record_from_game
from stepping_stones.storage.session import Session, current_path
from stepping_stones.storage.settings import Settings


def new_flow(seed: str, **setup) -> GameFlow:
    session = Session.new(Setup(rules=Rules(**setup), levels=("random", "random"), seed=seed))
    return GameFlow(session, Settings(pace="instant", trick_pause=False))


def my_turn_to_play(flow: GameFlow, tricks: int = 3):
    """Run until the person is to play, ``tricks`` tricks into the first hand."""

    def stop(flow, step):
        return isinstance(step, PersonTurn) and step.view.phase is Phase.PLAY and len(step.view.trick_winners) >= tricks

    return run_until(flow, stop)


def sure(flow: GameFlow) -> int:
    """A claim that always holds: none of the rest in a Win contract, all in a Lose one."""
    state = flow.game.state
    assert state is not None
    return 0 if state.contract.is_win else counted_left(state)


def test_a_claim_that_holds_ends_the_hand_at_once_and_is_on_disk_before_the_call_returns():
    flow = new_flow("claims-flow")
    my_turn_to_play(flow)
    hand = flow.game.log[-1]
    state = hand.state.copy()
    verdict = judge(state, Claim(0, sure(flow)))
    assert flow.claim(sure(flow)) is True
    assert hand.finished and hand.result == verdict.count
    assert list(hand.plays[len(state.plays) :]) == list(verdict.line)
    event = flow.state.log[-1]
    assert event.kind == "claim" and event.text.startswith("Claim accepted: ")
    assert flow.state.refusal is None
    # The record on disk holds the hand played out (as after a kill -9, nothing else was written).
    resumed = load_game(current_path())
    assert record_from_game(resumed) == record_from_game(flow.game)
    assert isinstance(flow.next_step(), HandSummary)


def test_a_refused_claim_changes_nothing_and_says_so_and_one_refusal_a_trick():
    flow = new_flow("claims-refused")
    my_turn_to_play(flow, tricks=2)
    state = flow.game.state
    assert state is not None
    refused = [t for t in range(counted_left(state) + 1) if not judge(state, Claim(0, t)).holds]
    assert refused
    before = record_from_game(flow.game)
    assert flow.claim(refused[0]) is False
    assert flow.state.refusal is not None and flow.state.refusal.startswith("Claim refused: ")
    assert flow.state.refusal.endswith("Play on.")
    assert record_from_game(flow.game) == before and record_from_game(load_game(current_path())) == before
    with pytest.raises(ClaimError):
        flow.claim(sure(flow))
    assert flow.state.refusal == ONE_A_TRICK
    assert isinstance(flow.next_step(), PersonTurn)  # the hand goes on


def test_no_claim_out_of_turn_or_while_bidding():
    flow = new_flow("claims-turn")
    step = run_until(flow, lambda f, s: isinstance(s, PersonTurn))
    assert step.view.phase is Phase.BIDDING
    with pytest.raises(ClaimError):
        flow.claim(0)
    assert flow.state.refusal == "A claim is made while the cards are being played."


class Claimer(io.TextIOBase):
    """Plain mode's input: ``claims``, each ``(trick, line)`` sent on the first turn to play after
    that many tricks; every other prompt is answered with its first legal token, for ``actions``
    actions."""

    def __init__(self, out: io.StringIO, claims: list[tuple[int, str]], actions: int = 40) -> None:
        self.out = out
        self.claims = claims
        self.actions = actions

    def readline(self, size: int = -1) -> str:
        printed = self.out.getvalue()
        last = printed.rstrip("\n").rsplit("\n", 1)[-1]
        assert last.startswith("legal: ")
        turn = printed.rsplit("You are to ", 1)[-1]
        if self.claims and turn.startswith(("play to trick ", "lead trick ")):
            number = int(turn.split("trick ", 1)[1].split(maxsplit=1)[0].rstrip(".;"))
            if number > self.claims[0][0]:
                return self.claims.pop(0)[1] + "\n"
        if self.actions <= 0:
            return ""
        self.actions -= 1
        return last[len("legal: ") :].split(", ")[0] + "\n"


def test_plain_mode_claims_with_words_and_numbers():
    # Hana declares a Win contract in hand 1; Ana (the person) defends with Kenji.
    setup = Setup(rules=Rules(), player="Ana", names=("Hana", "Kenji"), levels=("random", "random"), seed="pc")
    out = io.StringIO()
    lines = ["claim", "claim 13", "claim lots", "claim all", "claim none", "claim none"]
    inp = Claimer(out, [(3, line) for line in lines] + [(5, "claim none")])
    assert run(Options(setup), inp, out, hinter=None) == 0
    text = out.getvalue()
    assert "Type claim and one of all, none or 0-9 of the remaining 9 tricks." in text
    assert "Only 9 tricks that count remain: claim a number from 0 to 9." in text
    assert "A claim is 'all', 'none' or a number of tricks from 0 to 9, not 'lots'." in text
    assert "Claim refused: Hana could stop you and Kenji taking all of the remaining 9 tricks. Play on." in text
    assert text.count(ONE_A_TRICK) == 2  # each time it is asked
    assert "Claim accepted: you and Kenji take " in text and "The hand ends: Hana takes " in text
    game = load_game(current_path())
    assert game.log[0].finished and len(game.log[0].plays) == 36


def test_the_app_claims_with_c_and_a_dialog():
    import asyncio

    from textual.widgets import Input

    from stepping_stones.tui.claim import ClaimScreen
    from stepping_stones.tui.dialogs import HandSummaryScreen
    from tui_support import make_app, press, saved_game_near_the_end, wait_for_person, widget_text

    session = saved_game_near_the_end(seed="claim-tui", hands=1, cards_left=15, person_to_play=True)
    state = session.game.state
    assert state is not None
    word = "none" if state.contract.is_win else "all"
    session.release()

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            table = await wait_for_person(pilot)
            assert table is app.table and table.state.playing
            assert "Claim the rest" in [c.title for c in app.get_system_commands(table)]
            await press(pilot, "c")
            dialog = app.screen
            assert isinstance(dialog, ClaimScreen)
            assert "of the remaining 5 tricks" in widget_text(dialog.query_one("#claim-text"))
            await pilot.press(*"lots", "enter")
            await pilot.pause()
            assert app.screen is dialog
            assert "not 'lots'" in widget_text(dialog.query_one("#claim-error"))
            dialog.query_one("#claim-input", Input).value = ""
            await pilot.press(*word, "enter")
            await pilot.pause()
            await app.workers.wait_for_complete([w for w in app.workers if w.group == "claim"])
            await pilot.pause()
            await pilot.pause()
            assert isinstance(app.screen, HandSummaryScreen)
            texts = [e.text for e in table.state.log if e.kind == "claim"]
            assert len(texts) == 1 and texts[0].startswith("Claim accepted: ")
            # the summary confirms it (issue 43, item 5): who claimed, and that it held
            told = widget_text(app.screen.query_one("#summary-claim"))
            assert " ".join(told.split()) == "You claimed, and it held: " + texts[0][len("Claim accepted: ") :]
            return app.table.game

    game = asyncio.run(run())
    assert game.log[0].finished
    assert record_from_game(load_game(current_path())) == record_from_game(game)


def test_a_verdict_that_comes_after_the_person_played_on_is_dropped():
    from stepping_stones.engine import cards_of
    from stepping_stones.flow.game_flow import CLAIM_CHECKING

    flow = new_flow("claims-drop")
    my_turn_to_play(flow)
    request = flow.ask_claim(sure(flow))
    assert flow.state.refusal == CLAIM_CHECKING
    flow.play(next(iter(cards_of(flow.state.view.legal_cards))))  # while the claim is being judged
    before = record_from_game(flow.game)
    assert flow.claim_judged(request, request.answer()) is None
    assert record_from_game(flow.game) == before and not flow.game.log[-1].finished
    assert not [e for e in flow.state.log if e.kind == "claim"]
