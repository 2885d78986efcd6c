"""The game flow that every front end drives, tested without any front end."""

from __future__ import annotations

import pytest

from conftest import game_snapshot
from game_support import run_until
from stepping_stones.engine import CARD_NAMES, CONTRACTS, PASS, IllegalCardError, Phase, Rules, Trick, parse_card
from stepping_stones.explain import Teller, short_names
from stepping_stones.flow import TRICK_HOLD, AiTurn, GameFlow, GameOver, HandSummary, PersonTurn
from stepping_stones.storage.records import load_game, summary
from stepping_stones.storage.session import Session, Setup, current_path, sidecar_of
from stepping_stones.storage.settings import Settings


def told(flow: GameFlow) -> list:
    """Every event the flow tells from now on, in order, as its states bring them."""
    events = []

    def tell(state):
        new = state.told - tell.last
        events.extend(state.log[-new:] if new else ())
        tell.last = state.told

    tell.last = flow.state.told
    flow.subscribe(tell)
    return events


def new_flow(seed: str = "flow", pace: str = "instant", **setup) -> GameFlow:
    session = Session.new(Setup(rules=Rules(**setup), levels=("random", "random"), seed=seed))
    return GameFlow(session, Settings(pace=pace, trick_pause=False))


def test_a_whole_game_through_the_flow_is_saved_and_filed():
    flow = new_flow(contract_set="advanced", redo_tokens=True)
    summaries = []

    def stop(flow, step):
        if isinstance(step, HandSummary) and step.number not in summaries:
            summaries.append(step.number)
        return False

    over = run_until(flow, stop)
    assert isinstance(over, GameOver)
    assert over.path is not None and over.path.exists()
    assert not current_path().exists()  # filed in the games folder
    assert summaries == list(range(1, len(flow.game.log) + 1))
    assert summary(load_game(over.path)) == summary(flow.game)
    assert flow.next_step() == over  # asking again does not file it twice


def test_events_tell_the_game_in_sentences_with_the_person_as_you():
    flow = new_flow(seed="events")
    events = told(flow)
    run_until(flow, lambda f, s: isinstance(s, HandSummary))
    texts = [e.text for e in events]
    assert texts[0].startswith("Hand 1 is dealt.")
    tricks = [e for e in events if e.kind == "trick"]
    assert len(tricks) == 12 and all(isinstance(e.trick, Trick) for e in tricks)
    assert all("(" in e.text and e.text.endswith(").") for e in tricks)
    leads = [t for t in texts if t.startswith("Trick ")]
    assert len(leads) == 12
    assert any(t.startswith("You play") or (t.startswith("Trick") and "You lead" in t) for t in texts)
    assert not any("You plays" in t or "You leads" in t or "You wins" in t for t in texts)


def test_undo_takes_back_the_persons_card_and_the_ai_moves_after_it():
    flow = new_flow(seed="undo")
    # Play until the person has just played a card that is not the last of its trick.
    step = run_until(
        flow,
        lambda f, s: (
            isinstance(s, PersonTurn)
            and s.view.phase is Phase.PLAY
            and len(s.view.plays) % 3 == 0
            and len(s.view.plays) < 30
        ),
    )
    before = flow.game.log[-1].plays
    card = min(c for c in range(36) if step.view.legal_cards >> c & 1)
    flow.play(card)
    step = flow.next_step()
    assert isinstance(step, AiTurn)
    flow.ai_answered(step.request, step.request.answer())  # the AI after the person
    assert len(flow.game.log[-1].plays) == len(before) + 2
    assert flow.undo_point() == (len(flow.game.log[-1].bids), len(before))
    assert flow.undo()
    assert flow.game.log[-1].plays == before and flow.game.to_act == 0
    assert flow.assisted
    saved = load_game(current_path())
    assert saved.log[-1].plays == before  # the record holds only the game as finally played
    assert '"assisted": true' in sidecar_of(current_path()).read_text()
    assert flow.state.log[-1].kind == "undo"  # the state tells it, last
    # ... and the log no longer tells the cards taken back (issue 35: the undone event stayed)
    texts = [e.text for e in flow.state.log]
    assert not any(t.endswith(f"You lead {CARD_NAMES[card]}.") for t in texts), texts


