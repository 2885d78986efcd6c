"""Post-hand analysis: what perfect play would have made of a hand, and where it slipped.

For a hand whose deal is known (every finished hand, and any hand of a game record), the exact
double-dummy solver (``ai/solver.py``) answers, with all cards in view:

* **par**: the declarer's counted tricks with perfect play by everyone from the deal;
* **dd_after[i]**: the declarer's counted tricks for the whole hand -- tricks already taken
  included -- with perfect play from the position after card ``i + 1``;
* **mistakes**: every card after which that number moved against the side that played it.
  The declarer of a Win contract and the defenders of a Lose contract want it high, the others
  low; a card that lowered (or raised) it by ``cost`` tricks was a mistake of that size, and
  ``better`` names the cards that would have kept it.

One solver, and so one table of bounds, serves the whole hand: each position after a card is a
position the search before it has mostly seen already.

``hint_for_game(game)`` gives the expert's hint (``ai/hints.py``) for the player to act in a
game, as ``stepping-stones hint`` prints it for a record.

This is double-dummy analysis: it judges each card as if its player could see every hand.  A
card that only perfect knowledge of the hidden hands shows to be wrong is still listed, so the
analysis is a teacher's view, not a verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from typing_extensions import TypedDict  # pydantic reads its schema on Python 3.11 (scripts/json_schemas.py)

from ..engine import (
    CARD_NAMES,
    NUM_SEATS,
    Game,
    HandLog,
    HandState,
    Mask,
    PastHand,
    Phase,
    Seat,
    SteppingStonesError,
    cards_of,
)
from ..explain import Teller, plural
from .hints import Hint, hint_for
from .solver import Solver, position, whole_hand_value


class MistakeJSON(TypedDict):
    """A mistake as ``analyse --json`` prints it."""

    play: int
    seat: int
    card: str
    better: list[str]
    cost: int


class HandAnalysisJSON(TypedDict):
    """A hand's analysis as ``analyse --json`` prints it."""

    declarer: int
    contract: str
    count: int | None
    par: int
    dd_after: list[int]
    mistakes: list[MistakeJSON]


class AnalysisJSON(TypedDict):
    """What ``analyse --json`` prints: every declared hand of the record."""

    hands: list[HandAnalysisJSON]


class GameHintJSON(TypedDict):
    """What ``hint --json`` prints."""

    hand: int
    seat: int
    player: str
    phase: str
    action: str
    reason: str
    text: str


@dataclass(frozen=True)
class Mistake:
    """A card that cost its side ``cost`` counted tricks against perfect play."""

    play: int  # 1-based number of the card in the hand's play
    seat: Seat
    card: str
    better: tuple[str, ...]  # the cards that would have kept the best result
    cost: int

    def to_json(self) -> MistakeJSON:
        return {"play": self.play, "seat": self.seat, "card": self.card, "better": list(self.better),
                "cost": self.cost}


@dataclass(frozen=True)
class HandAnalysis:
    """One hand, analysed: its par, the exact value after every card, and the mistakes."""

    number: int  # 1-based number of the hand in the game
    declarer: Seat
    contract: str
    count: int | None  # the declarer's result (None while the hand is unfinished)
    par: int
    dd_after: tuple[int, ...]
    mistakes: tuple[Mistake, ...]

    def to_json(self) -> HandAnalysisJSON:
        return {
            "declarer": self.declarer,
            "contract": self.contract,
            "count": self.count,
            "par": self.par,
            "dd_after": list(self.dd_after),
            "mistakes": [m.to_json() for m in self.mistakes],
        }

    def costliest(self, seat: Seat) -> list[Mistake]:
        """``seat``'s mistakes, the costliest first (earlier first among equals)."""
        return sorted((m for m in self.mistakes if m.seat == seat), key=lambda m: (-m.cost, m.play))


def analyse_hand(hand: HandLog, number: int | None = None, limit: int | None = None,
                 watch: Callable[[Solver], None] | None = None) -> HandAnalysis:
    """Analyse a declared hand (finished or not) of a game: par, value after each card, mistakes.

    ``limit`` bounds the work (solver positions, for the whole hand): past it ``SearchLimit`` is
    raised.  A rare hand takes millions of positions; a screen that must stay light sets it.
    ``watch`` is given the solver before it starts, so that another thread may ``stop()`` it."""
    declaration = hand.declaration
    state = HandState(hand.deal, hand.declarer, declaration.contract, declaration.ranking, declaration.trump)
    solver = Solver(declaration.contract, declaration.ranking, declaration.trump, hand.declarer)
    if limit is not None:
        solver.limit = limit
    if watch is not None:
        watch(solver)
    win = declaration.contract.is_win
    # The result actually made is a good first guess for par, and each value for the next one.
    par = whole_hand_value(state, solver, hand.result if hand.finished else None)
    before = par
    dd_after: list[int] = []
    mistakes: list[Mistake] = []
    for k, card in enumerate(hand.plays):
        seat = state.turn
        wants_more = (seat == hand.declarer) == win
        legal = state.legal_mask()
        snapshot = state.copy()
        state.push(card)
        after = whole_hand_value(state, solver, before)
        dd_after.append(after)
        cost = before - after if wants_more else after - before
        if cost > 0:
            mistakes.append(Mistake(k + 1, seat, CARD_NAMES[card], _better(snapshot, solver, legal, before), cost))
        before = after
    return HandAnalysis(
        number=hand.number if number is None else number,
        declarer=hand.declarer,
        contract=declaration.contract.id,
        count=hand.result if hand.finished else None,
        par=par,
        dd_after=tuple(dd_after),
        mistakes=tuple(mistakes),
    )


