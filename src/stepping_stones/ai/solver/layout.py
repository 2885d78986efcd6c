"""What one solver tells the search: its parameters (``par``) and the rules of play (``rules``),
as flat int64 arrays (lists in the Python core), made once per solver from the engine's table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

# --- the parameters of one solver, in ``par`` ------------------------------------------------
P_DECLARER = 0
P_WIN = 1
P_TRUMP_MASK = 2
P_TRUMP_SUIT = 3  # -1: no trump
P_NINE_HIGH = 4
P_BEAT_LED = 7  # the follow rule's FollowSpec (the engine's ``legal_reply``)
P_TRUMP_OVER = 8
P_HORIZON = 9
P_ALL_COUNT = 10  # every trick counts
P_COUNTED = 16  # 12 flags: trick t counts
P_LEFT = 28  # 13 values: counted tricks from trick t on
P_MAXER = 41  # 3 flags: the seat wants more counted tricks for the declarer
PAR_SIZE = 44

# --- the rows of ``rules`` (36 cards each; card c of row R at R + c) ----------------------------
R_KEY = 0  # trick_keys: strength, plus a bonus for a trump
R_ABOVE = 36  # the cards of its suit that beat it
R_TAKERS = 72  # trick_takers: the cards that take a trick from it
R_ASC = 108  # the cards in order of key, weakest first (ties by card index)
R_DESC = 144  # strongest first (ties by card index)
R_PLACE = 72  # from an order's row, the row of each card's place in that order
RULES_SIZE = 252


def make_par(
    array: Callable[[list[int]], Any],
    *,
    declarer: int,
    win: bool,
    trump: int | None,
    nine_high: bool,
    beat_led: bool,
    trump_over: bool,
    horizon: int,
    counted: Sequence[int],
    counted_left: Sequence[int],
) -> Any:
    """``par`` for one solver (``array`` makes the core's array of a list)."""
    par = [0] * PAR_SIZE
    par[P_DECLARER] = declarer
    par[P_WIN] = int(win)
    par[P_TRUMP_MASK] = 0 if trump is None else 511 << (9 * trump)
    par[P_TRUMP_SUIT] = -1 if trump is None else trump
    par[P_NINE_HIGH] = int(nine_high)
    par[P_BEAT_LED] = int(beat_led)
    par[P_TRUMP_OVER] = int(trump_over)
    par[P_HORIZON] = horizon
    par[P_ALL_COUNT] = int(counted_left[0] == len(counted))
    par[P_COUNTED : P_COUNTED + len(counted)] = counted
    par[P_LEFT : P_LEFT + len(counted_left)] = counted_left
    par[P_MAXER : P_MAXER + 3] = [int((s == declarer) == win) for s in range(3)]
    return array(par)


@lru_cache(maxsize=64)
def make_rules(
    array: Callable[[list[int]], Any], keys: tuple[int, ...], above: tuple[int, ...], takers: tuple[int, ...]
) -> Any:
    """``rules`` for one ranking and trump (of the engine's ``trick_keys``, ``ABOVE`` and
    ``trick_takers``), made once per core (``array``) and shared by its solvers: the search only reads it.
    (Sorting the orders was a third of a fresh solver's cost on a 6-trick position.)"""
    rules = [0] * RULES_SIZE
    ascending = sorted(range(36), key=lambda c: (keys[c], c))
    descending = sorted(range(36), key=lambda c: (-keys[c], c))
    for c in range(36):
        rules[R_KEY + c] = keys[c]
        rules[R_ABOVE + c] = above[c]
        rules[R_TAKERS + c] = takers[c]
        rules[R_ASC + c] = ascending[c]
        rules[R_DESC + c] = descending[c]
        rules[R_ASC + R_PLACE + ascending[c]] = c
        rules[R_DESC + R_PLACE + descending[c]] = c
    return array(rules)