def test_undo_takes_back_in_place_to_exactly_the_game_before_the_persons_move():
    # A card, then a bid (a pass, which the computer players answer, perhaps with a declaration).
    flow = new_flow(seed="undo-exact", contract_set="advanced", redo_tokens=True)
    game = flow.game  # whoever holds the game sees the undo
    for phase in (Phase.PLAY, Phase.BIDDING):
        step = run_until(
            flow,
            lambda f, s, phase=phase: (
                isinstance(s, PersonTurn)
                and s.view.phase is phase
                and not s.view.in_puddle
                and len(s.view.plays) % 3 == 0
                and len(s.view.plays) < 30
            ),
        )
        before = game_snapshot(game)
        if phase is Phase.PLAY:
            flow.play(min(c for c in range(36) if step.view.legal_cards >> c & 1))
        else:
            flow.bid(PASS)
        # The computer players answer until the trick is full, or the bidding is over.
        while isinstance(step := flow.next_step(), AiTurn) and (
            game.phase is Phase.BIDDING or len(game.log[-1].plays) % 3
        ):
            flow.ai_answered(step.request, step.request.answer())
        assert flow.undo()
        assert flow.game is game and game_snapshot(game) == before
        assert load_game(current_path()).log[-1].plays == game.log[-1].plays


