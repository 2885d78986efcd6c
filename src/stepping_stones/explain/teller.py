"""``Teller``: what happened at the table in a player's words -- why a trick was won, and each
event as a sentence, with the person as "You" (``explain``, the package's face, says what the
words are for and what this layer may import).  Nothing here decides a rule: the trick's winner
comes from the engine; this module only says why.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import (
    CARD_NAMES,
    ONE_HIGH,
    STRENGTH,
    SUIT_NAMES,
    SUIT_OF,
    Bid,
    Contract,
    FollowRule,
    IllegalActionError,
    MustBeatError,
    MustFollowError,
    Trick,
    format_cards,
)

_SECOND_PERSON = {
    "holds": "hold",
    "leads": "lead",
    "is": "are",
    "has": "have",
    "wins": "win",
    "plays": "play",
    "passes": "pass",
    "declares": "declare",
    "takes": "take",
    "was": "were",
    "must": "must",
    "does": "do",
    "had": "had",
    "declared": "declared",
    "took": "took",
    "placed": "placed",
}


class Teller:
    """Says things about the players of one table, with the person (``you``) as "You"."""

    def __init__(self, players: Sequence[str], you: int | None = 0) -> None:
        self.players = tuple(players)
        self.you = you

    def name(self, seat: int) -> str:
        return "You" if seat == self.you else self.players[seat]

    def object(self, seat: int) -> str:
        """The player as the object of a sentence: "you" or their name."""
        return "you" if seat == self.you else self.players[seat]

    def subject(self, seat: int, verb: str) -> str:
        """``'Hana holds'`` or ``'You hold'``."""
        if seat == self.you:
            return f"You {_SECOND_PERSON.get(verb, verb)}"
        return f"{self.players[seat]} {verb}"

    # --- tricks ----------------------------------------------------------------------

    def trick_reason(self, trick: Trick, contract: Contract, ranking: int, trump: int | None) -> str:
        """Why ``trick`` went to its winner, in one line: ``'B4 wins: it is trump'``,
        ``'1 high: C2 beats C6'``, ``'K8 wins: the only Koi, the others could not follow'``,
        ``'K7 wins: the highest Koi, over K5, K2; Hana had to beat K5'`` (Must Beat: why the
        winner played it)."""
        cards = dict(trick.cards)
        card = cards[trick.winner]
        name = CARD_NAMES[card]
        led = SUIT_OF[trick.cards[0][1]]
        key = STRENGTH[ranking]
        if trump is not None and SUIT_OF[card] == trump and led != trump:
            trumps = [c for _, c in trick.cards if SUIT_OF[c] == trump]
            if len(trumps) == 1:
                return f"{name} wins: it is trump"
            beaten = ", ".join(CARD_NAMES[c] for c in trumps if c != card)
            return f"{name} wins: the best trump ({ranking} high), over {beaten}"
        same = [c for _, c in trick.cards if SUIT_OF[c] == led]
        if len(same) == 1:
            return f"{name} wins: the only {SUIT_NAMES[led]}, the others could not follow"
        if contract.follow is FollowRule.MUST_BEAT and trick.winner != trick.leader:
            before = [c for s, c in trick.cards[: [s for s, _ in trick.cards].index(trick.winner)] if SUIT_OF[c] == led]
            best = max(before, key=key.__getitem__)
            must = f"; {self.object(trick.winner)} had to beat {CARD_NAMES[best]}"
        else:
            must = ""
        beaten = ", ".join(CARD_NAMES[c] for c in same if c != card)
        if ranking == ONE_HIGH:
            return f"1 high: {name} beats {beaten}{must}"
        what = "trump" if led == trump else SUIT_NAMES[led]
        return f"{name} wins: the highest {what}, over {beaten}{must}"

    # --- what happened, as sentences ---------------------------------------------------

    def dealt(self, number: int, forehand: int) -> str:
        return f"Hand {number} is dealt. {self.subject(forehand, 'holds')} the forehand card."

    def bid(self, seat: int, bid: Bid, puddle: bool = False) -> str:
        if bid.is_pass:
            return f"{self.subject(seat, 'passes')}."
        where = " from the puddle" if puddle else ""
        return f"{self.subject(seat, 'declares')}{where} {bid.describe()}."

    def puddle(self, seat: int) -> str:
        """The puddle in a sentence, its player after the colon as "you" or the name.

        >>> Teller(("Ann", "Bo", "Youssef"), 0).puddle(0)
        'All three passed: you are in the puddle and must declare.'
        >>> Teller(("Ann", "Bo", "Youssef"), 0).puddle(2)
        'All three passed: Youssef is in the puddle and must declare.'
        """
        be = "are" if seat == self.you else "is"
        return f"All three passed: {self.object(seat)} {be} in the puddle and must declare."

    def card(self, seat: int, card: int, trick: int, lead: bool) -> str:
        if lead:
            return f"Trick {trick}. {self.subject(seat, 'leads')} {CARD_NAMES[card]}."
        return f"{self.subject(seat, 'plays')} {CARD_NAMES[card]}."

    def trick_won(self, trick: Trick, reason: str) -> str:
        return f"{self.subject(trick.winner, 'wins')} trick {trick.number} ({reason})."

    def refusal(self, exc: IllegalActionError) -> str:
        """A refused action of the person's, in the second person and short enough for a line."""
        if isinstance(exc, MustBeatError):
            return f"You must beat {CARD_NAMES[exc.best]}: you hold {format_cards(exc.holding)}."
        if isinstance(exc, MustFollowError):
            text = f"You must follow {SUIT_NAMES[exc.suit]}"
            if "or play a trump" in str(exc):
                text += " or play a trump"
            return f"{text}: you hold {format_cards(exc.holding)}."
        text = str(exc)
        if self.you is not None:
            name = self.players[self.you]
            if text.startswith(name + " "):
                rest = text[len(name) + 1 :]
                verb, _, tail = rest.partition(" ")
                text = f"You {_SECOND_PERSON.get(verb, verb)} {tail}".replace(" their ", " your ")
        return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")
