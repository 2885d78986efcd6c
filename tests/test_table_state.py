"""The contract a networked table needs: a ``TableState`` is plain data, built from a
``PlayerView`` and the table's facts, that goes through JSON and comes back equal, and the table
draws the same screen from the copy."""

from __future__ import annotations

import asyncio

import pytest
from rich.console import Console

from stepping_stones.ai import RandomAI, decide
from stepping_stones.ai.hints import Hint
from stepping_stones.engine import PASS, Phase
from stepping_stones.flow import AiTurn, BidChoice, GameFlow, HandSummary, PersonTurn, TableState
from stepping_stones.storage.session import Session, Setup
from stepping_stones.storage.settings import Settings
from stepping_stones.tui.bid_panel import BidPanel
from stepping_stones.tui.drawing import (
    Scene,
    history_text,
    log_text,
    table_canvas,
    target_text,
    tracker_text,
)
from stepping_stones.tui.panels import Bound
from stepping_stones.tui.render import Look, sheet_table
from tui_support import make_app, press, saved_game_near_the_end, wait_for_person, widget_text


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return tmp_path


def mid_hand(seed: str = "wire") -> GameFlow:
    """A flow in the second hand, the person to play with a trick under way and a refusal shown."""
    session = Session.new(Setup(seed=seed, levels=("random", "random")))
    flow = GameFlow(session, Settings(pace="instant", trick_pause=False))
    person = RandomAI()
    for _ in range(3000):
        step = flow.next_step()
        if (
            isinstance(step, PersonTurn)
            and len(flow.game.log) == 2
            and step.view.phase is Phase.PLAY
            and len(step.view.plays) % 3
            and step.view.legal_cards != step.view.own_cards
        ):
            bad = next(c for c in range(36) if (step.view.own_cards & ~step.view.legal_cards) >> c & 1)
            with pytest.raises(Exception):  # noqa: B017 - the engine's refusal, whichever it is
                flow.play(bad)
            return flow
        if isinstance(step, HandSummary):
            flow.summary_seen()
        elif isinstance(step, AiTurn):
            flow.ai_answered(step.request, step.request.answer())
        else:
            action = decide(person, step.view, session.seeds.decision(flow.game, 0))
            (flow.play if step.view.phase is Phase.PLAY else flow.bid)(action)
    raise AssertionError("never got there")


def through_json(state: TableState) -> TableState:
    """The state sent through JSON and read back, as a boundary would (pydantic)."""
    from pydantic import TypeAdapter

    adapter = TypeAdapter(TableState)
    return adapter.validate_json(adapter.dump_json(state))


def drawn(state: TableState, look: Look) -> list:
    """Every panel of the table drawn from ``state`` (as rich Text, spans and all)."""
    scene = Scene(state, look)
    console = Console(width=120)
    return [
        table_canvas(scene, 76, 16),
        log_text(scene, 78, 6, console),
        tracker_text(scene),
        history_text(scene, 60, None, console),
        target_text(scene),
        sheet_table(state.view, look).columns,
        scene.names,
        scene.my_cards,
        scene.hint_brief,
    ]


def test_a_state_goes_through_json_and_draws_the_same():
    flow = mid_hand()
    state = flow.state
    assert state.refusal and state.log and state.view.plays and state.view.history
    again = through_json(state)
    assert again == state
    for look in (Look(), Look(ascii=True)):
        assert drawn(again, look) == drawn(state, look)
    # and with everything else the table can show: a hint, the bid being chosen, a summary
    hinted = TableState.of(
        state.view,
        cursor=2,
        bid=BidChoice(1, 1, 3),
        hint=Hint(PASS, "why not", "short"),
        thinking=2,
        summary=1,
        over=False,
        filed="/x/y.json",
        problem="disk full",
        pace="slow",
        assisted=True,
        can_undo=True,
        log=state.log,
        told=state.told,
    )
    back = through_json(hinted)
    assert back == hinted and back.hint == hinted.hint and back.bid == hinted.bid
    assert drawn(back, Look()) == drawn(hinted, Look())


