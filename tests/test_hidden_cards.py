"""No screen shows where a card lies that the person has not seen played.

Two saves of the same game differ only in how the opponents' unseen cards are
split between them.  Each is resumed in the middle of a hand with the person
to play; the table, the last-trick view and every position of the in-game
review must read the same, character for character.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from random import Random

from textual.widgets import Static

from stepping_stones.ai.knowledge import Knowledge
from stepping_stones.engine import card_name, cards_of
from stepping_stones.storage.records import game_from_record, record_from_game, write_record
from stepping_stones.storage.session import current_path
from stepping_stones.tui.dialogs import LastTrickScreen
from stepping_stones.tui.screens import ReviewScreen
from stepping_stones.tui.table import TableScreen
from tui_support import make_app, press, saved_game_near_the_end, widget_text


def regrouped(record, seed: int):
    """The same record, but the opponents' cards still unplayed in its last hand split another
    way that agrees with everything the person has seen (voids shown stay voids)."""
    game = game_from_record(record)
    hand = game.log[-1]
    know = Knowledge(game.view(0))
    now = {s: hand.state.hands[s] for s in (1, 2)}
    rng = Random(seed)
    for _ in range(200):
        layout = know.sample_layout(rng)
        if layout != now:
            break
    else:
        raise AssertionError("no other split of the unseen cards")
    deal = list(record.hands[-1].deal)
    for s in (1, 2):
        held = (hand.deal[s] & ~hand.state.hands[s]) | layout[s]
        deal[s] = " ".join(card_name(c) for c in cards_of(held))
    hands = [*record.hands[:-1], record.hands[-1].model_copy(update={"deal": deal})]
    other = record.model_copy(update={"hands": hands})
    game_from_record(other)  # every card still legal where it was played
    return other


async def screen_texts(pilot, screen) -> list[str]:
    # The analysis of a finished hand is solved in a worker, which hands its answer to the screen
    # before it completes: wait for it, so that every run reads the answer, never "working it out".
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()  # let the layout settle before reading
    return [f"{w.id}: {widget_text(w)}" for w in screen.query(Static) if w.display]


async def everything_the_person_sees() -> list[str]:
    app = make_app(resume=True)
    seen: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen) and table.game.to_act == 0
        seen += ["table", *await screen_texts(pilot, table)]
        await press(pilot, "t")
        assert isinstance(app.screen, LastTrickScreen)
        seen += ["last trick", *await screen_texts(pilot, app.screen)]
        await press(pilot, "escape")
        app.action_review()  # what the palette's "Review this game" runs
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await press(pilot, "end")
        seen += ["review end", *await screen_texts(pilot, review)]
        await press(pilot, "home")
        for _ in range(len(review.frames)):
            seen += [f"review {review.index}", *await screen_texts(pilot, review)]
            await press(pilot, "right")
    return seen


def test_no_screen_changes_when_only_the_split_of_the_unseen_cards_changes(home: Path):
    session = saved_game_near_the_end(seed="hidden", hands=2, cards_left=20, person_to_play=True)
    record = record_from_game(session.game)
    sidecar = current_path().with_suffix(".session.json").read_bytes()
    other = regrouped(record, seed=1)
    assert other.hands[-1].deal != record.hands[-1].deal

    texts = []
    for version in (record, other):
        shutil.rmtree(home / "data", ignore_errors=True)
        write_record(current_path(), version)
        current_path().with_suffix(".session.json").write_bytes(sidecar)
        texts.append(asyncio.run(everything_the_person_sees()))
    assert len(texts[0]) > 40
    assert texts[0] == texts[1]


def test_the_review_of_the_hand_in_progress_shows_only_the_persons_cards(home: Path):
    session = saved_game_near_the_end(seed="hidden-2", hands=1, cards_left=24, person_to_play=True)
    game = session.game
    hidden = game.log[-1].state.hands[1] | game.log[-1].state.hands[2]

    async def run():
        app = make_app(resume=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            app.action_review()
            await pilot.pause()
            await press(pilot, "end")
            return widget_text(app.screen.query_one("#review-table"))

    body = asyncio.run(run())
    assert "not shown" in body
    shown = {token[-2:] for token in body.split() if len(token) >= 2}
    assert not shown & {card_name(c) for c in cards_of(hidden)}
