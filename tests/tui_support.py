"""Helpers for the TUI tests: drive the app with key presses, read what is on screen."""

from __future__ import annotations

import contextlib
import html
import re
from random import Random

from textual.geometry import Region
from textual.worker import WorkerCancelled

from stepping_stones.ai import RandomAI
from stepping_stones.engine import CONTRACTS, Phase, Rules
from stepping_stones.game.match import drive
from stepping_stones.storage import settings as settings_module
from stepping_stones.storage.session import Session, Setup
from stepping_stones.storage.settings import Settings
from stepping_stones.tui.app import SteppingStonesApp
from stepping_stones.tui.dialogs import HandSummaryScreen
from stepping_stones.tui.screens import GameOverScreen
from stepping_stones.tui.widgets import CARD_KEYS

KEY_NAMES = {"-": "minus", "=": "equals_sign"}
_CHARS = {"minus": "-", "equals_sign": "=", "space": " ", "enter": "\r"}


async def press(pilot, *keys: str) -> None:
    """Press keys through Pilot (which waits until the screen has handled them); when a screen
    came or went, let the new one mount and lay itself out."""
    before = pilot.app.screen
    await pilot.press(*keys)
    if pilot.app.screen is not before:
        await pilot.pause()


TABLE_WORK = ("ai", "hint")
"""The table's worker groups: the AI seats and the hints (a hand's analysis is not waited for)."""


async def settle(pilot) -> None:
    """Let the table's workers finish, and the messages they sent be handled (no clock)."""
    app = pilot.app
    while busy := [w for w in app.workers if w.group in TABLE_WORK and not w.is_finished]:
        with contextlib.suppress(WorkerCancelled):  # the table was left: its answers are not wanted
            await app.workers.wait_for_complete(busy)
        await pilot.pause(0)
    await pilot.pause(0)


RULE_OPTIONS = ("contract_set", "short_game", "omit", "redo_tokens")


def make_app(resume: bool = False, settings: Settings | None = None, **setup) -> SteppingStonesApp:
    """The app with a setup screen filled in from ``setup``: the rules' options
    (``contract_set``, ``short_game``, ``omit``, ``redo_tokens``) and ``Setup``'s own fields."""
    setup.setdefault("levels", ("random", "random"))
    setup.setdefault("seed", "tui-test")
    rules = Rules(**{k: setup.pop(k) for k in RULE_OPTIONS if k in setup})
    # the only legal card is played by the tests themselves, as by a person who switched it off
    settings = settings or Settings(pace="instant", colour="colour", trick_pause=False, only_card="off")
    app = SteppingStonesApp(settings=settings, setup=Setup(rules=rules, **setup), resume=resume)
    return app


def saved_game_near_the_end(
    seed: str = "end", cards_left: int = 1, hands: int | None = None, person_to_play: bool = False
) -> Session:
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


def screen_rows(app) -> list[str]:
    """The rows of the terminal as the app last drew them (from its screenshot), as plain text."""
    width, height = app.size
    grid = [[" "] * width for _ in range(height)]
    svg = app.export_screenshot()
    pattern = r'<text [^>]*?x="([\d.]+)" [^>]*?clip-path="url\(#terminal-(?:\w+-)?line-(\d+)\)"[^>]*>(.*?)</text>'
    for m in re.finditer(pattern, svg):
        column, row = round(float(m.group(1)) / 12.2), int(m.group(2))  # 12.2 px a column
        for i, ch in enumerate(html.unescape(m.group(3)).replace("\xa0", " ")):
            if row < height and column + i < width:
                grid[row][column + i] = ch
    return ["".join(row).rstrip() for row in grid]


def widget_text(widget) -> str:
    """The lines a widget shows on screen, as plain text."""
    w, h = widget.outer_size
    strips = widget.render_lines(Region(0, 0, w, h))
    return "\n".join(strip.text.rstrip() for strip in strips)


