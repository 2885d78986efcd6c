"""The setup screen: the first screen of the app, so it imports only what it draws.

No AI, no records, no rich tables: the level names come from ``choices``, and everything a game
needs is imported once "Start game" is chosen (``docs/tui.md``, "How fast it is").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Static

from ..engine import CONTRACT_SETS, CONTRACTS, DEFAULT_CUT, Rules
from ..game.choices import AI_LEVEL_WORDS, AI_LEVELS, DEFAULT_AI_LEVEL, SEED_LENGTH, Setup
from ..storage.safety import names_problem
from ..storage.settings import ONLY_CARD, PACES, as_colour, as_pace, save_settings
from .host import host
from .widgets import Choice, KeyBar, SolverNotice, TooSmall


def _yes_no(what: str) -> list[tuple[str, str]]:
    return [("no", "no"), (f"yes, {what}", "yes")]


def _yn(flag: bool) -> str:
    return "yes" if flag else "no"


def _field(label: str, field: Input) -> Horizontal:
    return Horizontal(Static(label, classes="label"), field, classes="row")


class SetupScreen(Screen[None]):
    """Choose the rules and the opponents; Enter starts with what is shown.

    Each choice is one widget that draws its own label, and there is no Start button (Enter,
    Ctrl+S or a click on "Start game" in the footer start): few widgets, so that the screen is
    drawn quickly.  Nothing has the focus at first; Tab goes to the first choice.
    """

    AUTO_FOCUS = ""  # nothing focused: Enter starts, Tab goes to the first choice
    BINDINGS = [
        Binding("ctrl+s", "start", "Start game", id="start", key_display="⏎/^S"),
        Binding("enter", "start", "Start game", show=False),
        Binding("f1", "help", "Rules", id="help"),
        Binding("f2", "app.history", "History", id="history"),
        Binding("f3", "app.stats", "Statistics", id="stats"),
        Binding("f4", "app.online", "Online", id="online"),
    ]

    def __init__(self, setup: Setup | None = None) -> None:
        super().__init__()
        self.setup = setup or Setup()

    @property
    def rules(self) -> Rules:
        return self.setup.rules

    def _set_rules(self, **changes: Any) -> None:
        self.setup = replace(self.setup, rules=replace(self.setup.rules, **changes))

    def compose(self) -> ComposeResult:
        s = self.setup
        r = s.rules
        settings = host(self).settings
        yield TooSmall(id="too-small")
        with Vertical(classes="body", id="setup"):
            yield Static(
                Text.assemble(("Stepping Stones", "bold"), " - a new game for three: you and two computer players"),
                id="setup-title",
            )
            with Horizontal(id="setup-columns"):
                with VerticalScroll(id="setup-rules", can_focus=False):
                    yield Static("Rules", classes="heading")
                    yield Choice(
                        "Contract set",
                        [("Standard", "standard"), ("Advanced", "advanced")],
                        r.contract_set,
                        id="contract_set",
                    )
                    yield Choice("Short game", _yes_no("9 hands"), _yn(r.short_game), id="short_game")
                    yield Choice(
                        "Left out",
                        self._cut_options(r.contract_set),
                        r.omit or DEFAULT_CUT[r.contract_set],
                        id="omit",
                        disabled=not r.short_game,
                    )
                    yield Choice("Redo tokens", _yes_no("one each"), _yn(r.redo_tokens), id="redo_tokens")
                    yield _field(
                        "Deal seed",
                        Input(s.seed or "", placeholder="random", compact=True, id="seed", max_length=SEED_LENGTH),
                    )
                    yield Static("Display", classes="heading")
                    yield Choice("AI pace", [(p, p) for p in PACES], settings.pace, id="pace")
                    yield Choice(
                        "Colours",
                        [("automatic", "auto"), ("colour", "colour"), ("monochrome", "mono")],
                        settings.colour,
                        id="colour",
                    )
                    yield Choice(
                        "Symbols", [("suit symbols", "no"), ("ASCII only", "yes")], _yn(settings.ascii), id="ascii"
                    )
                    # the only legal card, mid-hand: played for you at the fast paces, always, or never
                    only = dict(zip(ONLY_CARD, ("auto if fast/instant", "auto", "you play it"), strict=True))
                    yield Choice("Forced card", [(only[o], o) for o in ONLY_CARD], settings.only_card, id="only_card")
                with VerticalScroll(id="setup-seats", can_focus=False):
                    yield Static("Players", classes="heading")
                    yield _field("Your name", Input(s.player, max_length=40, compact=True, id="player"))
                    levels = [(level, level) for level in AI_LEVELS]
                    for i in range(2):  # seats 1 and 2, as in the game records (you are seat 0)
                        yield _field(
                            f"Seat {i + 1} name", Input(s.names[i], max_length=40, compact=True, id=f"name{i}")
                        )
                        level = s.levels[i] if s.levels[i] in AI_LEVELS else DEFAULT_AI_LEVEL
                        yield Choice(f"Seat {i + 1} level", levels, level, id=f"level{i}")
                    yield Static("\n".join(f"{name}: {AI_LEVEL_WORDS[name]}" for name in AI_LEVELS), id="setup-levels")
                    yield Static(id="setup-error")
            yield SolverNotice(id="solver-notice")
            yield Static(self._describe(), id="setup-summary")
        yield KeyBar(id="setup-keys")

    @staticmethod
    def _cut_options(contract_set: str) -> list[tuple[str, str]]:
        usual = DEFAULT_CUT[contract_set]
        return [(CONTRACTS[c].label + (" (usual)" if c == usual else ""), c) for c in CONTRACT_SETS[contract_set]]

    def _describe(self) -> Text:
        rules = self.rules
        return Text(f"{rules.describe()}: {rules.hands} hands. Enter starts.", style="italic")

    def on_choice_changed(self, event: Choice.Changed) -> None:
        sid = event.choice.id
        rules = self.rules
        omit_choice = self.query_one("#omit", Choice)
        if sid == "contract_set" and event.value != rules.contract_set:
            omit_choice.set_options(self._cut_options(event.value), DEFAULT_CUT[event.value])
            self._set_rules(contract_set=event.value, omit=None)
        elif sid == "omit" and rules.short_game:
            self._set_rules(omit=event.value)
        elif sid == "short_game":
            short = event.value == "yes"
            self._set_rules(short_game=short, omit=omit_choice.value if short else None)
            omit_choice.disabled = not short
        elif sid == "redo_tokens":
            self._set_rules(redo_tokens=event.value == "yes")
        elif sid == "ascii":  # the display choices take effect now, and are kept once a game starts
            if host(self).settings.ascii != (event.value == "yes"):
                host(self).settings.ascii = event.value == "yes"
                host(self).show_ascii()
        elif sid == "pace":
            host(self).settings.pace = as_pace(event.value)
        elif sid == "only_card":
            host(self).settings.only_card = next(o for o in ONLY_CARD if o == event.value)
        elif sid == "colour" and event.value != host(self).settings.colour:
            host(self).settings.colour = as_colour(event.value)
            host(self).apply_colour_mode()
        self.query_one("#setup-summary", Static).update(self._describe())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def read_form(self) -> Setup | None:
        names = [self.query_one(f"#{wid}", Input).value.strip() for wid in ("player", "name0", "name1")]
        problem = names_problem(names)  # the same rule as for the names in a game record
        if problem:
            self.query_one("#setup-error", Static).update(Text(f"{problem[0].upper()}{problem[1:]}.", style="bold red"))
            return None
        self.setup = replace(
            self.setup,
            player=names[0],
            names=(names[1], names[2]),
            levels=(self.query_one("#level0", Choice).value, self.query_one("#level1", Choice).value),
            seed=self.query_one("#seed", Input).value.strip() or None,
        )
        return self.setup

    def action_start(self) -> None:
        setup = self.read_form()
        if setup is not None:
            host(self).settings.remember(setup)  # the players, for the next launch
            save_settings(host(self).settings)
            host(self).start_new_game(setup)

    def action_help(self) -> None:
        host(self).action_help(self.rules)
