"""Lines that sum up a table for the person: a finished hand, the game's result, the scoresheet;
and the small word helpers every front end shares (``plural``, ``short_names``, ``simulate_command``).

It may import the engine's public face only (see the package).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from ..engine import (
    NUM_SEATS,
    TRICKS,
    Goal,
    PlayerView,
    PublicView,
    Rules,
    contract_points,
)
from .teller import Teller


def summary_lines(view: PlayerView | PublicView, number: int, arrow: str = "→") -> list[str]:
    """What happened in hand ``number`` (a finished hand) and what it wrote on the sheet, as
    sentences in the words of ``view``'s seat ("You"), with what a redo changed for whom."""
    hand = view.history[number - 1]
    teller = Teller(view.players, view.seat)
    name = teller.name
    bid = hand.declaration
    declarer = hand.declarer
    if bid is None or declarer is None or hand.result is None:
        return []
    contract = bid.contract
    lines = [f"Hand {number} is over."]
    how = "from the puddle " if hand.puddle else ""
    lines.append(f"{teller.subject(declarer, 'declared')} {how}{bid.describe()}.")
    lines.append("Tricks taken: " + ", ".join(f"{name(s)} {hand.tricks_won(s)}" for s in range(NUM_SEATS)) + ".")
    count = hand.result
    if contract.first_counted > 1:
        lines.append(
            f"Only tricks {contract.first_counted} to {TRICKS} count: "
            f"{teller.subject(declarer, 'took')} {count} of them."
        )
    row = view.sheet[contract.id]
    kept = row[declarer]
    written = f"Written on the sheet: {count} for {teller.object(declarer)} under {contract.name}"
    earlier = None
    if bid.redo:
        earlier = next(
            (
                h.result
                for h in view.history[: number - 1]
                if h.declarer == declarer
                and h.declaration is not None
                and h.declaration.contract == contract
                and not h.declaration.redo
            ),
            None,
        )
        written += f" (a redo of {earlier}: the sheet keeps the better result, {kept})"
    lines.append(written + ".")
    better = "more" if contract.goal is Goal.WIN else "fewer"
    lines.append(
        f"{contract.name} is a {'Win' if contract.goal is Goal.WIN else 'Lose'} contract: {better} tricks is better."
    )
    pts = view.points(contract.id)
    if pts is not None and earlier is not None:
        before = contract_points([earlier if s == declarer else row[s] for s in range(NUM_SEATS)], contract.goal)
        if before is not None:
            changes = [f"{name(s)} {before[s]:+d} {arrow} {pts[s]:+d}" for s in range(NUM_SEATS) if before[s] != pts[s]]
            lines.append(
                f"{contract.name} is scored again: "
                + (", ".join(changes) if changes else "the points stay as they were")
                + "."
            )
            return lines
    if pts is not None:
        lines.append(
            f"{contract.name} is now scored (all three have recorded it: "
            + ", ".join(f"{name(s)} {row[s]}" for s in range(NUM_SEATS))
            + "): "
            + ", ".join(f"{name(s)} {pts[s]:+d}" for s in range(NUM_SEATS))
            + "."
        )
        if len(set(row)) < NUM_SEATS:
            lines.append("Tied results share the points of the places they cover.")
    else:
        missing = [s for s in range(NUM_SEATS) if row[s] is None]
        who = " and ".join(teller.object(s) for s in missing)
        verb = "have" if len(missing) > 1 or missing == [view.seat] else "has"
        lines.append(f"{contract.name} is scored once {who} {verb} recorded it too.")
    return lines


def result_lines(view: PlayerView | PublicView) -> list[str]:
    """The winner(s), how a tie on totals was broken, and the totals, as sentences."""
    teller = Teller(view.players, view.seat)
    name = teller.name
    totals = view.totals()
    firsts = view.firsts()
    winners = view.winners()
    if not winners:
        return []
    names = " and ".join(name(s) for s in winners)
    if len(winners) == 1:
        lines = [f"{teller.subject(winners[0], 'wins')} with {plural(totals[winners[0]], 'point')}."]
    else:
        lines = [f"{names} share the win with {plural(totals[winners[0]], 'point')} each."]
    top = max(totals)
    tied = [s for s in range(NUM_SEATS) if totals[s] == top]
    if len(tied) > 1:
        parts = ", ".join(f"{name(s)} {firsts[s]}" for s in tied)
        if len(winners) == 1:
            ends = f"{teller.subject(winners[0], 'placed')} first more often."
        else:
            ends = "That is level too, so the win is shared."
        lines.append(f"The top total was tied, so the firsts decide (contracts placed first in: {parts}). {ends}")
    lines.append("Totals: " + ", ".join(f"{name(s)} {totals[s]}" for s in range(NUM_SEATS)) + ".")
    return lines


