"""The app's settings and where it keeps its files.

Settings are a small dataclass stored as JSON in the user's config folder,
and only when they differ from the defaults.  pydantic's validator
(``pydantic_core``, the part of pydantic that validates) checks the file when it
is read, and is only imported then: without a settings file the app's first
screen needs no pydantic, and with one it needs the validator alone rather than
all of pydantic (the import times: docs/tui.md).  Saved games live in
the user's data folder (both folders from platformdirs).  Setting
``STEPPING_STONES_HOME`` puts both folders under that directory instead (tests
use a temporary one).  ``NO_COLOR`` in the environment always wins over the
colour setting.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, Literal, get_args

from ..engine import CONTRACT_SETS, CONTRACTS, DEFAULT_CUT, Rules, RulesError
from ..game.choices import AI_LEVELS, DEFAULT_AI_LEVEL, Setup
from .files import atomic_write
from .safety import FileProblem, names_problem, read_small, strict_json

SETTINGS_LIMIT = 64 * 1024  # settings are a few lines; a larger file is not ours

HOME_ENV = "STEPPING_STONES_HOME"
APP_NAME = "stepping-stones"

Pace = Literal["instant", "fast", "normal", "slow"]
PACES: tuple[Pace, ...] = get_args(Pace)
Colour = Literal["auto", "colour", "mono"]
COLOURS: tuple[Colour, ...] = get_args(Colour)
OnlyCard = Literal["pace", "on", "off"]
ONLY_CARD: tuple[OnlyCard, ...] = get_args(OnlyCard)
SetName = str  # a key of the engine's CONTRACT_SETS (the settings file's validator checks it)
ContractId = str  # a key of the engine's CONTRACTS
NAME_LIMIT = 40  # the setup screen's fields hold a name to this many characters

# seconds an AI seat waits before each card, and before leading after a finished trick
PACE_DELAYS: dict[str, tuple[float, float]] = {
    "instant": (0.0, 0.0),
    "fast": (0.25, 0.8),
    "normal": (0.6, 1.6),
    "slow": (1.2, 3.0),
}


@dataclass
class Settings:
    """What the player chose once and wants kept: pace, colours, symbols.

    A plain dataclass, so that making one needs no pydantic; ``load_settings`` has pydantic's
    validator check a settings file against these fields and their types (unknown keys are
    ignored).
    """

    pace: Pace = "normal"
    colour: Colour = "auto"
    ascii: bool = False
    auto_last_card: bool = True  # the last card of a hand plays itself
    # the only legal card plays itself mid-hand: "pace" = at the fast and instant paces only
    only_card: OnlyCard = "pace"
    trick_pause: bool = True  # at instant pace, a finished trick stays in view for a moment
    bell: bool = True  # at a table on a server, the terminal's bell rings when it is the person's turn
    # the players the setup screen chose last (kept once a game starts): names and levels
    player: str = Setup.player
    seat1_name: str = Setup.names[0]
    seat2_name: str = Setup.names[1]
    seat1_level: str = DEFAULT_AI_LEVEL
    seat2_level: str = DEFAULT_AI_LEVEL
    # the rules the setup screen chose last (kept once a game starts)
    contract_set: SetName = "standard"
    short_game: bool = False
    omit: ContractId | None = None  # the contract a short game leaves out (None: the set's usual one)
    redo_tokens: bool = False

    @property
    def plays_only_card(self) -> bool:
        """Whether the person's only legal card plays itself in the middle of a hand."""
        return self.only_card == "on" or (self.only_card == "pace" and self.pace in ("fast", "instant"))

    def setup(self) -> Setup:
        """A new game's choices with the rules and players chosen last (names and levels as kept;
        a kept name the records' rule refuses brings back all three defaults, kept rules that do
        not hold together the standard rules)."""
        names = (self.player, self.seat1_name, self.seat2_name)
        if names_problem(names):
            names = (Setup.player, *Setup.names)
        try:
            rules = Rules(self.contract_set, self.short_game, self.omit, self.redo_tokens)
        except RulesError:
            rules = Rules()
        return Setup(
            rules=rules, player=names[0], names=(names[1], names[2]), levels=(self.seat1_level, self.seat2_level)
        )

    def remember(self, setup: Setup) -> None:
        """Keep ``setup``'s rules and players for the next launch (``save_settings`` writes them)."""
        self.player, (self.seat1_name, self.seat2_name) = setup.player, setup.names
        self.seat1_level, self.seat2_level = setup.levels
        rules = setup.rules
        self.contract_set = rules.contract_set
        self.short_game, self.redo_tokens = rules.short_game, rules.redo_tokens
        # a short game's usual cut is kept as None, so that a set's usual one is followed
        self.omit = rules.omit if rules.short_game and rules.omit != DEFAULT_CUT[rules.contract_set] else None

    @property
    def monochrome(self) -> bool:
        """Whether to draw without colour: asked for, or automatic with ``NO_COLOR`` set or a
        terminal that has too few colours to tell the suits apart."""
        if self.colour == "mono":
            return True
        return self.colour == "auto" and ("NO_COLOR" in os.environ or few_colours(os.environ.get("TERM", "")))

    def model_copy(self, *, update: Mapping[str, Any] | None = None) -> Settings:
        """A copy with the settings in ``update`` changed (the name pydantic models use for it,
        kept for the callers written when the settings were one)."""
        return replace(self, **(update or {}))


