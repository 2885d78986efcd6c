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
* **informed** (``judge``): which of those cards were best on what their player could know --
  the card the hint (``ai/hints.py``) would have named from that player's view, or one as good
  as it on the layouts the hint weighed.  Such a card is no mistake of judgement: only the
  hidden cards, once known, show it cost a trick, and it is counted apart and said so.

One solver, and so one table of bounds, serves the whole hand, asked from its last card back to
the deal: each position before a card asks one question, whether its side had a better card,
and the searches of the later positions fill the table the earlier ones read.

``hint_for_game(game)`` gives the expert's hint (``ai/hints.py``) for the player to act in a
game, as ``stepping-stones hint`` prints it for a record.

This is double-dummy analysis: it judges each card as if its player could see every hand.  A
card that only perfect knowledge of the hidden hands shows to be wrong is still listed, but
(once judged) as "best on what you could see", so the analysis and the hints tell one story.

Every sentence about a mistake says whose count moved, which way, and for whom that was bad
(``effect``): "lowered your count by 1 (bad for you)", "raised Kenji's count by 1 (bad for
the defenders)".  The app, the plain mode, the review and ``analyse`` all use these words.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any

from pydantic import Field, TypeAdapter
from typing_extensions import TypedDict  # pydantic reads its schema on Python 3.11 (scripts/json_schemas.py)

from ..engine import (
    CARD_NAMES,
    CONTRACTS,
    NUM_SEATS,
    Game,
    HandLog,
    HandState,
    PastHand,
    Phase,
    PlayerView,
    Rules,
    Seat,
    SteppingStonesError,
)
from ..explain import Teller, plural
from .expert import ExpertAI
from .hints import Hint, as_good, hint_for, hint_rng
from .solver import Solver, keeping_cards, reaches, whole_hand_value


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
    informed: bool = False  # best on what its player could know (``judge``): not a real mistake


@dataclass(frozen=True)
class HandAnalysis:
    """One hand, analysed: its par, the exact value after every card, and the mistakes.

    Also what ``analyse --json`` prints of it (``Analysis``), all but ``number``."""

    # 1-based number of the hand in the game; not in the JSON (read back from it as 0)
    number: Annotated[int, Field(exclude=True, default=0)]
    declarer: Seat
    contract: str
    count: int | None  # the declarer's result (None while the hand is unfinished)
    par: int
    dd_after: tuple[int, ...]
    mistakes: tuple[Mistake, ...]

    def costliest(self, seat: Seat, informed: bool = False) -> list[Mistake]:
        """``seat``'s real mistakes (with ``informed``, its cards that were best on what it could
        know but cost a trick all the same), the costliest first (earlier first among equals)."""
        return sorted(
            (m for m in self.mistakes if m.seat == seat and m.informed == informed), key=lambda m: (-m.cost, m.play)
        )


def analyse_hand(
    hand: HandLog, number: int | None = None, limit: int | None = None, watch: Callable[[Solver], None] | None = None
) -> HandAnalysis:
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
    # Backwards, from the last card to the deal: the value after a card is known when the
    # position before it is asked about, and the card kept it unless its side had a better one,
    # one zero-window question (``reaches``).  So par, the last of them, is one question at the
    # deal where walking to it from a guess asks two or more; and the positions late in the hand,
    # cheap to answer, fill the table before the early ones are asked.
    for card in hand.plays:
        state.push(card)
    after = whole_hand_value(state, solver, hand.result if hand.finished else None)
    dd_after = [0] * len(hand.plays)
    mistakes: list[Mistake] = []
    for k in range(len(hand.plays) - 1, -1, -1):
        card = state.pop()
        seat = state.turn
        dd_after[k] = after
        if (seat == hand.declarer) == win:  # the card's side wants the count high
            before = whole_hand_value(state, solver, after + 1) if reaches(state, after + 1, solver) else after
        else:
            before = whole_hand_value(state, solver, after - 1) if not reaches(state, after, solver) else after
        if before != after:
            better = tuple(CARD_NAMES[c] for c in keeping_cards(state, before, solver))
            mistakes.append(Mistake(k + 1, seat, CARD_NAMES[card], better, abs(before - after)))
        after = before
    par = after
    mistakes.reverse()
    return HandAnalysis(
        number=hand.number if number is None else number,
        declarer=hand.declarer,
        contract=declaration.contract.id,
        count=hand.result if hand.finished else None,
        par=par,
        dd_after=tuple(dd_after),
        mistakes=tuple(mistakes),
    )


def analyse_game(
    game: Game, progress: Callable[[], None] | None = None, seats: Collection[Seat] = (0, 1, 2)
) -> list[HandAnalysis]:
    """Every declared hand of ``game``, analysed in order (the unfinished one last, if any), the
    mistakes of ``seats`` judged against what their players could know (``judge``)."""
    out = []
    for i, hand in enumerate(game.log):
        if not hand.declared:
            continue
        found = analyse_hand(hand)
        if seats:
            found = judge(found, game_before(game.rules, game.players, game.log[: i + 1]), hand, seats)
        out.append(found)
        if progress is not None:
            progress()
    return out


