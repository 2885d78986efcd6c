"""Contracts and contract sets, as data.

A contract is a goal, a trump rule, the tricks that count and a follow rule.
Nothing in the engine tests a contract's id: everything it needs is read from
these fields, so a new contract or a new set is a new table row, not new code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from types import MappingProxyType

from .cards import ABOVE, NUM_CARDS, NUM_SEATS, NUM_SUITS, RANKINGS, SUIT_MASKS, SUIT_OF, TRICKS
from .errors import RulesError

# The public names, re-exported by the engine's face (__init__.py).
__all__ = [
    "CONTRACT_SETS",
    "CONTRACTS",
    "DEFAULT_CUT",
    "FOLLOW_SPECS",
    "Contract",
    "FollowRule",
    "FollowSpec",
    "Goal",
    "Rules",
    "legal_reply",
    "trick_takers",
    "trick_winner",
]


class Goal(Enum):
    WIN = "win"  # more tricks is better
    LOSE = "lose"  # fewer tricks is better


class FollowRule(IntEnum):
    STANDARD = 0  # follow the led suit if you can
    MAY_TRUMP = 1  # as standard, but a trump may be played over a non-trump lead
    MUST_BEAT = 2  # follow and beat the best card of the led suit if you can


@dataclass(frozen=True)
class FollowSpec:
    """What a follow rule lets a follower play who holds a card of the led suit (one who holds
    none may play any card, under every rule).  A follow rule is one row of ``FOLLOW_SPECS``:
    the engine's legality, its refusals and the solvers all read these fields, never the rule.
    """

    beat_led: bool
    """It must play a card of the led suit that beats the best one played so far, if it holds
    one (else any card of the led suit)."""
    trump_over: bool
    """It may play a trump instead of following (when the led suit is not trump)."""


FOLLOW_SPECS: Mapping[FollowRule, FollowSpec] = MappingProxyType(
    {
        FollowRule.STANDARD: FollowSpec(beat_led=False, trump_over=False),
        FollowRule.MAY_TRUMP: FollowSpec(beat_led=False, trump_over=True),
        FollowRule.MUST_BEAT: FollowSpec(beat_led=True, trump_over=False),
    }
)
"""Per follow rule, what a follower holding the led suit may play (see ``FollowSpec``)."""


def legal_reply(hand: int, led: int, beat: int, trump_mask: int, spec: FollowSpec) -> int:
    """The cards a follower holding ``hand`` may play to a trick under the rule ``spec``:
    ``led`` is the mask of the led suit, ``beat`` the cards of that suit that beat its best card
    played so far, ``trump_mask`` the trump suit (0 without trump).  (The solvers write these
    lines out in their hot loops, reading the same two fields, so a new row of ``FOLLOW_SPECS``
    holds for them too.)

    >>> from stepping_stones.engine import ABOVE, SUIT_MASKS, mask_of, parse_card, format_cards
    >>> hand = mask_of(parse_card(c) for c in "C2 C7 K1".split())
    >>> led, beat, koi = SUIT_MASKS[0], ABOVE[9][parse_card("C5")], SUIT_MASKS[1]
    >>> format_cards(legal_reply(hand, led, beat, koi, FOLLOW_SPECS[FollowRule.STANDARD]))
    'C2, C7'
    >>> format_cards(legal_reply(hand, led, beat, koi, FOLLOW_SPECS[FollowRule.MUST_BEAT]))
    'C7'
    >>> format_cards(legal_reply(hand, led, beat, koi, FOLLOW_SPECS[FollowRule.MAY_TRUMP]))
    'C2, C7, K1'
    """
    follow = hand & led
    if not follow:
        return hand
    legal = follow
    if spec.beat_led:
        legal = (follow & beat) or follow
    if spec.trump_over:
        legal |= hand & trump_mask
    return legal


def _takers_table(ranking: int, trump: int | None) -> tuple[int, ...]:
    trumps = 0 if trump is None else SUIT_MASKS[trump]
    return tuple(ABOVE[ranking][c] | (0 if SUIT_OF[c] == trump else trumps) for c in range(NUM_CARDS))


_TAKERS = {(r, t): _takers_table(r, t) for r in RANKINGS for t in (*range(NUM_SUITS), None)}


def trick_takers(ranking: int, trump: int | None) -> tuple[int, ...]:
    """The trick winner's rule: per card ``c`` winning a trick, the cards that would take the
    trick from it -- the higher cards of its suit under ``ranking``, and every trump unless
    ``c`` is one.  (Cards of another suit never win.)  A trick is won by its first card, unless
    a later card is among the takers of the card winning it so far (see ``trick_winner``).

    >>> from stepping_stones.engine import format_cards, parse_card
    >>> format_cards(trick_takers(9, 1)[parse_card("C7")])
    'C8, C9, K1, K2, K3, K4, K5, K6, K7, K8, K9'
    >>> format_cards(trick_takers(1, None)[parse_card("C3")])
    'C1, C2'
    """
    return _TAKERS[ranking, trump]


def trick_winner(cards: Sequence[int], takers: Sequence[int]) -> int:
    """The index in ``cards`` (in play order) of the card that wins, or is winning, the trick,
    with ``takers`` from ``trick_takers``.

    >>> from stepping_stones.engine import parse_card
    >>> trick_winner([parse_card(c) for c in "C5 C9 K1".split()], trick_takers(9, 1))
    2
    """
    best = 0
    for i in range(1, len(cards)):
        if 1 << cards[i] & takers[cards[best]]:
            best = i
    return best


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
        Contract(
            "win-no-trump",
            "Win Tricks (No Trump)",
            Goal.WIN,
            False,
            1,
            FollowRule.STANDARD,
            "Win NT",
            "Take as many tricks as you can. No trump.",
        ),
        Contract(
            "win-pick-trump",
            "Win Tricks (Pick Trump)",
            Goal.WIN,
            True,
            1,
            FollowRule.STANDARD,
            "Win PT",
            "Take as many tricks as you can, with the trump suit you pick.",
        ),
        Contract(
            "lose-no-trump",
            "Lose Tricks (No Trump)",
            Goal.LOSE,
            False,
            1,
            FollowRule.STANDARD,
            "Lose NT",
            "Take as few tricks as you can. No trump.",
        ),
        Contract(
            "lose-pick-trump",
            "Lose Tricks (Pick Trump)",
            Goal.LOSE,
            True,
            1,
            FollowRule.STANDARD,
            "Lose PT",
            "Take as few tricks as you can, with the trump suit you pick.",
        ),
        Contract(
            "win-last-6",
            "Win Last 6",
            Goal.WIN,
            False,
            7,
            FollowRule.STANDARD,
            "Last 6",
            "Only tricks 7 to 12 count: take as many of them as you can. No trump.",
        ),
        Contract(
            "may-trump",
            "May Trump",
            Goal.WIN,
            True,
            1,
            FollowRule.MAY_TRUMP,
            "May Trump",
            "Take as many tricks as you can. A trump may be played even while holding the led suit.",
        ),
        Contract(
            "must-beat",
            "Must Beat",
            Goal.LOSE,
            False,
            1,
            FollowRule.MUST_BEAT,
            "Must Beat",
            "Take as few tricks as you can. A follower must beat the led suit's best card when able.",
        ),
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
            raise RulesError(f"unknown contract set {self.contract_set!r} (choose {' or '.join(CONTRACT_SETS)})")
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