def _better(state: HandState, solver: Solver, legal: Mask, best: int) -> tuple[str, ...]:
    """The legal cards in ``state`` that keep the whole-hand value at ``best``."""
    hands, leader, trick = position(state)
    values = solver.card_values(hands, leader, trick)
    taken = state.count()
    return tuple(CARD_NAMES[c] for c in cards_of(legal) if taken + values[c] == best)


def analyse_game(game: Game, progress: Callable[[], None] | None = None) -> list[HandAnalysis]:
    """Every declared hand of ``game``, analysed in order (the unfinished one last, if any)."""
    out = []
    for hand in game.log:
        if not hand.declared:
            continue
        out.append(analyse_hand(hand))
        if progress is not None:
            progress()
    return out


def _alternatives(cards: tuple[str, ...]) -> str:
    """``'K9'``, ``'C1 or C2'``, ``'C1, C2, C5 or another'``."""
    named = list(cards[:3]) + (["another"] if len(cards) > 3 else [])
    return " or ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)


def analyse_past(past: PastHand, limit: int | None = None,
                 watch: Callable[[Solver], None] | None = None) -> HandAnalysis | None:
    """A finished hand as a player saw it, analysed: once all 36 cards are played the deal is
    public, so this needs nothing the player did not see.  None for a hand not played out;
    ``limit`` and ``watch`` as for ``analyse_hand``."""
    log = past.replayed()
    return None if log is None else analyse_hand(log, limit=limit, watch=watch)


def analysis_lines(analysis: HandAnalysis, players: tuple[str, str, str], you: Seat | None = 0) -> list[str]:
    """The analysis in sentences for the hand's summary: par, the result, and each seat's
    costliest card (``you`` is told as "You")."""
    teller = Teller(players, you)
    declarer = analysis.declarer
    count = analysis.count
    made = "" if count is None else f"{teller.subject(declarer, 'made')} {plural(count, 'counted trick')}; "
    lines = [f"{made}par, with perfect play by all from the deal, was {analysis.par}."]
    lines[0] = lines[0][0].upper() + lines[0][1:]
    for seat in range(NUM_SEATS):
        mistakes = analysis.costliest(seat)
        whose = "Your" if seat == you else f"{players[seat]}'s"
        if not mistakes:
            lines.append(f"{whose} cards all kept the par.")
            continue
        worst = mistakes[0]
        trick = (worst.play - 1) // NUM_SEATS + 1
        better = _alternatives(worst.better)
        more = f"; {plural(len(mistakes), 'card')} cost tricks in all" if len(mistakes) > 1 else ""
        lines.append(f"{whose} costliest card: {worst.card} in trick {trick} cost "
                     f"{plural(worst.cost, 'trick')} ({better} would have kept it){more}.")
    return lines


def position_lines(analysis: HandAnalysis, k: int, players: tuple[str, str, str], you: Seat | None = 0) -> list[str]:
    """The analysis at the position after ``k`` cards of the hand (a trick's end): what perfect
    play from there would make, and what the cards of the trick just played cost."""
    teller = Teller(players, you)
    declarer = teller.object(analysis.declarer)
    if k == 0 or not analysis.dd_after:
        return [f"Par, with perfect play by all from the deal: {plural(analysis.par, 'counted trick')} "
                f"for {declarer}."]
    value = analysis.dd_after[min(k, len(analysis.dd_after)) - 1]
    lines = [f"With perfect play from here {declarer} would end with {plural(value, 'counted trick')} "
             f"(par {analysis.par})."]
    first = (k - 1) // NUM_SEATS * NUM_SEATS + 1  # the trick's first card, 1-based
    costly = [m for m in analysis.mistakes if first <= m.play <= k]
    for m in costly:
        whose = "Your" if m.seat == you else f"{players[m.seat]}'s"
        better = _alternatives(m.better)
        lines.append(f"{whose} {m.card} cost {plural(m.cost, 'trick')} ({better} would have kept it).")
    if not costly:
        lines.append("Every card of this trick kept that value.")
    return lines


def analysis_json(analyses: list[HandAnalysis]) -> AnalysisJSON:
    """``{"hands": [...]}`` as ``stepping-stones analyse --json`` prints it."""
    return {"hands": [a.to_json() for a in analyses]}


# --- the hint for the next action of a game ---------------------------------------------------


class NothingToHint(SteppingStonesError, ValueError):
    """The game waits for no player's decision: it is over, or the next hand is not dealt yet."""


@dataclass(frozen=True)
class GameHint:
    """The expert's hint for the player to act in a game."""

    hand: int  # 1-based number of the hand being bid or played
    seat: Seat
    player: str
    phase: str  # "bidding" or "play"
    hint: Hint

    def to_json(self) -> GameHintJSON:
        action = self.hint.action
        return {
            "hand": self.hand,
            "seat": self.seat,
            "player": self.player,
            "phase": self.phase,
            "action": CARD_NAMES[action] if isinstance(action, int) else str(action),
            "reason": self.hint.reason,
            "text": self.hint.text,
        }


def hint_for_game(game: Game, before: Callable[[], None] | None = None) -> GameHint:
    """The expert's hint for whoever is to act in ``game``, from that player's view only.
    Raises ``NothingToHint`` when nobody is to act (the game is over, or between hands);
    otherwise calls ``before`` (if given) before it thinks."""
    if game.phase is Phase.OVER:
        raise NothingToHint("the game is over: there is no next action to hint")
    seat = game.to_act
    if seat is None:
        raise NothingToHint("the record stops between hands: the next hand has not been dealt")
    if before is not None:
        before()
    view = game.view(seat)
    return GameHint(view.hand_number, seat, game.players[seat], view.phase.value, hint_for(view))
