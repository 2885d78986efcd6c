"""Contracts and contract sets, as data.

A contract is a goal, a trump rule, the tricks that count and a follow rule.
Nothing in the engine tests a contract's id: everything it needs is read from
these fields, so a new contract or a new set is a new table row, not new code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum

from .cards import NUM_SEATS, TRICKS
from .errors import RulesError


class Goal(Enum):
    WIN = "win"  # more tricks is better
    LOSE = "lose"  # fewer tricks is better


class FollowRule(IntEnum):
    STANDARD = 0  # follow the led suit if you can
    MAY_TRUMP = 1  # as standard, but a trump may be played over a non-trump lead
    MUST_BEAT = 2  # follow and beat the best card of the led suit if you can


@dataclass(frozen=True)
class Contract:
    id: str
    name: str
    goal: Goal
    picks_trump: bool
    first_counted: int  # 1-based number of the first trick that counts
    follow: FollowRule
    label: str = ""  # short column heading for a scoresheet
    summary: str = ""

    @property
    def counted_mask(self) -> int:
        """Bit ``t`` set for each counted trick ``t`` (0-based).

        >>> bin(CONTRACTS["win-last-6"].counted_mask)
        '0b111111000000'
        """
        return ((1 << TRICKS) - 1) & ~((1 << (self.first_counted - 1)) - 1)

    @property
    def tricks_counted(self) -> int:
        """How many tricks of a hand count for this contract (12, or 6 for Win Last 6)."""
        return TRICKS + 1 - self.first_counted

    @property
    def is_win(self) -> bool:
        return self.goal is Goal.WIN

    def better(self, a: int, b: int) -> bool:
        """Whether result ``a`` is strictly better than ``b`` for this contract."""
        return a > b if self.goal is Goal.WIN else a < b


CONTRACTS: dict[str, Contract] = {
    c.id: c
    for c in (
        Contract("win-no-trump", "Win Tricks (No Trump)", Goal.WIN, False, 1, FollowRule.STANDARD, "Win NT",
                 "Take as many tricks as you can. No trump."),
        Contract("win-pick-trump", "Win Tricks (Pick Trump)", Goal.WIN, True, 1, FollowRule.STANDARD, "Win PT",
                 "Take as many tricks as you can, with the trump suit you pick."),
        Contract("lose-no-trump", "Lose Tricks (No Trump)", Goal.LOSE, False, 1, FollowRule.STANDARD, "Lose NT",
                 "Take as few tricks as you can. No trump."),
        Contract("lose-pick-trump", "Lose Tricks (Pick Trump)", Goal.LOSE, True, 1, FollowRule.STANDARD, "Lose PT",
                 "Take as few tricks as you can, with the trump suit you pick."),
        Contract("win-last-6", "Win Last 6", Goal.WIN, False, 7, FollowRule.STANDARD, "Last 6",
                 "Only tricks 7 to 12 count: take as many of them as you can. No trump."),
        Contract("may-trump", "May Trump", Goal.WIN, True, 1, FollowRule.MAY_TRUMP, "May Trump",
                 "Take as many tricks as you can. A trump may be played even while holding the led suit."),
        Contract("must-beat", "Must Beat", Goal.LOSE, False, 1, FollowRule.MUST_BEAT, "Must Beat",
                 "Take as few tricks as you can. A follower must beat the led suit's best card when able."),
    )
}

CONTRACT_SETS: dict[str, tuple[str, ...]] = {
    "standard": ("win-no-trump", "win-pick-trump", "lose-no-trump", "lose-pick-trump"),
    "advanced": ("win-pick-trump", "win-last-6", "may-trump", "must-beat"),
}

DEFAULT_CUT: dict[str, str] = {"standard": "win-no-trump", "advanced": "win-pick-trump"}
"""The contract a short game leaves out when the players name none."""


@dataclass(frozen=True)
class Rules:
    """The options of one game: contract set, short game and the contract it leaves out, redo tokens.

    ``omit`` is the contract a short game leaves out.  Left as ``None`` it is
    the set's default cut, and it reads back as that contract: the same game
    always has the same ``Rules``, however it was described.

    >>> Rules("standard", short_game=True).omit
    'win-no-trump'
    >>> Rules("standard", short_game=True) == Rules("standard", True, "win-no-trump")
    True
    >>> Rules("advanced", redo_tokens=True).describe()
    'Advanced set, redo tokens'
    >>> Rules("standard", short_game=True, omit="lose-pick-trump").describe(brief=True)
    'Standard set, short'
    >>> Rules("standard", omit="lose-pick-trump")
    Traceback (most recent call last):
    ...
    stepping_stones.engine.errors.RulesError: a contract can only be left out in the short game
    """

    contract_set: str = "standard"
    short_game: bool = False
    omit: str | None = None
    redo_tokens: bool = False
    contracts: tuple[Contract, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.contract_set not in CONTRACT_SETS:
            raise RulesError(
                f"unknown contract set {self.contract_set!r} (choose {' or '.join(CONTRACT_SETS)})"
            )
        ids = CONTRACT_SETS[self.contract_set]
        if not self.short_game:
            if self.omit is not None:
                raise RulesError("a contract can only be left out in the short game")
            in_play = ids
        else:
            if self.omit is None:
                object.__setattr__(self, "omit", DEFAULT_CUT[self.contract_set])
            elif self.omit not in ids:
                raise RulesError(f"{self.omit!r} is not a contract of the {self.contract_set} set")
            in_play = tuple(i for i in ids if i != self.omit)
        object.__setattr__(self, "contracts", tuple(CONTRACTS[i] for i in in_play))

    @property
    def contract_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.contracts)

    @property
    def hands(self) -> int:
        """Hands in a game without redos: each player declares each contract once."""
        return NUM_SEATS * len(self.contracts)

    @property
    def max_hands(self) -> int:
        """Hands in a game at most: one more per redo token."""
        return self.hands + (NUM_SEATS if self.redo_tokens else 0)

    def describe(self, brief: bool = False) -> str:
        """The options in words, as every screen and command shows them."""
        text = f"{self.contract_set.capitalize()} set"
        if self.short_game and self.omit is not None:
            text += ", short" if brief else f", short game without {CONTRACTS[self.omit].name}"
        if self.redo_tokens:
            text += ", redo" if brief else ", redo tokens"
        return text

    def as_dict(self) -> dict[str, str | bool | None]:
        """The options as a game record and the commands' JSON write them."""
        return {
            "contract_set": self.contract_set,
            "short_game": self.short_game,
            "omit": self.omit,
            "redo_tokens": self.redo_tokens,
        }