def test_undo_is_gone_once_the_next_trick_has_started():
    flow = new_flow(seed="undo-late")
    run_until(flow, lambda f, s: isinstance(s, PersonTurn) and s.view.phase is Phase.PLAY and len(s.view.plays) > 3)
    hand = flow.game.log[-1]
    mine = [k for k in range(len(hand.plays)) if hand.play_seat(k) == 0]
    current_trick = len(hand.plays) // 3
    assert all(k // 3 < current_trick for k in mine)  # the person's last card is in a past trick
    if len(hand.plays) % 3:  # someone has already led the trick the person is about to play to
        assert flow.undo_point() is None
        assert not flow.undo()


def test_undo_of_a_bid():
    flow = new_flow(seed="undo-bid")
    step = run_until(
        flow, lambda f, s: isinstance(s, PersonTurn) and s.view.phase is Phase.BIDDING and not s.view.in_puddle
    )
    bids = len(step.view.bids)
    flow.bid(step.view.legal_bids[0])  # a pass
    assert flow.undo_point() == (bids, 0) or flow.game.log[-1].plays
    if flow.undo_point() is not None:
        assert flow.undo()
        assert len(flow.game.log[-1].bids) == bids and flow.game.to_act == 0


def test_a_forced_last_card_plays_itself_unless_switched_off():
    for auto in (True, False):
        session = Session.new(Setup(levels=("random", "random"), seed="last"))
        flow = GameFlow(session, Settings(pace="instant", auto_last_card=auto, trick_pause=False))
        step = run_until(
            flow,
            lambda f, s: (
                (isinstance(s, PersonTurn) and s.view.phase is Phase.PLAY and s.view.own_cards.bit_count() == 1)
                or isinstance(s, HandSummary)
            ),
        )
        if auto:
            assert isinstance(step, HandSummary)  # the person never had to play the last card
        else:
            assert isinstance(step, PersonTurn) and step.view.own_cards.bit_count() == 1


def test_pace_delays_and_the_pause_after_a_trick():
    session = Session.new(Setup(levels=("random", "random"), seed="pace"))
    flow = GameFlow(session, Settings(pace="instant", trick_pause=True))
    delays = []

    def stop(flow, step):
        if isinstance(step, AiTurn):
            view = step.request.view
            trick_over = view.phase is Phase.PLAY and view.plays and len(view.plays) % 3 == 0
            delays.append((bool(trick_over), step.delay))
        return isinstance(step, HandSummary)

    run_until(flow, stop)
    assert {d for over, d in delays if over} == {TRICK_HOLD}
    assert {d for over, d in delays if not over} == {0.0}


def test_a_refused_card_is_told_to_the_person_in_the_second_person():
    flow = new_flow(seed="refuse")
    step = run_until(
        flow,
        lambda f, s: (
            isinstance(s, PersonTurn) and s.view.phase is Phase.PLAY and s.view.legal_cards != s.view.own_cards
        ),
    )
    bad = min(c for c in range(36) if (step.view.own_cards & ~step.view.legal_cards) >> c & 1)
    with pytest.raises(IllegalCardError) as refused:
        flow.play(bad)
    text = flow.refusal(refused.value)
    assert text.startswith("You must ") and "you hold" in text and len(text) < 80


def test_a_stale_ai_answer_is_ignored():
    flow = new_flow(seed="stale")
    step = run_until(flow, lambda f, s: isinstance(s, AiTurn) and s.request.view.phase is Phase.PLAY)
    answer = step.request.answer()
    flow.ai_answered(step.request, answer)
    plays = len(flow.game.log[-1].plays)
    flow.ai_answered(step.request, answer)  # the same answer again, for a position that is gone
    assert len(flow.game.log[-1].plays) == plays


def test_trick_reasons_in_players_words():
    teller = Teller(("Ann", "Hana", "Kenji"), you=0)
    c = parse_card
    win_pt = CONTRACTS["win-pick-trump"]
    assert (
        teller.trick_reason(Trick(1, 0, ((0, c("K4")), (1, c("B4")), (2, c("K9"))), 1, True), win_pt, 9, 3)
        == "B4 wins: it is trump"
    )
    assert (
        teller.trick_reason(
            Trick(1, 0, ((0, c("C6")), (1, c("C2")), (2, c("K9"))), 1, True), CONTRACTS["lose-no-trump"], 1, None
        )
        == "1 high: C2 beats C6"
    )
    assert (
        teller.trick_reason(
            Trick(1, 2, ((2, c("K8")), (0, c("C2")), (1, c("L9"))), 2, True), CONTRACTS["win-no-trump"], 9, None
        )
        == "K8 wins: the only Koi, the others could not follow"
    )
    assert (
        teller.trick_reason(
            Trick(1, 0, ((0, c("K5")), (1, c("K7")), (2, c("K2"))), 1, True), CONTRACTS["must-beat"], 9, None
        )
        == "K7 wins: the highest Koi, over K5, K2; Hana had to beat K5"
    )  # issue 35: not the reason alone
    assert (
        teller.trick_reason(
            Trick(1, 1, ((1, c("K5")), (2, c("K2")), (0, c("K7"))), 0, True), CONTRACTS["must-beat"], 9, None
        )
        == "K7 wins: the highest Koi, over K5, K2; you had to beat K5"
    )


def test_long_names_stay_apart():
    names = (
        "Player With A Very Long Name One",
        "Player With A Very Long Name Two",
        "Player With A Very Long Name Three",
    )
    short = short_names(names, 10)
    assert len(set(short)) == 3 and all(len(n) <= 10 for n in short)


def test_a_random_person_and_the_flow_agree_with_a_fixed_seed():
    a = run_until(new_flow(seed="same"), lambda f, s: False)
    b = run_until(new_flow(seed="same"), lambda f, s: False)
    assert summary(load_game(a.path)) == summary(load_game(b.path))


# --- the state the flow publishes ---------------------------------------------------------


def test_one_state_per_change_and_the_persons_view_built_once(monkeypatch):
    from stepping_stones.engine import Game

    flow = new_flow(seed="once")
    states = []
    flow.subscribe(states.append)
    step = run_until(flow, lambda f, s: isinstance(s, PersonTurn) and s.view.phase is Phase.PLAY)
    built = []
    real_view = Game.view
    monkeypatch.setattr(Game, "view", lambda game, seat: built.append(seat) or real_view(game, seat))
    states.clear()
    flow.move_cursor(1)  # a cursor move: a new state, and no new view
    assert len(states) == 1 and built == [] and states[0].view is step.view
    card = min(cards_of_mask(step.view.legal_cards))
    flow.play(card)  # a card: one state, one view of the person's
    assert len(states) == 2 and built.count(0) == 1
    assert states[-1] is flow.state and states[-1].view.plays[-1] == card
    step = flow.next_step()
    if isinstance(step, AiTurn):  # the seat thinking is told: the person's view is not built again
        assert flow.state.thinking == step.request.seat and built.count(0) == 1
        assert flow.next_step() == step  # asked again while it is out: the same request


def cards_of_mask(mask: int) -> list[int]:
    return [c for c in range(36) if mask >> c & 1]


def test_an_ai_answer_held_for_the_pace_is_dropped_after_an_undo():
    flow = new_flow(seed="held")
    step = run_until(
        flow,
        lambda f, s: (
            isinstance(s, PersonTurn)
            and s.view.phase is Phase.PLAY
            and len(s.view.plays) % 3 == 0
            and len(s.view.plays) < 30
        ),
    )
    flow.play(min(cards_of_mask(step.view.legal_cards)))
    step = flow.next_step()
    assert isinstance(step, AiTurn)
    assert flow.hold(step.request, step.request.answer())
    plays = len(flow.game.log[-1].plays)
    assert flow.undo()
    assert flow.state.thinking is None
    assert not flow.go_on(step.request) and not flow.go_on()  # the answer is for a position that is gone
    assert len(flow.game.log[-1].plays) == plays - 1
    # and a new request is answered as usual, once
    step = flow.next_step()
    assert isinstance(step, PersonTurn)
    flow.play(min(cards_of_mask(step.view.legal_cards)))
    step = flow.next_step()
    answer = step.request.answer()
    assert flow.hold(step.request, answer) and flow.go_on(step.request)
    assert not flow.hold(step.request, answer)


def test_a_hint_is_asked_for_worked_out_elsewhere_and_taken_only_for_its_position():
    from stepping_stones.ai.hints import Hint
    from stepping_stones.flow import HINT_OUT_OF_TURN, HINT_WORKING, NO_HINT

    flow = new_flow(seed="hints")
    step = run_until(flow, lambda f, s: isinstance(s, AiTurn))
    assert flow.ask_hint() is None and flow.state.refusal == HINT_OUT_OF_TURN
    flow.ai_answered(step.request, step.request.answer())
    step = run_until(
        flow,
        lambda f, s: isinstance(s, PersonTurn) and s.view.phase is Phase.PLAY and s.view.legal_cards.bit_count() > 1,
    )
    request = flow.ask_hint()
    assert request is not None and flow.state.message == HINT_WORKING and flow.state.refusal is None
    assert flow.ask_hint() is None  # one on its way already
    cards = flow.state.my_cards
    wanted = max(cards_of_mask(step.view.legal_cards))
    stale = request
    flow.hint_came(request, None)
    assert flow.state.message == NO_HINT and not flow.assisted
    request = flow.ask_hint()
    flow.hint_came(stale, Hint(cards[0], "stale"))  # an answer for an earlier ask: dropped
    assert flow.state.hint is None
    flow.hint_came(request, Hint(wanted, "it is the highest"))
    state = flow.state
    assert state.hint == Hint(wanted, "it is the highest") and state.assisted
    assert state.chosen_card == wanted  # the cursor rests on it: Enter plays it
    assert flow.confirm()
    assert flow.game.log[-1].plays[-1] == wanted
    assert flow.state.hint is None and flow.state.message is None


@pytest.mark.parametrize(
    ("pace", "only_card", "plays_itself"),
    [("instant", "pace", True), ("slow", "pace", False), ("slow", "on", True), ("instant", "off", False)],
)
def test_the_only_legal_card_plays_itself_mid_hand_as_the_setting_says(pace, only_card, plays_itself):
    """Issue 35, item 11: by default at instant pace, not at slow."""
    session = Session.new(Setup(levels=("random", "random"), seed="only-card"))
    flow = GameFlow(session, Settings(pace=pace, only_card=only_card, trick_pause=False))
    forced = []

    def stop(flow, step):
        if isinstance(step, PersonTurn) and step.view.phase is Phase.PLAY:
            view = step.view
            if view.legal_cards.bit_count() == 1 and view.own_cards.bit_count() > 1:
                forced.append(len(view.plays))
                return True
        return isinstance(step, HandSummary) and len(flow.game.log) >= 3

    step = run_until(flow, stop)
    if plays_itself:
        assert not forced and isinstance(step, HandSummary)  # never asked for a forced card
        assert flow.game.log[0].finished
    else:
        assert forced  # asked: the person plays it
