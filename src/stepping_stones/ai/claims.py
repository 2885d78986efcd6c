"""Claims: a player says how many of the remaining tricks their side takes, and the referee
checks it on the actual cards with the exact solver.

What a claim says.  The claimer speaks for their *side*: the declarer alone, or the two
defenders together.  They claim ``all``, ``none`` or a number ``n`` of the **remaining tricks
that count** -- the tricks not yet finished (the one in progress included) that the contract
counts: all of them but for Win Last 6, where only tricks 7 to 12 count, so a claim made in
tricks 1 to 6 is about tricks 7 to 12.  In a Win contract both sides want more tricks of their
own (the declarer more counted tricks, the defenders to hold the declarer down), in a Lose
contract both want fewer; so a claim of ``n`` means *at least* ``n`` in a Win contract and *at
most* ``n`` in a Lose contract.

When it holds.  The solver gives the exact value of the position -- the declarer's counted
tricks from here with perfect play by both sides.  The claim holds when that value is at
least as good for the claimer's side as the claim, that is when the claimer's side makes it
whatever the other side plays.  The hand then ends: it is played out along a perfect line,
each card a best card for the side that plays it (on the solver's values, the lowest card --
first in the order C, K, L, B, then 1 to 9 -- among equals), so the declarer's result is the
exact value: the claim or better for the claimer.  Those cards are ordinary legal plays, so
the record, ``replay`` and the analysis see a hand played to its end.

A claim that does not hold is refused with words that depend only on what everyone saw (the
claim, the contract, the tricks left, the names): never where an unseen card lies.

This is the referee's check: only the local flow and the table server call ``judge``, on the
real hands; no AI seat and nothing a screen or client is sent ever sees more than its view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..engine import (
    NUM_SEATS,
    TRICKS,
    Card,
    Contract,
    Game,
    HandState,
    IllegalActionError,
    PastHand,
    Phase,
    Seat,
    WrongPhaseError,
)
from ..explain import Teller, plural
from .solver import Solver, keeping_cards, position, reaches, solver_for

ALL = "all"
NONE = "none"
"""The words a claim may be given in, besides a number (``parse_claim``)."""


class ClaimError(IllegalActionError):
    """A claim that cannot be made now (not the claimer's turn to play, no hand in play) or that
    names no possible number of tricks."""


@dataclass(frozen=True)
class Claim:
    """``seat`` claims that its side takes ``tricks`` of the remaining tricks that count (at least
    that many in a Win contract, at most in a Lose contract)."""

    seat: Seat
    tricks: int


@dataclass(frozen=True)
class Verdict:
    """The referee's answer to a claim.  ``left``: the counted tricks that remained.  When it
    ``holds``: ``line``, the cards that play the hand out; ``side_takes``, the claimer's side's
    share of ``left`` along it; ``count``, the declarer's result.  A refused verdict carries
    nothing beyond the claim itself, so nothing about the unseen cards can travel with it."""

    claim: Claim
    left: int
    holds: bool
    line: tuple[Card, ...] = ()
    side_takes: int | None = None
    count: int | None = None


def tricks_left(contract: Contract, trick_number: int) -> int:
    """The tricks that count and are not finished yet (the one in progress included) when
    ``trick_number`` tricks (0 to 11) are finished: what a claim is about."""
    return (contract.counted_mask >> trick_number).bit_count()


def counted_left(state: HandState) -> int:
    """``tricks_left`` in the position of ``state``."""
    return tricks_left(state.contract, state.trick_number)


def parse_claim(text: str, left: int) -> int:
    """The number of tricks ``text`` claims (``all``, ``none`` or a number) when ``left``
    counted tricks remain.  Raises ``ClaimError`` naming what is wrong."""
    word = text.strip().lower()
    if word == ALL:
        return left
    if word == NONE:
        return 0
    if not word.isdigit() or len(word) > 2:
        raise ClaimError(f"a claim is 'all', 'none' or a number of tricks from 0 to {left}, not {text.strip()!r}")
    tricks = int(word)
    if tricks > left:
        raise ClaimError(f"only {plural(left, 'trick')} that count remain: claim a number from 0 to {left}")
    return tricks


def verify_claim(game: Game, claim: Claim) -> None:
    """Raise ``ClaimError`` unless ``claim.seat`` may claim ``claim.tricks`` now: the hand is in
    play, it is that seat's turn to play, and the number is one of the tricks that remain."""
    state = game.state
    if game.phase is not Phase.PLAY or state is None or state.finished:
        raise ClaimError("a claim is made while the cards are being played", claim.seat)
    if game.to_act != claim.seat:
        raise ClaimError(f"{game.name(claim.seat)} may claim only on their own turn to play", claim.seat)
    left = counted_left(state)
    if not 0 <= claim.tricks <= left:
        raise ClaimError(f"a claim is a number of tricks from 0 to {left}", claim.seat)


ONE_A_TRICK = "One claim a trick: that one was refused, so claim again from the next trick."


class RefusedClaims:
    """One refused claim per seat per trick: each check is a whole solve, and each refusal tells a
    little about the position, so a player cannot ask the solver trick count after trick count.
    The flow and each table of the server hold one."""

    def __init__(self) -> None:
        self._at: dict[Seat, tuple[int, int]] = {}

    @staticmethod
    def _where(game: Game) -> tuple[int, int]:
        state = game.state
        return len(game.log), state.trick_number if state is not None else -1

    def check(self, game: Game, seat: Seat) -> None:
        """Raise ``ClaimError`` if ``seat`` had a claim refused in this trick already."""
        if self._at.get(seat) == self._where(game):
            raise ClaimError(ONE_A_TRICK, seat)

    def refused(self, game: Game, seat: Seat) -> None:
        self._at[seat] = self._where(game)


@dataclass(frozen=True)
class ClaimRequest:
    """A claim to judge, away from the table's thread if need be (``answer``): the claim and a copy
    of the real hand it was made on.  The referee's alone: it is never shown, sent or logged.  Its
    identity is its token, as for an AI seat's request: an answer for a request the table no longer
    waits for is dropped."""

    claim: Claim
    position: HandState

    def answer(self) -> Verdict:
        return judge(self.position, self.claim)


def ask(game: Game, claim: Claim, refused: RefusedClaims) -> ClaimRequest:
    """Check that ``claim`` may be made now (``verify_claim``, one refusal a trick): the request to
    judge.  Raises ``ClaimError``."""
    verify_claim(game, claim)
    refused.check(game, claim.seat)
    state = game.state
    assert state is not None
    return ClaimRequest(claim, state.copy())


def wants_more(state: HandState) -> bool:
    """Whether each side wants more of its own tricks (Win contracts) or fewer (Lose)."""
    return state.contract.is_win


def side_share(state: HandState, seat: Seat, declarer_takes: int, left: int) -> int:
    """Of ``left`` remaining counted tricks, what ``seat``'s side takes when the declarer takes
    ``declarer_takes`` of them."""
    return declarer_takes if seat == state.declarer else left - declarer_takes


def judge(state: HandState, claim: Claim, solver: Solver | None = None) -> Verdict:
    """The referee's verdict on ``claim`` in the position of ``state`` (the real hands, in the
    middle of a trick or between tricks).  ``state`` is not changed.  ``solver`` (for this hand)
    may be given to reuse its table of bounds."""
    if state.finished:
        raise WrongPhaseError("the hand is over: there is nothing left to claim")
    left = counted_left(state)
    if not 0 <= claim.tricks <= left:
        raise ClaimError(f"a claim is a number of tricks from 0 to {left}", claim.seat)
    solver = solver or solver_for(state)
    if not makes(state, claim, left, solver):
        return Verdict(claim, left, False)
    hands, leader, trick = position(state)
    value = solver.value(hands, leader, trick)
    share = side_share(state, claim.seat, value, left)
    assert share >= claim.tricks if wants_more(state) else share <= claim.tricks, "the claim was found to hold"
    line = perfect_line(state, solver)
    played = state.copy()
    for card in line:
        played.push(card)
    count = played.count()
    taken = count - state.count()
    assert taken == value, "the perfect line must make the exact value"
    return Verdict(claim, left, True, tuple(line), share, count)


def makes(state: HandState, claim: Claim, left: int, solver: Solver) -> bool:
    """Whether the claimer's side makes ``claim`` (of ``left`` counted tricks) whatever the other
    side plays: one zero-window question on the declarer's whole-hand count (``reaches``), where
    the exact value asks several.  So a refused claim costs that question alone; the value and the
    line are worked out only for a claim that holds."""
    now = state.count()
    by_declarer = claim.seat == state.declarer
    if wants_more(state):  # at least claim.tricks for the claimer's side
        if by_declarer:
            return reaches(state, now + claim.tricks, solver)
        return not reaches(state, now + left - claim.tricks + 1, solver)
    if by_declarer:  # at most claim.tricks for the claimer's side
        return not reaches(state, now + claim.tricks + 1, solver)
    return reaches(state, now + left - claim.tricks, solver)


def perfect_line(state: HandState, solver: Solver | None = None) -> list[Card]:
    """The rest of the hand with perfect play by both sides: at each turn the lowest card (by
    number: C, K, L, B, then 1 to 9) among those the solver finds best for the side to play.

    The exact value is known once (``final``, the declarer's whole-hand count); each turn then
    plays the first of its cards that keeps it (``keeping_cards``: one zero-window question for
    each run of equivalent cards, lowest first, until one does).
    Asking ``card_values`` for every card instead solved each alternative exactly: 7.5 s of CPU
    at worst for a claim in trick 1 over 70 deals, against 3 s (docs/protocol.md, "Claims")."""
    solver = solver or solver_for(state)
    hands, leader, trick = position(state)
    final = state.count() + solver.value(hands, leader, trick)
    play = state.copy()
    line: list[Card] = []
    while not play.finished:
        card = next(keeping_cards(play, final, solver), None)
        if card is None:  # pragma: no cover - the solver's value is kept by some card
            raise AssertionError("no card keeps the exact value")
        play.push(card)
        line.append(card)
    return line


# --- words ------------------------------------------------------------------------------


class Where(NamedTuple):
    """What the words of a claim need of the position it was made in, all of it public: the
    contract, the declarer and how many tricks were finished."""

    contract: Contract
    declarer: Seat
    trick_number: int

    @classmethod
    def of(cls, state: HandState) -> Where:
        return cls(state.contract, state.declarer, state.trick_number)


def verdict_in(hand: PastHand, claim: Claim, play: int) -> tuple[Where, Verdict]:
    """The accepted verdict on ``claim`` made before card ``play`` (0-based) of ``hand``, read
    back from the hand as it was played out (a client hears of it so), with where it was made."""
    declaration = hand.declaration
    assert declaration is not None and hand.declarer is not None and hand.result is not None
    where = Where(declaration.contract, hand.declarer, play // NUM_SEATS)
    left = tricks_left(where.contract, where.trick_number)
    counted = where.contract.counted_mask
    takes = sum(
        1
        for t, seat in enumerate(hand.trick_winners)
        if t >= where.trick_number and seat == where.declarer and counted >> t & 1
    )
    share = takes if claim.seat == where.declarer else left - takes
    return where, Verdict(claim, left, True, tuple(hand.plays[play:]), share, hand.result)


def told_claim(hand: PastHand, claim: Claim, play: int, teller: Teller) -> str | None:
    """The words of ``claim``, sent before card ``play`` of ``hand``, once ``hand`` shows it held
    (played out to its end): how a client tells the server's verdict.  None before."""
    if hand.result is None or len(hand.plays) < play:
        return None
    where, verdict = verdict_in(hand, claim, play)
    return claim_text(where, verdict, teller)


def _side(teller: Teller, where: Where, seat: Seat) -> tuple[str, bool]:
    """The claimer's side as words, and whether they take a plural verb: "you", "Kenji",
    "you and Hana", "Hana and Kenji"."""
    if seat == where.declarer:
        return teller.object(seat), seat == teller.you
    defenders = [s for s in range(NUM_SEATS) if s != where.declarer]
    if teller.you in defenders:
        defenders.sort(key=lambda s: s != teller.you)
    return f"{teller.object(defenders[0])} and {teller.object(defenders[1])}", True


def _remaining(trick_number: int, left: int) -> str:
    """ "the remaining 5 tricks", or "the remaining 6 tricks that count" when some left do not."""
    counts_all = left == TRICKS - trick_number
    what = "trick" if left == 1 else f"{left} tricks"
    return f"the remaining {what}" + ("" if counts_all else " that count")


def _share(trick_number: int, tricks: int, left: int) -> str:
    if tricks == left:
        return _remaining(trick_number, left)
    if tricks == 0:
        return "none of " + _remaining(trick_number, left)
    return f"{tricks} of " + _remaining(trick_number, left)


ACCEPTED = "Claim accepted: "
"""How ``claim_text`` begins the words of a claim that held."""


def claim_confirmed(told: str, claimer: str) -> str | None:
    """The hand summary's line for a claim that held, from the words ``claim_text`` told it in
    at the table, ``claimer`` being who made it ("You", or a name): "You claimed, and it held:
    you take the remaining 4 tricks. The hand ends: you take 12 tricks."  None for words that
    are not those of a claim that held.

    >>> claim_confirmed("Claim accepted: you take the remaining 4 tricks. The hand ends: you take 12 tricks.", "You")
    'You claimed, and it held: you take the remaining 4 tricks. The hand ends: you take 12 tricks.'
    """
    if not told.startswith(ACCEPTED):
        return None
    return f"{claimer} claimed, and it held: {told[len(ACCEPTED) :]}"


def claim_text(state: HandState | Where, verdict: Verdict, teller: Teller) -> str:
    """The verdict in words for the table (``teller``'s ``you`` is the reader).  ``state`` is the
    position the claim was made in (or what of it is public, ``Where``).  A refusal reads the
    same whatever the unseen cards are: it is made of public facts only."""
    where = state if isinstance(state, Where) else Where.of(state)
    claim = verdict.claim
    side, many = _side(teller, where, claim.seat)
    take = "take" if many else "takes"
    if verdict.holds:
        assert verdict.side_takes is not None and verdict.count is not None
        text = f"{ACCEPTED}{side} {take} {_share(where.trick_number, verdict.side_takes, verdict.left)}"
        if verdict.side_takes != claim.tricks:
            text += f" (the claim was {claim.tricks})"
        declarer = teller.subject(where.declarer, "takes")
        if where.declarer == teller.you:
            declarer = declarer[0].lower() + declarer[1:]  # "you take", after the colon
        counted = "" if where.contract.counted_mask == (1 << TRICKS) - 1 else " that count"
        return f"{text}. The hand ends: {declarer} {plural(verdict.count, 'trick')}{counted}."
    others = "the others" if claim.seat == where.declarer else teller.object(where.declarer)
    remaining = _remaining(where.trick_number, verdict.left)
    if where.contract.is_win:
        if claim.tricks == verdict.left:
            why = f"{others} could stop {side} taking all of {remaining}"
        elif claim.tricks == 1:
            why = f"{others} could keep {side} from taking any of {remaining}"
        else:
            why = f"{others} could hold {side} to fewer than {claim.tricks} of {remaining}"
    elif claim.tricks == 0:
        why = f"{others} could make {side} take at least one of {remaining}"
    else:
        why = f"{others} could make {side} take more than {claim.tricks} of {remaining}"
    return f"Claim refused: {why}. Play on."


def claim_prompt(contract: Contract, trick_number: int) -> str:
    """What a claim is about when ``trick_number`` tricks are finished, for a dialog or a help
    line: "all, none or 0-5 of the remaining 5 tricks"."""
    left = tricks_left(contract, trick_number)
    return f"{ALL}, {NONE} or 0-{left} of {_remaining(trick_number, left)}"