_FEW_COLOURS = {"dumb", "linux", "vt100", "vt102", "vt220", "ansi"}


def few_colours(term: str) -> bool:
    """Whether the terminal named ``term`` shows no colour, or too few for the suit colours
    (then every state is shown by bold, underline and reverse alone).

    >>> few_colours("xterm-mono"), few_colours("linux"), few_colours("xterm-256color")
    (True, True, False)
    """
    return term in _FEW_COLOURS or term.endswith(("-mono", "-m"))


def as_pace(text: str) -> Pace:
    """The pace named ``text`` (one of ``PACES``)."""
    for pace in PACES:
        if pace == text:
            return pace
    raise ValueError(f"unknown pace {text!r} (choose {', '.join(PACES)})")


def as_colour(text: str) -> Colour:
    """The colour mode named ``text`` (one of ``COLOURS``)."""
    for colour in COLOURS:
        if colour == text:
            return colour
    raise ValueError(f"unknown colour mode {text!r} (choose {', '.join(COLOURS)})")


def config_dir() -> Path:
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home) / "config"
    from platformdirs import user_config_dir

    return Path(user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home) / "data"
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False))


def settings_path() -> Path:
    return config_dir() / "settings.json"


def _validator() -> Any:
    """pydantic's validator for a settings file: an object whose known keys have a value of
    the field's type (a choice among the field's words, or a real ``true``/``false``); keys it
    does not know are ignored, and a missing key keeps its default."""
    from pydantic_core import SchemaValidator, core_schema  # only now: a file came from outside

    by_type = {  # the fields' annotations, as written (``from __future__ import annotations``)
        "Pace": core_schema.literal_schema(list(PACES)),
        "Colour": core_schema.literal_schema(list(COLOURS)),
        "OnlyCard": core_schema.literal_schema(list(ONLY_CARD)),
        "SetName": core_schema.literal_schema(list(CONTRACT_SETS)),
        "bool": core_schema.bool_schema(strict=True),
        "str": core_schema.str_schema(min_length=1, max_length=NAME_LIMIT),
        "ContractId | None": core_schema.nullable_schema(core_schema.literal_schema(list(CONTRACTS))),
    }
    levels = core_schema.literal_schema(list(AI_LEVELS))
    return SchemaValidator(
        core_schema.typed_dict_schema(
            {
                f.name: core_schema.typed_dict_field(
                    levels if f.name.endswith("_level") else by_type[str(f.type)], required=False
                )
                for f in fields(Settings)
            },
            extra_behavior="ignore",
        )
    )


def load_settings() -> Settings:
    """The saved settings, checked by pydantic's validator, or the defaults when there are none
    (or they cannot be read, or are not valid settings)."""
    try:
        data = strict_json(read_small(settings_path(), SETTINGS_LIMIT))
    except (FileProblem, ValueError):  # none (the first start), or not a file of settings
        return Settings()
    from pydantic_core import ValidationError

    try:
        return Settings(**_validator().validate_python(data))
    except ValidationError:
        return Settings()


def save_settings(settings: Settings) -> None:
    """Keep ``settings`` for the next start: written when they differ from the defaults, and
    any earlier file removed when they do not (so a player who never changed anything starts
    without reading one)."""
    try:
        if settings == Settings():
            settings_path().unlink(missing_ok=True)
        else:
            atomic_write(settings_path(), json.dumps(asdict(settings), indent=2) + "\n")
    except OSError:
        pass  # settings are a convenience; a read-only home must not stop the game
