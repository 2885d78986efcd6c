"""Ratings: OpenSkill's Plackett-Luce model over each finished game's places on the sheet.

A rating is a ``Skill``, OpenSkill's belief about a player (``mu``, how good, and ``sigma``, how
sure), and is shown as one whole number: the library's ordinal, ``mu - 3 sigma`` (what the player
is at least, very likely), scaled by ``SHOWN_SCALE`` around ``SHOWN_BASE`` (a new player shows
1000).  A finished game is three players placed by the sheet: the higher total first, then the
more firsts, and a tie after that shares the place (``places``, the engine's winner rule), which
OpenSkill takes as ranks with ties.  Each computer level is a player of its own
(``computer_id``); a level that sits in two seats of one game is rated as two players, and its
new rating is the mean of the two (``rate``).

Pure: no disk and no network; the store (``players``) keeps the figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from ..engine import NUM_SEATS

SHOWN_SCALE: Final = 40.0
"""How many shown points one unit of OpenSkill's ``mu`` is worth."""
SHOWN_BASE: Final = 1000.0
"""What a new player shows (``mu - 3 sigma`` is 0 for OpenSkill's new player)."""
COMPUTER_PREFIX: Final = "computer-"


@dataclass(frozen=True)
class Skill:
    """One player's rating: OpenSkill's ``mu`` and ``sigma``."""

    mu: float
    sigma: float


def model() -> PlackettLuce:
    """OpenSkill's Plackett-Luce model with its own defaults (a new player is mu 25, sigma 25/3)."""
    return PlackettLuce()


def fresh() -> Skill:
    """A new player's rating, as the model makes it."""
    new = model().rating()
    return Skill(new.mu, new.sigma)


def shown(skill: Skill) -> int:
    """The rating as a person reads it: the model's ordinal (mu - 3 sigma), scaled.

    >>> shown(fresh())
    1000
    """
    rating = model().rating(mu=skill.mu, sigma=skill.sigma)
    return round(rating.ordinal(3.0, SHOWN_SCALE, SHOWN_BASE))


def computer_id(level: str) -> str:
    """The player that a computer level is: ``computer-expert``."""
    return COMPUTER_PREFIX + level


def places(totals: Sequence[int], firsts: Sequence[int]) -> list[int]:
    """Each seat's place on the sheet (1 is first): the higher total, then the more firsts; seats
    tied on both share the place.

    >>> places([5, 5, -2], [2, 1, 0]), places([3, 3, 1], [1, 1, 0])
    ([1, 2, 3], [1, 1, 3])
    """
    keys = [(totals[s], firsts[s]) for s in range(NUM_SEATS)]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def rate(players: Sequence[str], skills: dict[str, Skill], placed: Sequence[int]) -> dict[str, Skill]:
    """The new rating of each of ``players`` (one a seat, by id; an id may sit twice) after a game
    in which they took ``placed``: OpenSkill's Plackett-Luce update with the places as ranks, each
    seat a team of one.  A player in two seats takes the mean of their two new ratings."""
    plackett = model()
    teams = [[plackett.rating(mu=skills[p].mu, sigma=skills[p].sigma)] for p in players]
    after = plackett.rate(teams, ranks=[float(p) for p in placed])
    new: dict[str, list[Skill]] = {}
    for player, team in zip(players, after, strict=True):
        new.setdefault(player, []).append(Skill(team[0].mu, team[0].sigma))
    return {
        player: Skill(sum(s.mu for s in seen) / len(seen), sum(s.sigma for s in seen) / len(seen))
        for player, seen in new.items()
    }