async def analysed(pilot) -> None:
    """Let the analyses being worked out (a hand's summary, the review) finish and show."""
    app = pilot.app
    while busy := [w for w in app.workers if w.group == "analysis" and not w.is_finished]:
        with contextlib.suppress(WorkerCancelled):
            await app.workers.wait_for_complete(busy)
    await pilot.pause()


async def settled(pilot, widget) -> str:
    """The widget's text (words joined by single spaces) once the layout has caught up with it:
    a Static given a longer text is drawn at its old height until the next layout pass."""
    await settle(pilot)
    await pilot.pause()
    return " ".join(widget_text(widget).split())


def hold_the_computers(monkeypatch, app) -> None:
    """From now on the computer players wait an hour before each card shows (the slow pace, made
    an hour long): their answers are worked out and held, so a test sees "the next player thinks"
    for as long as it likes, whatever the machine's load (the wait is a timer that never fires
    before the test ends)."""
    monkeypatch.setitem(settings_module.PACE_DELAYS, "slow", (3600.0, 3600.0))
    app.settings.pace = "slow"


async def wait_for_person(pilot, limit: int = 10_000):
    """Let the AI seats act until the person must do something; return the screen then."""
    app = pilot.app
    for _ in range(limit):
        screen = app.screen
        if isinstance(screen, (HandSummaryScreen, GameOverScreen)) and screen.is_attached:
            return screen
        table = app.table
        if table is not None and screen is table and table.state.my_turn:
            return screen
        await settle(pilot)
    raise AssertionError("the app never came back to the person")


async def press_card(pilot, table, index: int, rng: Random) -> None:
    """Choose the card at ``index`` of the shown hand by its number key or by arrows, then Enter."""
    n = len(table.state.my_cards)
    steps = (index - table.state.cursor) % n
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
    assert table.state.cursor == index
    await press(pilot, "enter")


async def human_bid(pilot, table, rng: Random, want_redo: bool = False) -> None:
    opts = table.state.bid_options
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
    for _ in range((choice - table.state.bid.index) % len(opts)):
        await press(pilot, "down")
    await press(pilot, rng.choice("91"))
    cid = opts[choice][0]
    if CONTRACTS[cid].picks_trump:
        await press(pilot, rng.choice("cklb"))
    await press(pilot, "enter")


async def human_turn(pilot, table, rng: Random, want_redo: bool = False) -> None:
    """The person's bid or card, by a simple rule: a random legal choice, made with key presses."""
    game = table.game
    if game.phase is Phase.BIDDING:
        await human_bid(pilot, table, rng, want_redo)
    else:
        cards = table.state.my_cards
        legal = [i for i, c in enumerate(cards) if game.legal_cards_mask() >> c & 1]
        await press_card(pilot, table, rng.choice(legal), rng)


async def play_until(pilot, stop, rng: Random | int = 1, summaries: list | None = None, limit: int = 3000):
    """Play the person's seat at random, through key presses, until ``stop(app, screen)`` holds at a
    moment the person is to act (their turn at the table, or a hand's summary); return that screen.
    The numbers of the hand summaries passed on the way are added to ``summaries``."""
    rng = rng if isinstance(rng, Random) else Random(rng)
    app = pilot.app
    for _ in range(limit):
        screen = await wait_for_person(pilot)
        if stop(app, screen):
            await pilot.pause()
            return screen
        if isinstance(screen, HandSummaryScreen):
            if summaries is not None:
                summaries.append(screen.number)
            await press(pilot, "enter")
            continue
        assert not isinstance(screen, GameOverScreen), "the game ended first"
        await human_turn(pilot, app.table, rng)
    raise AssertionError("never got there")


async def play_until_turn(pilot, stop, rng: Random | int = 1, summaries: list | None = None):
    """``play_until`` with ``stop(table)``, asked only at the person's turn at the table; return the table."""
    return await play_until(pilot, lambda app, screen: screen is app.table and stop(app.table), rng, summaries)


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
                rows[seat] = CELL.findall(stripped[len(name) :])
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