def sheet_lines(view: PlayerView | PublicView) -> list[str]:
    """The scoresheet as sentences, a contract a line, for a screen reader."""
    teller = Teller(view.players, view.seat)
    redone = view.redone()
    lines = []
    for c in view.rules.contracts:
        row = view.sheet[c.id]
        pts = view.points(c.id)
        parts = []
        for s in range(NUM_SEATS):
            if row[s] is None:
                parts.append(f"{teller.name(s)} not yet")
                continue
            cell = f"{teller.name(s)} {row[s]}"
            if (c.id, s) in redone:
                cell += " (redone)"
            if pts is not None:
                cell += f" for {pts[s]:+d}"
            parts.append(cell)
        lines.append(f"{c.name}: {', '.join(parts)}.")
    totals, firsts = view.totals(), view.firsts()
    lines.append(
        "Totals: "
        + ", ".join(f"{teller.name(s)} {totals[s]}" for s in range(NUM_SEATS))
        + "; contracts placed first in: "
        + ", ".join(f"{teller.name(s)} {firsts[s]}" for s in range(NUM_SEATS))
        + "."
    )
    return lines


def hand_of(number: int, rules: Rules, redo_spent: Sequence[bool]) -> str:
    """``'6 of 12'``, and once redo tokens are spent ``'10 of 14 (12 + 2 redos)'``: each token
    spent adds a hand to the game.

    >>> hand_of(10, Rules("standard", redo_tokens=True), (True, False, True))
    '10 of 14 (12 + 2 redos)'
    """
    spent = sum(1 for s in redo_spent if s)
    if not spent:
        return f"{number} of {rules.hands}"
    return f"{number} of {rules.hands + spent} ({rules.hands} + {plural(spent, 'redo')})"


def plural(n: int, word: str, words: str | None = None) -> str:
    """``'1 trick'``, ``'3 tricks'``, ``'1 card'``."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def short_names(players: Sequence[str], width: int, ellipsis: str = "…") -> tuple[str, ...]:
    """The names cut to ``width`` characters so that they stay different: a long common start is
    shortened in the middle ("Player…One"), and if that is not enough, a seat number is added.

    >>> short_names(["Player With A Very Long Name One", "Player With A Very Long Name Two", "Bo"], 12)
    ('Player W…One', 'Player W…Two', 'Bo')
    """
    if all(len(p) <= width for p in players):
        return tuple(players)

    def cut(name: str, tail: int) -> str:
        if len(name) <= width:
            return name
        if tail == 0:
            return name[: width - 1] + ellipsis
        return name[: width - 1 - tail] + ellipsis + name[-tail:]

    for tail in (0, *range(3, width // 2), 1, 2):
        names = tuple(cut(p, tail) for p in players)
        if len(set(names)) == len(names):
            return names
    return tuple(f"{cut(p, 0)[: width - 2]}{s}" for s, p in enumerate(players[:NUM_SEATS]))


def shell_lines(command: str, width: int) -> list[str]:
    """A shell command in lines of at most ``width`` columns where it can be, broken only before
    an option (``--seed`` stays with its value), each line but the last ending in ``' \\'``
    so that the lines can be pasted into a shell as they are.

    >>> for line in shell_lines("stepping-stones simulate --games 1 --seed 'a b'", 34):
    ...     print(line)
    stepping-stones simulate \\
      --games 1 --seed 'a b'
    """
    words = shlex.split(command)
    groups: list[str] = []
    for word in words:
        # a word joins the group before it: the program's words, or an option still without its value
        if groups and not word.startswith("--") and not (groups[-1].startswith("--") and " " in groups[-1]):
            groups[-1] += " " + shlex.quote(word)
        else:
            groups.append(shlex.quote(word))
    lines = [groups[0]]
    for group in groups[1:]:
        if len(lines[-1]) + 1 + len(group) + 2 <= width:
            lines[-1] += " " + group
        else:
            lines.append("  " + group)
    return [line + " \\" for line in lines[:-1]] + lines[-1:]


def simulate_command(seed: str, rules: Rules, levels: Sequence[str]) -> str:
    """The command that deals a game's cards again: ``stepping-stones simulate`` with every option
    it needs (one game, the seats' levels, the game's rules and its seed), quoted for a shell.
    ``levels`` are those of seats 0, 1 and 2 (the person's seat is played by an AI there).

    >>> print(simulate_command("01b2 a270", Rules("advanced", short_game=True, redo_tokens=True),
    ...                        ("heuristic", "expert", "random")))  # doctest: +NORMALIZE_WHITESPACE
    stepping-stones simulate --games 1 --seats heuristic,expert,random --set advanced --short
    --omit win-pick-trump --redo --seed '01b2 a270'
    """
    words = ["stepping-stones", "simulate", "--games", "1", "--seats", ",".join(levels)]
    if rules.contract_set != "standard":
        words += ["--set", rules.contract_set]
    if rules.short_game:
        words.append("--short")
        if rules.omit is not None:
            words += ["--omit", rules.omit]
    if rules.redo_tokens:
        words.append("--redo")
    words += ["--seed", seed]
    return shlex.join(words)