def test_a_state_built_from_a_view_alone():
    flow = mid_hand("alone")
    view = flow.state.view
    state = TableState.of(view)
    assert state.view is view and state.my_cards == flow.state.my_cards and state.playing
    assert state.cursor == 0 and state.refusal is None and state.log == ()
    assert drawn(through_json(state), Look()) == drawn(state, Look())


def test_the_table_draws_the_same_screen_from_a_state_rebuilt_from_json(home):
    saved_game_near_the_end(seed="wire-table", hands=2, cards_left=20, person_to_play=True)

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(120, 40)) as pilot:
            table = await wait_for_person(pilot)
            await press(pilot, "right")  # the cursor moves: a state of the table's own
            await pilot.pause()
            panels = [w for w in table.walk_children() if isinstance(w, Bound)]
            assert len(panels) >= 9 and any(isinstance(p, BidPanel) for p in panels)
            before = [widget_text(p) for p in panels]
            state = table.state
            again = through_json(state)
            assert again == state and again is not state
            for panel in panels:  # each panel draws itself from the copy
                panel.draw_scene(Scene(again, panel.look))
            await pilot.pause()
            return before, [widget_text(p) for p in panels]

    before, after = asyncio.run(run())
    assert before == after


def test_the_log_cuts_nothing_without_an_ellipsis_and_keeps_the_hints_key():
    """Issue 35, item 5: at 80 columns the brief hint lost its own "(i: all of it)", and a log
    line ended mid-word ("Stone Lanter...")."""
    from dataclasses import replace

    from stepping_stones.flow.state import Event

    state = mid_hand("cut").state
    console = Console(width=120)
    long_hint = Hint(
        0,
        "x " * 200,
        "the declarer takes this trick; the declarer ends with about 6.7 counted "
        "tricks; L6 does as well; and a good many more words that make the brief too long",
    )
    event = (
        "Kenji wins trick 10 (L5 wins: the only Stone Lanterns, the others could not follow, and then some more words)."
    )
    shown = replace(state, refusal=None, hint=long_hint, log=(*state.log, Event("trick", event)))
    for look in (Look(), Look(ascii=True)):
        lines = log_text(Scene(shown, look), 76, 2, console).plain.splitlines()
        assert len(lines) == 2 and all(len(line) <= 76 for line in lines)
        assert lines[-1].endswith(look.ellipsis + " (i: all of it)")
        tall = log_text(Scene(shown, look), 76, 6, console).plain.splitlines()
        assert tall[-2:] == [event[: len(tall[-2])], event[len(tall[-2]) :].strip()]  # the event wrapped, whole
        assert all(len(line) <= 76 for line in tall)


def test_the_line_under_the_table_fits_or_leaves_out_its_last_clauses():
    from stepping_stones.tui.drawing import fit_words

    said = "You win it. L5 wins: the only Stone Lanterns, the others could not follow."
    assert fit_words(said, 66, "~") == "You win it. L5 wins: the only Stone Lanterns."
    assert fit_words(said, 100, "~") == said
    assert fit_words("Onelongwordwithoutanybreak", 10, "~") == "Onelongwo~"


def test_the_opponents_hands_are_drawn_as_card_backs_that_count_down():
    """Each opponent's seat shows a card back for each card still in their hand, then the number
    (ASCII: ``#``); the backs go as their cards are played."""
    state = mid_hand().state
    hand = state.view.shown_hand()
    assert hand is not None and hand.plays
    for look, back in ((Look(), "▮"), (Look(ascii=True), "#")):
        lines = table_canvas(Scene(state, look), 76, 16).plain.splitlines()
        for seat, side in ((1, "left"), (2, "right")):
            held = 12 - hand.played_by(seat).bit_count()
            runs = [run for run in lines[1].replace(back, "\0").split() if "\0" in run]  # the seats' second row
            assert "\0" * held in runs and f"{back * held} {held}" in lines[1], (side, lines[1])
    played = [12 - hand.played_by(seat).bit_count() for seat in (1, 2)]
    assert played != [12, 12]  # some of the opponents' cards are gone: fewer backs than at the deal
