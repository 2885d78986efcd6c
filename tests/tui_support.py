"""Helpers for the TUI tests: drive the app with key presses, read what is on screen."""

from __future__ import annotations

import asyncio
import re
from random import Random

from textual import events
from textual.geometry import Region

from stepping_stones.ai import RandomAI
from stepping_stones.engine import CONTRACTS, Phase, Rules
from stepping_stones.game.match import drive
from stepping_stones.storage.session import Session, Setup
from stepping_stones.storage.settings import Settings
from stepping_stones.tui.app import SteppingStonesApp
from stepping_stones.tui.dialogs import HandSummaryScreen
from stepping_stones.tui.screens import GameOverScreen
from stepping_stones.tui.widgets import CARD_KEYS

KEY_NAMES = {"-": "minus", "=": "equals_sign"}
_CHARS = {"minus": "-", "equals_sign": "=", "space": " ", "enter": "\r"}


async def press(pilot, *keys: str) -> None:
    """Press keys as the terminal would send them, then wait until the screen has handled them.

    The same key events as ``Pilot.press`` sends, but it waits for the screen's
    queues instead of for the whole process to be idle, which makes a
    600-key game several times faster.
    """
    app = pilot.app
    for key in keys:
        before = app.screen
        char = _CHARS.get(key, key if len(key) == 1 else None)
        event = events.Key(key, char)
        event.set_sender(app)
        app._driver.send_message(event)
        await asyncio.sleep(0)
        await pilot.pause(0)
        if app.screen is not before:
            await pilot.pause()  # a screen came or went: let it mount and settle


RULE_OPTIONS = ("contract_set", "short_game", "omit", "redo_tokens")


def make_app(resume: bool = False, settings: Settings | None = None, **setup) -> SteppingStonesApp:
    """The app with a setup screen filled in from ``setup``: the rules' options
    (``contract_set``, ``short_game``, ``omit``, ``redo_tokens``) and ``Setup``'s own fields."""
    setup.setdefault("levels", ("random", "random"))
    setup.setdefault("seed", "tui-test")
    rules = Rules(**{k: setup.pop(k) for k in RULE_OPTIONS if k in setup})
    settings = settings or Settings(pace="instant", colour="colour", trick_pause=False)
    return SteppingStonesApp(settings=settings, setup=Setup(rules=rules, **setup), resume=resume)


def saved_game_near_the_end(seed: str = "end", cards_left: int = 1, hands: int | None = None,
                            person_to_play: bool = False) -> Session:
    """Save a game (random legal moves) that stops ``cards_left`` cards before the end of a hand:
    the last hand of the game, or hand ``hands`` -- or, with ``person_to_play``, at the first
    position from there on where the person (seat 0) is to play."""
    session = Session.new(Setup(seed=seed, levels=("random", "random")))
    game = session.game
    last = hands or game.rules.max_hands

    def reached(game) -> bool:
        if game.over:
            raise AssertionError("the game ended before the wanted position")
        hand = game.log[-1] if game.log else None
        if hand is None or len(game.log) != last or not hand.declared:
            return False
        if person_to_play:
            return len(hand.plays) >= 36 - cards_left and game.to_act == 0 and not hand.finished
        return len(hand.plays) == 36 - cards_left

    drive(game, [RandomAI()] * 3, session.seeds, stop=reached)
    session.save()
    return session


def widget_text(widget) -> str:
    """The lines a widget shows on screen, as plain text."""
    w, h = widget.outer_size
    strips = widget.render_lines(Region(0, 0, w, h))
    return "\n".join(strip.text.rstrip() for strip in strips)


async def settled(pilot, widget, limit: int = 100) -> str:
    """The widget's text (words joined by single spaces) once the layout has caught up with it.

    A Static given a longer text is drawn at its old height until the next layout pass, so a read
    right after an update can be cut short; read until two reads a refresh apart agree.
    """
    before = None
    for _ in range(limit):
        await pilot.pause()
        text = " ".join(widget_text(widget).split())
        if text == before:
            return text
        before = text
    raise AssertionError(f"the text of {widget!r} never settled")


async def wait_for_person(pilot, limit: int = 100_000):
    """Let the AI seats act until the person must do something; return the screen then."""
    app = pilot.app
    await pilot.pause(0)
    for _ in range(limit):
        await asyncio.sleep(0.002)  # let the app (and the AI worker) run; cheaper than a full pause
        screen = app.screen
        if isinstance(screen, (HandSummaryScreen, GameOverScreen)) and screen.is_attached:
            await pilot.pause(0)
            return screen
        table = app.table
        if (
            table is not None
            and screen is table
            and not table.thinking
            and table.game.to_act == 0
            and table.game.phase in (Phase.BIDDING, Phase.PLAY)
        ):
            await pilot.pause(0)
            return screen
    raise AssertionError("the app never came back to the person")