def game_before(rules: Rules, players: tuple[str, str, str], logs: Sequence[HandLog]) -> Game:
    """A new game in which the hands of ``logs`` were bid and played as they were, the last one
    up to its declaration: the position before its first card."""
    game = Game(rules, players, first_forehand=logs[0].forehand)
    for i, log in enumerate(logs):
        hand = game.start_hand(log.deal)
        for k, bid in enumerate(log.bids):
            if k >= len(hand.bids):  # the engine writes the passes that are forced itself
                game.bid(bid)
        if i < len(logs) - 1:
            for card in log.plays:
                game.play(card)
    return game


def judge(
    analysis: HandAnalysis, game: Game, hand: HandLog, seats: Collection[Seat], expert: ExpertAI | None = None
) -> HandAnalysis:
    """``analysis`` with each mistake of ``seats`` marked ``informed`` when its card was best on
    what its player could know: the hint's choice from that player's view (the same reckoning
    ``hint_for`` makes, with the same generator), or as good as it on the layouts the hint
    weighed.  ``game`` stands before the hand's first card (``game_before``); it is played on."""
    wanted = {m.play: m for m in analysis.mistakes if m.seat in seats}
    if not wanted:
        return analysis
    expert = expert or ExpertAI()
    informed: set[int] = set()
    for k, card in enumerate(hand.plays[: max(wanted)], 1):
        mistake = wanted.get(k)
        if mistake is not None:
            view = game.view(mistake.seat)
            if as_good(expert.reckon_card(view, hint_rng(view)), card):
                informed.add(k)
        game.play(card)
    return replace(analysis, mistakes=tuple(replace(m, informed=m.play in informed) for m in analysis.mistakes))


def _alternatives(cards: tuple[str, ...]) -> str:
    """``'K9'``, ``'C1 or C2'``, ``'C1, C2, C5 or another'``."""
    named = list(cards[:3]) + (["another"] if len(cards) > 3 else [])
    return " or ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)


@dataclass(frozen=True)
class Seen:
    """What judging a finished hand against its players' knowledge needs (``analyse_past``):
    the game's rules and players, the finished hands up to it, and the seats to judge."""

    rules: Rules
    players: tuple[str, str, str]
    history: tuple[PastHand, ...]
    seats: tuple[Seat, ...]


def seen_by(view: PlayerView) -> Seen:
    """Judging a finished hand of ``view``'s game as ``analyse`` judges a record: every seat's
    cards, each from the view its player had (once a hand is played out its deal is public, and
    so is every view of it), so that the app, plain mode and ``analyse`` call the same cards
    mistakes."""
    return Seen(view.rules, view.players, view.history, tuple(range(NUM_SEATS)))


def analyse_past(
    past: PastHand, limit: int | None = None, watch: Callable[[Solver], None] | None = None, seen: Seen | None = None
) -> HandAnalysis | None:
    """A finished hand as a player saw it, analysed: once all 36 cards are played the deal is
    public, so this needs nothing the player did not see.  None for a hand not played out;
    ``limit`` and ``watch`` as for ``analyse_hand``.  With ``seen``, the mistakes of its seats
    are judged (``judge``) from the views the hands before it give."""
    log = past.replayed()
    if log is None:
        return None
    found = analyse_hand(log, limit=limit, watch=watch)
    if seen is None or not seen.seats:
        return found
    logs = [p.replayed() for p in seen.history[: past.number - 1]]
    earlier = [x for x in logs if x is not None]
    if len(earlier) != past.number - 1:
        return found  # an earlier hand was not played out: its views cannot be rebuilt
    return judge(found, game_before(seen.rules, seen.players, [*earlier, log]), log, seen.seats)


def place(play: int) -> str:
    """Where the ``play``-th card of a hand (1-based) fell, as every analysis names it.

    >>> place(1), place(14)
    ('trick 1, card 1', 'trick 5, card 2')
    """
    return f"trick {(play - 1) // NUM_SEATS + 1}, card {(play - 1) % NUM_SEATS + 1}"


def record_teller(players: Sequence[str]) -> Teller:
    """The teller for a record read by a command: the player the app called "You" (its default
    name for the person) is told in the second person, so no line says "You's count"."""
    return Teller(players, players.index("You") if "You" in players else None)


def _whose(teller: Teller, seat: Seat, capital: bool = True) -> str:
    """``'Your'`` (``'your'``) or ``"Hana's"``."""
    if seat == teller.you:
        return "Your" if capital else "your"
    return f"{teller.players[seat]}'s"


