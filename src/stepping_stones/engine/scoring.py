"""Ranking three results and paying +3/+1/-1, ties splitting the places."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .cards import NUM_SEATS, Seat
from .contracts import Contract, Goal

# The public names, re-exported by the engine's face (__init__.py).
__all__ = ["PLACE_POINTS", "contract_points", "score_results", "sheet_firsts", "sheet_totals", "winners"]

Sheet = Mapping[str, Sequence[int | None]]
"""The scoresheet: per contract id, each seat's kept result (None while not recorded)."""

PLACE_POINTS = (3, 1, -1)


def score_results(results: Sequence[int], goal: Goal) -> tuple[list[int], list[bool]]:
    """Points per seat and whether each seat placed first (alone or shared).

    Tied players share the points of the places they cover: two tied first
    take (3 + 1) / 2 = 2 each, two tied last (1 - 1) / 2 = 0 each, three tied
    (3 + 1 - 1) / 3 = 1 each.  The points always add up to 3.

    >>> score_results([7, 4, 5], Goal.WIN)
    ([3, -1, 1], [True, False, False])
    >>> score_results([2, 2, 5], Goal.LOSE)
    ([2, 2, -1], [True, True, False])
    """
    sign = 1 if goal is Goal.WIN else -1
    order = sorted(range(NUM_SEATS), key=lambda s: -sign * results[s])
    points = [0, 0, 0]
    i = 0
    while i < NUM_SEATS:
        j = i
        while j + 1 < NUM_SEATS and results[order[j + 1]] == results[order[i]]:
            j += 1
        share = sum(PLACE_POINTS[i : j + 1]) // (j - i + 1)
        for k in range(i, j + 1):
            points[order[k]] = share
        i = j + 1
    best = results[order[0]]
    firsts = [results[s] == best for s in range(NUM_SEATS)]
    return points, firsts


def winners(totals: Sequence[int], firsts: Sequence[int]) -> list[Seat]:
    """The winning seat(s): highest total, then most firsts; a tie after that is shared.

    >>> winners([4, 4, 4], [1, 2, 1])
    [1]
    >>> winners([5, 5, 2], [2, 2, 0])
    [0, 1]
    """
    top = max(totals)
    tied = [s for s in range(NUM_SEATS) if totals[s] == top]
    most = max(firsts[s] for s in tied)
    return [s for s in tied if firsts[s] == most]


def contract_points(row: Sequence[int | None], goal: Goal) -> list[int] | None:
    """The three seats' points for one contract once all three recorded it, else None.

    >>> contract_points([5, None, 7], Goal.WIN) is None, contract_points([5, 6, 7], Goal.WIN)
    (True, [-1, 1, 3])
    """
    results = [r for r in row if r is not None]
    if len(results) < NUM_SEATS:
        return None
    return score_results(results, goal)[0]


def sheet_totals(sheet: Sheet, contracts: Sequence[Contract]) -> list[int]:
    """Each seat's points over the scored contracts of ``sheet``."""
    totals = [0, 0, 0]
    for c in contracts:
        pts = contract_points(sheet[c.id], c.goal)
        if pts:
            for s in range(NUM_SEATS):
                totals[s] += pts[s]
    return totals


def sheet_firsts(sheet: Sheet, contracts: Sequence[Contract]) -> list[int]:
    """How many scored contracts each seat placed first in (a shared first counts)."""
    firsts = [0, 0, 0]
    for c in contracts:
        results = [r for r in sheet[c.id] if r is not None]
        if len(results) == NUM_SEATS:
            for s, first in enumerate(score_results(results, c.goal)[1]):
                firsts[s] += first
    return firsts