async def press_card(pilot, table, index: int, rng: Random) -> None:
    """Choose the card at ``index`` of the shown hand by its number key or by arrows, then Enter."""
    n = len(table.my_cards())
    steps = (index - table.cursor) % n
    if steps == 0:
        pass
    elif steps <= 2 and rng.random() < 0.5:
        for _ in range(steps):
            await press(pilot, "right")
    elif n - steps <= 2 and rng.random() < 0.5:
        for _ in range(n - steps):
            await press(pilot, "left")
    else:
        await press(pilot, KEY_NAMES.get(CARD_KEYS[index], CARD_KEYS[index]))
    assert table.cursor == index
    await press(pilot, "enter")


async def human_bid(pilot, table, rng: Random, want_redo: bool = False) -> None:
    opts = table.bid_options()
    game = table.game
    choice = None
    if want_redo:
        redo = [i for i, (_, r) in enumerate(opts) if r]
        if redo:
            choice = redo[0]
    if choice is None:
        fresh = [i for i, (cid, r) in enumerate(opts) if cid is not None and not r]
        if game.in_puddle or (fresh and rng.random() < 0.45):
            choice = fresh[0] if fresh else None
    if choice is None:
        await press(pilot, "p")
        return
    for _ in range((choice - table.bid_index) % len(opts)):
        await press(pilot, "down")
    await press(pilot, rng.choice("91"))
    cid = opts[choice][0]
    if CONTRACTS[cid].picks_trump:
        await press(pilot, rng.choice("cklb"))
    await press(pilot, "enter")


async def press_action(pilot, table, action) -> None:
    """Make ``action`` (a bid or a card, as an engine value) at the table with key presses only."""
    game = table.game
    if game.phase is Phase.PLAY:
        await press_card(pilot, table, table.my_cards().index(action), Random(0))
        return
    if action.is_pass:
        await press(pilot, "p")
        return
    opts = table.bid_options()
    choice = opts.index((action.contract.id, action.redo))
    for _ in range((choice - table.bid_index) % len(opts)):
        await press(pilot, "down")
    await press(pilot, str(action.ranking))
    if action.trump is not None:
        await press(pilot, "cklb"[action.trump])
    await press(pilot, "enter")


async def human_turn(pilot, table, rng: Random, want_redo: bool = False) -> None:
    """The person's bid or card, by a simple rule: a random legal choice, made with key presses."""
    game = table.game
    if game.phase is Phase.BIDDING:
        await human_bid(pilot, table, rng, want_redo)
    else:
        cards = table.my_cards()
        legal = [i for i, c in enumerate(cards) if game.legal_cards_mask() >> c & 1]
        await press_card(pilot, table, rng.choice(legal), rng)


async def play_to_the_end(pilot, seed: int = 7, want_redo: bool = False, hands_seen: list | None = None):
    """Play the person's seat by a simple rule, through key presses only, until the game is over."""
    rng = Random(seed)
    app = pilot.app
    for _ in range(2000):
        screen = await wait_for_person(pilot)
        if isinstance(screen, GameOverScreen):
            return screen
        if isinstance(screen, HandSummaryScreen):
            if hands_seen is not None:
                hands_seen.append(screen.number)
            await press(pilot, "enter")
            continue
        table = app.table
        await human_turn(pilot, table, rng, want_redo and not table.game.redo_spent[0])
    raise AssertionError("the game did not end")


CELL = re.compile(r"·|-?\d+r?(?: [+-]\d+)?")


def parse_sheet(text: str, names: tuple[str, ...]) -> dict:
    """Read the scoresheet as shown: per seat the cells, total and firsts."""
    rows = {}
    for line in text.splitlines():
        stripped = line.strip(" │|")
        for seat, name in enumerate(names):
            if stripped.startswith(name + " "):
                rows[seat] = CELL.findall(stripped[len(name):])
    assert len(rows) == 3, text
    return rows


def sheet_from_screen(text: str, names: tuple[str, ...], contract_ids: tuple[str, ...]) -> dict:
    """The facts of the shown sheet in the shape of ``summary()``."""
    rows = parse_sheet(text, names)
    sheet = {cid: [None, None, None] for cid in contract_ids}
    points = {cid: [None, None, None] for cid in contract_ids}
    redo = set()
    totals, firsts = [0, 0, 0], [0, 0, 0]
    for seat, cells in rows.items():
        assert len(cells) == len(contract_ids) + 2, (seat, cells)
        for cid, cell in zip(contract_ids, cells, strict=False):
            if cell == "·":
                continue
            count, _, pts = cell.partition(" ")
            if count.endswith("r"):
                redo.add((cid, seat))
                count = count[:-1]
            sheet[cid][seat] = int(count)
            if pts:
                points[cid][seat] = int(pts)
        totals[seat] = int(cells[-2])
        firsts[seat] = int(cells[-1])
    points = {cid: (None if None in p else p) for cid, p in points.items()}
    return {"sheet": sheet, "points": points, "totals": totals, "firsts": firsts, "redo": redo}
