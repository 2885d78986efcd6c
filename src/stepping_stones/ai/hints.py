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
    trick_keys,
)
from .expert import CardReckoning, ExpertAI
from .features import features
from .planning import BidReckoning

_ORDINALS = ("1st", "2nd", "3rd")


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


def _points(x: float) -> str:
    """``'+1.3 points'``; a value too small to show is ``'no points either way'``, never -0.0."""
    return "no points either way" if abs(x) < 0.05 else f"{x:+.1f} points"


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
    """The expert's action for the seat of ``view``, which must be that seat's turn, with a reason."""
    if view.to_act != view.seat:
        raise ValueError(f"it is not seat {view.seat}'s turn")
    expert = expert or ExpertAI()
    rng = rng or hint_rng(view)
    if view.phase is Phase.BIDDING:
        return _bid_hint(view, expert)
    if view.phase is Phase.PLAY:
        if not view.legal_cards & (view.legal_cards - 1):
            card = view.legal_cards.bit_length() - 1
            return Hint(card, f"it is your only legal card{_trick_words(view, card)}.")
        return _card_hint(view, expert.reckon_card(view, rng))
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


def _trick_words(view: PlayerView, card: Card) -> str:
    """', and it wins this trick' when the view shows for certain who takes the trick."""
    fate = _certain_winner(view, card)
    if fate is None:
        return ""
    if fate == view.seat:
        return f", and it wins this trick{_count_words(view)}"
    return f", and {role(view, fate)} takes this trick"


def _count_words(view: PlayerView) -> str:
    """' -- your 4th counted trick' for a declarer whose next trick counts."""
    if view.declarer != view.seat or view.contract is None:
        return ""
    t = len(view.trick_winners)
    if not view.contract.counted_mask >> t & 1:
        return " (it does not count yet)"
    return f", your {ordinal(view.count() + 1)} counted trick"


def _certain_winner(view: PlayerView, card: Card) -> Seat | None:
    """Who wins the current trick if this seat plays ``card``, when the view makes it certain."""
    declaration = view.declaration
    assert declaration is not None
    trick = [c for _, c in view.current_trick()]
    seats = [s for s, _ in view.current_trick()]
    leader = seats[0] if seats else view.seat
    cards = [*trick, card]
    trump = declaration.trump
    trump_mask = SUIT_MASKS[trump] if trump is not None else 0
    rank = trick_keys(declaration.ranking, trump).__getitem__

    led = SUIT_MASKS[SUIT_OF[cards[0]]]
    best_seat, best_card = leader, cards[0]
    for i, c in enumerate(cards[1:], 1):
        if (1 << c) & (led | trump_mask) and rank(c) > rank(best_card):
            best_seat, best_card = (leader + i) % NUM_SEATS, c
    if len(cards) == NUM_SEATS:
        return best_seat
    # Players still to come could only beat the best card with a higher card of its suit or,
    # unless it is a trump, with a trump; if none is still out, the trick is decided.
    out = view.unseen_cards
    threat = out & ABOVE[declaration.ranking][best_card]
    if trump_mask and not (1 << best_card) & trump_mask:
        threat |= out & trump_mask
    return best_seat if not threat else None


def _card_hint(view: PlayerView, reckoning: CardReckoning) -> Hint:
    card = reckoning.chosen
    declaration = view.declaration
    assert declaration is not None
    values = reckoning.values
    mine = values[card]
    parts = []
    gone = _gone_above(view, card)
    if gone:
        plural = " and " in gone
        parts.append(f"{'' if gone.startswith('every') else 'the '}{gone} {'are' if plural else 'is'} gone")
    trick = _trick_words(view, card).removeprefix(", and ")
    if trick:
        parts.append(("so " if parts else "") + trick)
    ranked = reckoning.ranked()
    others = [c for c in ranked if c != card]
    who = "you end" if view.declarer == view.seat else "the declarer ends"
    outlook = f"with best play {who} with about {_tricks(mine)} counted tricks"
    short = [trick] if trick else []
    short.append(f"{who} with about {_tricks(mine)} counted tricks")
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
    parts.append(outlook)
    reason = ", ".join(parts[:-1]) + ("; " if len(parts) > 1 else "") + parts[-1]
    return Hint(card, reason[0].lower() + reason[1:] + ".", "; ".join(short) + ".")


def _gone_above(view: PlayerView, card: Card) -> str:
    """'K8' or 'K8 and K7': the cards above ``card`` in its suit that have been played, when
    no card above it is still out (so it is the top card because those are gone)."""
    declaration = view.declaration
    assert declaration is not None
    above = ABOVE[declaration.ranking][card]
    if above & view.unseen_cards or not above:
        return ""
    played = above & view.played_mask
    if not played:
        return ""
    names = [CARD_NAMES[c] for c in sorted(cards_of(played), key=lambda c: -STRENGTH[declaration.ranking][c])]
    if len(names) > 2:
        return f"every higher {SUIT_NAMES[SUIT_OF[card]]} card"
    return " and ".join(names)


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


def _bid_hint(view: PlayerView, expert: ExpertAI) -> Hint:
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
                f"{hand}; it should make about {_tricks(estimate)} against the {recorded} on your sheet, "
                f"worth {_points(best.now)}"
            )
            short = f"about {_tricks(estimate)} against the {recorded} on your sheet, worth {_points(best.now)}"
        elif PASS not in view.legal_bids:
            reason = f"you are in the puddle and must declare; {hand}, about {_tricks(estimate)} tricks expected"
            short = f"you must declare; about {_tricks(estimate)} tricks expected"
        else:
            waiting = next(o for o in reckoning.options if o.bid is PASS)
            gain = best.value - waiting.value
            # the words follow the choice: a gain too small to show is "as much as waiting"
            than = f"{gain:.1f} more than waiting" if gain >= 0.05 else "at least as much as waiting"
            reason = (
                f"{hand}; about {_tricks(estimate)} tricks expected, worth {_points(best.now)} now, {than} ({hands})"
            )
            short = f"about {_tricks(estimate)} tricks expected, worth {_points(best.now)} now, {than}"
            if reckoning.forehand and reckoning.puddle_risk > 0.05 and not _others_done(view):
                reason += f"; waiting risks the puddle ({reckoning.puddle_risk:.0%})"
        return Hint(bid, reason + ".", short + ".")
    # A pass.
    if declared:
        top = max(declared, key=lambda o: o.value)
        assert isinstance(top.bid, Declaration)
        gain = best.value - top.value
        name = top.bid.contract.name
        # the words follow the choice: waiting is never said to be worth nothing more
        best_now = (
            f"your best now, {name} ({_hand_words(view, top.bid)}), expects about "
            f"{_tricks(top.estimate or 0.0)} tricks, worth {_points(top.now)}"
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
            later = f"waiting for a better hand is worth {gain:.1f} more"
            short = f"waiting for a better hand is worth {gain:.1f} more than {name} now ({_points(top.now)})"
        else:
            later = "declaring it now gains nothing over waiting for a better hand"
            short = f"{name} now ({_points(top.now)}) gains nothing over waiting for a better hand"
        reason = f"{best_now}; {later} ({hands})"
        if reckoning.forehand and reckoning.puddle_risk > 0.05:
            reason += f"; if both others pass you must declare anyway ({reckoning.puddle_risk:.0%})"
        return Hint(bid, reason + ".", short + ".")
    return Hint(bid, "no redo is worth your token now.")
