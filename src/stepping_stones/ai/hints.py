"""Hints for a person: the expert's bid or card for a view, with a reason in players' words.

``hint_for(view)`` asks the expert (``expert.py``) what it would do in the person's place --
from the same ``PlayerView`` the person sees, nothing more -- and says why, from the expert's
own reckoning: for a card, what it does to this trick and how many counted tricks the hand is
worth with it against the next best card; for a bid, what this hand is expected to make in the
contract, what that is worth on the sheet, and what waiting is worth instead (with the risk of
the puddle when it is the forehand's bid).
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Protocol

from ..engine import (
    ABOVE,
    CARD_NAMES,
    NUM_SEATS,
    PASS,
    STRENGTH,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_OF,
    Bid,
    Card,
    Declaration,
    Mask,
    Phase,
    PlayerView,
    Seat,
    cards_of,
    trick_takers,
    trick_winner,
)
from .bidding import estimate
from .expert import CardReckoning, ExpertAI
from .features import features
from .model import fitted_model
from .planning import BidReckoning


def ordinal(n: int) -> str:
    """``ordinal(4)`` -> ``'4th'``."""
    if 10 <= n % 100 <= 20 or n % 10 > 3 or n % 10 == 0:
        return f"{n}th"
    return f"{n}{('st', 'nd', 'rd')[n % 10 - 1]}"


def _number(n: int) -> str:
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
    return words[n] if 0 <= n < len(words) else str(n)


def _tricks(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".") if abs(x - round(x)) > 0.05 else str(round(x))


def counted(x: float) -> str:
    """``'about 4.3 counted tricks'``, ``'about 1 counted trick'``: the one unit every hint
    counts a hand in (the declarer's tricks that count for the contract).

    >>> counted(1.02), counted(0), counted(5.75)
    ('about 1 counted trick', 'about 0 counted tricks', 'about 5.8 counted tricks')
    """
    text = _tricks(x)
    return f"about {text} counted trick{'' if text == '1' else 's'}"


def _points(x: float) -> str:
    """``'+1.3 sheet points'``; a value too small to show is ``'no sheet points either way'``,
    never -0.0."""
    return "no sheet points either way" if abs(x) < 0.05 else f"{x:+.1f} sheet points"


def _more(x: float) -> str:
    """``'0.4 sheet points more'`` (``'1 sheet point more'``)."""
    text = f"{x:.1f}"
    return f"{text} sheet point{'' if text == '1.0' else 's'} more"


USUAL = "the expert's usual result with such a hand against the computer players"
"""What a bid hint's count is: the bidding model's estimate (``bidding.estimate``), fitted
from hands the expert declared against two heuristic seats; a card hint's count is the search's,
with every seat playing its best."""


SAME = 0.05
"""Two cards whose mean counts (and, when the search was exact, mean sheet points) differ by
less than this are as good as each other: the hint says "B6 does as well"."""


def as_good(reckoning: CardReckoning, card: Card) -> bool:
    """Whether ``card`` is the reckoning's choice or as good as it on the layouts it weighed:
    the hint would have said it "does as well"."""
    chosen = reckoning.chosen
    if card == chosen:
        return True
    if card not in reckoning.values or abs(reckoning.values[card] - reckoning.values[chosen]) >= SAME:
        return False
    return not reckoning.points or abs(reckoning.points[card] - reckoning.points[chosen]) < SAME


@dataclass(frozen=True)
class Hint:
    """A suggested action and why: ``action`` is a bid or a card (as the view's legal actions)."""

    action: Bid | Card
    reason: str
    short: str = ""  # the reason in a few words, for a place too small for all of it

    @property
    def action_text(self) -> str:
        """``'Play K9'``, ``'Pass'``, ``'Declare Lose Tricks (No Trump), 9 high'``."""
        if isinstance(self.action, int):
            return f"Play {CARD_NAMES[self.action]}"
        if isinstance(self.action, Declaration):
            return ("Spend your redo token on " if self.action.redo else "Declare ") + self.action.describe().replace(
                " (redo)", ""
            )
        return "Pass"

    @property
    def text(self) -> str:
        """The hint as one line: ``'Play K9: ...'``."""
        return f"{self.action_text}: {self.reason}"

    @property
    def brief(self) -> str:
        """The hint in a line or two: ``'Play K9: it wins this trick; you end with about 5 counted
        tricks'`` (the whole ``text`` when it has no shorter reason)."""
        return f"{self.action_text}: {self.short}" if self.short else self.text


def hint_rng(view: PlayerView) -> Random:
    """The generator a hint uses for a view: the same position always gets the same hint."""
    return Random(f"hint:{view.hand_number}:{len(view.bids)}:{len(view.plays)}")


def hint_for(view: PlayerView, rng: Random | None = None, expert: ExpertAI | None = None) -> Hint:
    """The expert's action for the seat of ``view``, which must be that seat's turn, with a reason.

    A bid hint counts the hand as the bidding model does (``USUAL``); a card hint as the
    search does, with every seat at its best, and a declarer's says what the bidding expected
    when the two differ, and why."""
    if view.to_act != view.seat:
        raise ValueError(f"it is not seat {view.seat}'s turn")
    expert = expert or ExpertAI()
    rng = rng or hint_rng(view)
    if view.phase is Phase.BIDDING:
        return bid_hint(view, expert)
    if view.phase is Phase.PLAY:
        if not view.legal_cards & (view.legal_cards - 1):
            card = view.legal_cards.bit_length() - 1
            trick, _ = _trick_words(view, card)
            return Hint(card, f"it is your only legal card{'; ' + trick if trick else ''}.")
        return card_hint(view, expert.reckon_card(view, rng), bid_estimate(view, expert.params.own_model))
    raise ValueError(f"nothing to decide in phase {view.phase.value}")


# --- cards ---------------------------------------------------------------------------------


def role(view: PlayerView, seat: Seat) -> str:
    """Another seat as the player at ``view.seat`` thinks of it: ``'the declarer'``, ``'your
    partner'`` (the other defender), ``'the defender on your left'`` (next clockwise)."""
    if seat == view.seat:
        return "you"
    if seat == view.declarer:
        return "the declarer"
    if view.declarer != view.seat:
        return "your partner"
    return "the defender on your left" if seat == (view.seat + 1) % NUM_SEATS else "the defender on your right"


@dataclass(frozen=True)
class TrickFacts:
    """What playing a card does to the trick in play, as far as the view makes it certain:
    the facts a card hint may state, each checked against the engine's trick resolution
    (``trick_takers`` and ``trick_winner``), never guessed.

    ``gone`` is said only of a card that would win the trick so far, with players still to
    come, when every higher card of its suit has been played (those cards, highest first);
    ``trumps_out`` then says whether the others still hold a trump that could take it (a
    non-trump card in a trump contract).  ``taker`` is the seat that takes the trick whatever
    the others hold (``None`` when that depends on the hidden cards); ``follows`` is whether
    "so" joins the two: the card takes the trick *because* the cards above it are gone and no
    trump is left to the others.
    """

    card: Card
    leads: bool  # the card would be the best of the trick so far
    gone: tuple[Card, ...]
    trumps_out: bool
    taker: Seat | None
    follows: bool


def trick_facts(view: PlayerView, card: Card) -> TrickFacts:
    """The facts about this trick that playing ``card`` from ``view`` makes certain."""
    declaration = view.declaration
    assert declaration is not None
    takers = trick_takers(declaration.ranking, declaration.trump)
    played = view.current_trick()
    leader = played[0][0] if played else view.seat
    cards = [c for _, c in played] + [card]
    best = trick_winner(cards, takers)
    leads = best == len(cards) - 1
    best_seat = (leader + best) % NUM_SEATS
    complete = len(cards) == NUM_SEATS
    out = view.unseen_cards
    taker = best_seat if complete or not takers[cards[best]] & out else None
    above = ABOVE[declaration.ranking][card]
    gone: tuple[Card, ...] = ()
    if leads and not complete and above and above & ~view.played_mask == 0:
        gone = tuple(sorted(cards_of(above), key=lambda c: -STRENGTH[declaration.ranking][c]))
    trump = declaration.trump
    trumps_out = bool(gone) and trump is not None and SUIT_OF[card] != trump and bool(out & SUIT_MASKS[trump])
    follows = bool(gone) and not trumps_out and taker == view.seat
    return TrickFacts(card, leads, gone, trumps_out, taker, follows)


def _gone_words(facts: TrickFacts) -> str:
    """'the K9 is gone', 'the K9 and K8 are gone', 'every higher Koi card is gone'."""
    if len(facts.gone) > 2:
        return f"every higher {SUIT_NAMES[SUIT_OF[facts.card]]} card is gone"
    names = " and ".join(CARD_NAMES[c] for c in facts.gone)
    return f"the {names} {'are' if len(facts.gone) > 1 else 'is'} gone"


def _trick_words(view: PlayerView, card: Card) -> tuple[str, str]:
    """What ``card`` does to this trick, as far as it is certain, in full and in brief: ('the K9
    is gone, so it wins this trick, your 4th counted trick', 'it wins this trick, ...'),
    ('your partner takes this trick', the same), or ('', '')."""
    facts = trick_facts(view, card)
    gone = ""
    if facts.gone:
        gone = _gone_words(facts)
        if facts.trumps_out:
            gone += ", but the others still hold trumps"
    said = ""
    if facts.taker == view.seat:
        said = f"it wins this trick{_count_words(view)}"
    elif facts.taker is not None:
        said = f"{role(view, facts.taker)} takes this trick"
    if gone and said:
        return (f"{gone}, so {said}" if facts.follows else f"{gone}; {said}"), said
    return gone or said, said


def _count_words(view: PlayerView) -> str:
    """' -- your 4th counted trick' for a declarer whose next trick counts."""
    if view.declarer != view.seat or view.contract is None:
        return ""
    t = len(view.trick_winners)
    if not view.contract.counted_mask >> t & 1:
        return " (it does not count yet)"
    return f", your {ordinal(view.count() + 1)} counted trick"


def bid_estimate(view: PlayerView, own: str) -> float | None:
    """For the declarer's own view: the counted tricks the bidding model (of a declarer of level
    ``own``) expected of the declaration made, from the hand as dealt -- the number its bid hint
    gave.  ``None`` for a defender, who never saw that hand."""
    declaration = view.declaration
    if declaration is None or view.declarer != view.seat:
        return None
    return estimate(declaration.contract, view.dealt_cards, declaration.ranking, declaration.trump, fitted_model(own))


def card_hint(view: PlayerView, reckoning: CardReckoning, expected: float | None = None) -> Hint:
    """The hint for the card ``reckoning`` chose, with its reason, from the position ``view``;
    ``expected`` is what the bidding expected of the hand (``bid_estimate``), said beside the
    search's count when the two differ by half a trick or more."""
    card = reckoning.chosen
    declaration = view.declaration
    assert declaration is not None
    values = reckoning.values
    mine = values[card]
    parts = []
    trick, brief = _trick_words(view, card)
    if trick:
        parts.append(trick)
    ranked = reckoning.ranked()
    others = [c for c in ranked if c != card]
    who = "you end" if view.declarer == view.seat else "the declarer ends"
    outlook = f"with best play from every seat {who} with {counted(mine)}"
    short = [brief] if brief else []
    short.append(f"{who} with {counted(mine)}")
    notes = []
    if others:
        alt = others[0]
        sign = 1 if reckoning.wants_more else -1
        if sign * (values[alt] - mine) >= 0.05:  # more tricks for this side, fewer points
            outlook += (
                f"; {CARD_NAMES[alt]} makes about {_tricks(values[alt])}, but {CARD_NAMES[card]} gives "
                "the better chance of a good place on the sheet"
            )
            short.append(f"{CARD_NAMES[alt]} makes about {_tricks(values[alt])} but places worse")
        elif as_good(reckoning, alt):
            notes.append(f"{CARD_NAMES[alt]} does as well")
            short.append(f"{CARD_NAMES[alt]} does as well")
        else:
            outlook += f"; with {CARD_NAMES[alt]}, the next best, about {_tricks(values[alt])}"
            short.append(f"{CARD_NAMES[alt]}, the next best, about {_tricks(values[alt])}")
    how = "solved exactly" if reckoning.exact else "searched ahead"
    notes.append(f"{how} over {reckoning.layouts} likely layouts of the hidden cards")
    outlook += f" ({'; '.join(notes)})"
    if expected is not None and abs(expected - mine) >= 0.5:
        outlook += (
            f"; the bidding expected {counted(expected)} ({USUAL}); this count has every seat "
            "play its best with the cards it holds"
        )
    parts.append(outlook)
    reason = "; ".join(parts)
    return Hint(card, reason[0].lower() + reason[1:] + ".", "; ".join(short) + ".")


# --- bids ----------------------------------------------------------------------------------


def sure_winners(hand: Mask, ranking: int) -> int:
    """Cards in an unbroken run down from the top of their suit: each wins a trick when led.

    >>> from stepping_stones.engine import mask_of, parse_card
    >>> sure_winners(mask_of(parse_card(t) for t in "K9 K8 K6 C1".split()), 9)
    2
    """
    strength = STRENGTH[ranking]
    count = 0
    for suit in range(len(SUIT_MASKS)):
        mine = sorted((strength[c] for c in cards_of(hand & SUIT_MASKS[suit])), reverse=True)
        for expected, got in enumerate(mine):
            if got != 9 - expected:
                break
            count += 1
    return count


def _hand_words(view: PlayerView, bid: Declaration) -> str:
    """What the hand holds that matters for ``bid``: top cards, safe exits, trumps."""
    f = features(view.own_cards, bid.ranking, bid.trump)
    top_rank = bid.ranking
    tops = sum(1 for c in cards_of(view.own_cards) if STRENGTH[bid.ranking][c] == 9)
    winners = sure_winners(view.own_cards, bid.ranking)
    exits = int(f.side_lows + f.trump_lows)
    words = []
    if bid.contract.is_win:
        words.append(f"{_number(winners)} sure winner{'s' if winners != 1 else ''}")
        if bid.trump is not None:
            words.append(f"{_number(int(f.trumps))} {SUIT_NAMES[bid.trump]} as trumps")
        elif tops:
            words.append(f"{_number(tops)} {top_rank}{'s' if tops != 1 else ''}")
    else:
        words.append(f"{_number(tops)} {top_rank}{'s' if tops != 1 else ''}")
        words.append(f"{_number(exits)} safe exit{'s' if exits != 1 else ''}")
        if bid.trump is not None:
            words.append(f"{_number(int(f.trumps))} {SUIT_NAMES[bid.trump]} as trumps")
    return ", ".join(words)


def _others_done(view: PlayerView) -> bool:
    """Whether both other players have recorded every contract: they can only pass (or redo)."""
    return all(
        all(view.sheet[c.id][seat] is not None for c in view.rules.contracts)
        for seat in range(NUM_SEATS)
        if seat != view.seat
    )


class BidReckoner(Protocol):
    """What a bid hint asks of the expert (``ExpertAI.reckon_bid``)."""

    def reckon_bid(self, view: PlayerView) -> BidReckoning: ...


def bid_hint(view: PlayerView, expert: BidReckoner) -> Hint:
    """The hint for the bid ``expert`` values most, with its reason: the hand's expected counted
    tricks (``USUAL``) and what declaring now and waiting are worth, in sheet points."""
    if len(view.legal_bids) == 1:
        only = view.legal_bids[0]
        if only is PASS:
            return Hint(only, "you have nothing left to declare, so you must pass.")
        assert isinstance(only, Declaration)
        return Hint(only, "you are in the puddle and this is the only declaration left to you.")
    reckoning: BidReckoning = expert.reckon_bid(view)
    best = reckoning.best
    bid = best.bid
    declared = [o for o in reckoning.options if isinstance(o.bid, Declaration) and not o.bid.redo]
    hands = (
        f"{reckoning.hands_left} hands left for {reckoning.open_contracts} open contract"
        + ("s" if reckoning.open_contracts != 1 else "")
        + " of yours"
    )
    if isinstance(bid, Declaration):
        estimate = best.estimate if best.estimate is not None else 0.0
        hand = _hand_words(view, bid)
        if bid.redo:
            recorded = view.sheet[bid.contract.id][view.seat]
            reason = (
                f"{hand}; it should make {counted(estimate)} ({USUAL}) against the {recorded} on your "
                f"sheet, worth {_points(best.now)}"
            )
            short = f"{counted(estimate)} against the {recorded} on your sheet, worth {_points(best.now)}"
        elif PASS not in view.legal_bids:
            reason = f"you are in the puddle and must declare; {hand}; {counted(estimate)} expected ({USUAL})"
            short = f"you must declare; {counted(estimate)} expected"
        else:
            waiting = next(o for o in reckoning.options if o.bid is PASS)
            gain = best.value - waiting.value
            # the words follow the choice: a gain too small to show is "as much as waiting"
            than = f"{_more(gain)} than waiting" if gain >= 0.05 else "at least as much as waiting"
            reason = (
                f"{hand}; {counted(estimate)} expected ({USUAL}), worth {_points(best.now)} now, "
                f"{than} over the rest of the game ({hands})"
            )
            brief = f"{gain:.1f} more than waiting" if gain >= 0.05 else "as much as waiting"
            short = f"{counted(estimate)}, {_points(best.now)}, {brief}"
            if reckoning.forehand and reckoning.puddle_risk > 0.05 and not _others_done(view):
                reason += f"; waiting risks the puddle ({reckoning.puddle_risk:.0%})"
        return Hint(bid, reason + ".", short + ".")
    # A pass.
    if declared:
        top = max(declared, key=lambda o: o.value)
        assert isinstance(top.bid, Declaration)
        gain = best.value - top.value
        name = top.bid.describe()
        # the words follow the choice: waiting is never said to be worth nothing more
        best_now = (
            f"your best now, {name} ({_hand_words(view, top.bid)}), expects "
            f"{counted(top.estimate or 0.0)} ({USUAL}), worth {_points(top.now)}"
        )
        if reckoning.forehand and _others_done(view):
            # Nothing to wait for: the others can only pass (or spend a redo token).
            forced = (
                "both others have nothing left to declare, so unless one of them spends a redo token "
                "you will declare this hand from the puddle anyway"
            )
            return Hint(
                bid,
                f"{forced}; {best_now}.",
                "both others have nothing left to declare: you will declare from the puddle anyway.",
            )
        if gain >= 0.05:
            later = f"waiting for a better hand is worth {_more(gain)} over the rest of the game"
            short = f"waiting is worth {_more(gain)} than {top.bid.contract.name} now ({_points(top.now)})"
        else:
            later = "declaring it now gains nothing over waiting for a better hand"
            short = f"{top.bid.contract.name} now ({_points(top.now)}) gains nothing over waiting"
        reason = f"{best_now}; {later} ({hands})"
        if reckoning.forehand and reckoning.puddle_risk > 0.05:
            reason += f"; if both others pass you must declare anyway ({reckoning.puddle_risk:.0%})"
        return Hint(bid, reason + ".", short + ".")
    return Hint(bid, "no redo is worth your token now.")