def effect(analysis: HandAnalysis, mistake: Mistake, teller: Teller) -> str:
    """What a mistake did, in the one vocabulary of the analysis: whose count moved, which way,
    and for whom that was bad: ``'lowered your count by 1 trick, bad for you'``, ``'raised
    Kenji's count by 2 tricks, bad for the defenders'``."""
    declarer = analysis.declarer
    seat = mistake.seat
    whose = _whose(teller, declarer, capital=False)
    wants_more = (seat == declarer) == CONTRACTS[analysis.contract].is_win
    way = "lowered" if wants_more else "raised"
    if seat == declarer:
        who = teller.object(seat)
    else:
        who = "your side" if seat == teller.you else "the defenders"
    return f"{way} {whose} count by {plural(mistake.cost, 'trick')}, bad for {who}"


def _informed_words(analysis: HandAnalysis, m: Mistake, teller: Teller) -> str:
    """``"Your B8 (trick 7, card 3) was best on what you could see; with all cards known it
    lowered your count by 1 trick, bad for you, and C2 would have kept it"``."""
    could = teller.object(m.seat)
    return (
        f"{_whose(teller, m.seat)} {m.card} ({place(m.play)}) was best on what {could} could see; with all "
        f"cards known it {effect(analysis, m, teller)}, and {_alternatives(m.better)} would have kept it"
    )


def _mistake_words(analysis: HandAnalysis, m: Mistake, teller: Teller) -> str:
    """``'L5 (trick 5, card 2) raised Hana's count by 2 tricks, bad for the defenders (L3 would
    have kept it)'``."""
    return f"{m.card} ({place(m.play)}) {effect(analysis, m, teller)} ({_alternatives(m.better)} would have kept it)"


def analysis_lines(analysis: HandAnalysis, players: Sequence[str], you: Seat | None = 0, most: int = 1) -> list[str]:
    """The analysis of a hand in sentences, the one wording of the app's hand summary, plain
    mode and ``analyse``: the result and par, then per seat its costliest mistake (and with
    ``most`` more than 1, its next ones, a line each) and its costliest card that was best on
    what its player could see, said so and counted apart.  ``you`` is told as "You" (``None``:
    the player named "You", if any, as ``record_teller``).  The lines for ``most=1`` are the
    first lines of every larger ``most``, in the same order."""
    teller = Teller(players, you) if you is not None else record_teller(players)
    declarer = analysis.declarer
    count = analysis.count
    made = "" if count is None else f"{teller.subject(declarer, 'made')} {plural(count, 'counted trick')}; "
    lines = [f"{made}par, with perfect play by all from the deal, was {plural(analysis.par, 'counted trick')}."]
    lines[0] = lines[0][0].upper() + lines[0][1:]
    for seat in range(NUM_SEATS):
        mistakes = analysis.costliest(seat)
        unlucky = analysis.costliest(seat, informed=True)
        whose = _whose(teller, seat)
        if not mistakes and not unlucky:
            lines.append(f"{whose} cards all kept the par.")
            continue
        if mistakes:
            more = f"; {plural(len(mistakes), 'mistake')} in all" if len(mistakes) > 1 else ""
            lines.append(f"{whose} costliest mistake: {_mistake_words(analysis, mistakes[0], teller)}{more}.")
        if unlucky:
            more = f" ({plural(len(unlucky), 'such card')}, not counted as mistakes)" if len(unlucky) > 1 else ""
            lines.append(f"{_informed_words(analysis, unlucky[0], teller)}{more}.")
        for m in mistakes[1:most]:
            lines.append(f"{whose} next mistake: {_mistake_words(analysis, m, teller)}.")
    return lines


def position_lines(analysis: HandAnalysis, k: int, players: tuple[str, str, str], you: Seat | None = 0) -> list[str]:
    """The analysis at the position after ``k`` cards of the hand (a trick's end): what perfect
    play from there would make, and what the cards of the trick just played cost."""
    teller = Teller(players, you) if you is not None else record_teller(players)
    declarer = teller.object(analysis.declarer)
    if k == 0 or not analysis.dd_after:
        return [f"Par, with perfect play by all from the deal: {plural(analysis.par, 'counted trick')} for {declarer}."]
    value = analysis.dd_after[min(k, len(analysis.dd_after)) - 1]
    lines = [
        f"With perfect play from here {declarer} would end with {plural(value, 'counted trick')} (par {analysis.par})."
    ]
    first = (k - 1) // NUM_SEATS * NUM_SEATS + 1  # the trick's first card, 1-based
    costly = [m for m in analysis.mistakes if first <= m.play <= k]
    for m in costly:
        if m.informed:
            lines.append(f"{_informed_words(analysis, m, teller)}.")
        else:
            lines.append(f"{_whose(teller, m.seat)} {_mistake_words(analysis, m, teller)}.")
    if not costly:
        lines.append("Every card of this trick kept that value.")
    return lines


@dataclass(frozen=True)
class Analysis:
    """What ``analyse --json`` prints: every declared hand of the record."""

    hands: tuple[HandAnalysis, ...]


def analysis_json(analyses: list[HandAnalysis]) -> dict[str, Any]:
    """``{"hands": [...]}`` as ``stepping-stones analyse --json`` prints it."""
    data: dict[str, Any] = TypeAdapter(Analysis).dump_python(Analysis(tuple(analyses)), mode="json")
    return data


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
