"""How the heuristic seat chooses a card.

The question behind every card is simple: *will the declarer take this
trick?*  The declarer of a Win contract wants yes, the declarer of a Lose
contract wants no, and the two defenders want the opposite of the declarer --
so they play as partners.  For each legal card the seat estimates how often
the trick ends the way its side wants:

* last to play, it knows: it plays each card on a copy of the hand (the
  engine's ``HandState``) and looks at who wins;
* earlier in the trick, it deals the unseen cards at random in two dozen ways
  that agree with everything it has counted (voids shown, what a Must Beat
  follower's card proves) and, in each, lets the players after it answer as
  their side would (the engine says which cards they may play).

Among the cards that do about as well, it picks by what the card is worth
later: in Win contracts it spends its cheapest card and keeps winners; in Lose
contracts it gets rid of its most dangerous high card while it is safe to.  In
Win Last 6 the first six tricks do not count, so it only saves its winners for
tricks 7 to 12.
"""

from __future__ import annotations

from random import Random

from ..engine import (
    ABOVE,
    NUM_SEATS,
    STRENGTH,
    SUIT_MASK_OF,
    SUIT_MASKS,
    Card,
    Goal,
    HandState,
    PlayerView,
    Seat,
    cards_of,
)
from .knowledge import Knowledge

# Weight of a card's future worth against the chance of the wanted trick
# outcome (a probability): one rank of difference is worth 1% of that chance.
TIE_WEIGHT = 0.01
# A choice within this chance of the best one is "about as good" (one sample in 24).
CLOSE = 0.04
# Work cap: after this many cards tried in look-ahead, no new layout is dealt
# (at least MIN_SAMPLES are).  It counts cards, not time, so the choice stays
# the same on any machine.
NODE_BUDGET = 6_000
MIN_SAMPLES = 8

# What a card is worth later, in ranks (see ``worth`` and ``danger``).
TRUMP_WORTH = 9  # Win: a trump outranks every side card as a card to keep
BOSS_WORTH = 3  # a card nothing out can beat
TRUMP_DANGER = 5  # Lose: a trump is likely to take a trick if kept
BOSS_DANGER = 3
DUCK_RELIEF = 0.3  # Lose: each card still out below it is a chance to duck under it later
# Leading in a Win contract (see ``_lead_bonus_win``).
LENGTH_LEAD = 0.8  # per card held in the led suit: long suits are worth setting up
DRAW_TRUMPS = 12  # the declarer draws trumps with a top trump when it holds as many as are out
SPARE_TRUMP_LEAD = 3  # ... or leads one when it holds twice as many as are out
DEFENDER_TRUMP_LEAD = -4  # defenders keep their trumps to ruff with


class CardChooser:
    """One card decision.  Build it from a view and an injected generator, call ``choose``."""

    def __init__(self, view: PlayerView, rng: Random, samples: int) -> None:
        self.view = view
        self.rng = rng
        self.samples = samples
        declaration = view.declaration
        if declaration is None or view.declarer is None:
            raise ValueError("no card to choose: no contract has been declared yet")
        self.me = view.seat
        self.declarer = view.declarer
        self.contract = declaration.contract
        self.win_goal = self.contract.goal is Goal.WIN
        self.ranking = declaration.ranking
        self.trump = declaration.trump
        self.strength = STRENGTH[self.ranking]
        self.above = ABOVE[self.ranking]
        self.trump_mask = SUIT_MASKS[self.trump] if self.trump is not None else 0
        self.know = Knowledge(view)
        self.trick_no = len(view.trick_winners)
        self.counted = bool(self.contract.counted_mask >> self.trick_no & 1)
        self.position = len(view.current_trick())  # cards already in this trick
        self.hand = view.own_cards
        self.nodes = 0

    # --- whose side is pleased by a trick ----------------------------------

    def pleased(self, seat: Seat, winner: Seat) -> bool:
        """Whether ``seat``'s side wants the trick to go to ``winner``."""
        return ((winner == self.declarer) == self.win_goal) == (seat == self.declarer)

    def _answer(self, st: HandState) -> Seat:
        """The trick's winner when the players still to play answer as their side wants."""
        seat = st.turn
        winner = -1
        for c in cards_of(st.legal_mask()):
            self.nodes += 1
            st.push(c)
            winner = st.winners[-1] if not st.in_trick else self._answer(st)
            st.pop()
            if self.pleased(seat, winner):
                return winner
        return winner

    def outcome(self, st: HandState, card: Card) -> Seat:
        self.nodes += 1
        st.push(card)
        winner = st.winners[-1] if not st.in_trick else self._answer(st)
        st.pop()
        return winner

    def chances(self, legal: list[Card]) -> list[float]:
        """Per legal card, the chance that the trick goes the way this seat's side wants."""
        view = self.view
        if self.position == NUM_SEATS - 1:
            # Last to play: the other hands do not matter for this trick.
            st = view.state_with(dict.fromkeys(self.know.others, 0))
            return [1.0 if self.pleased(self.me, self.outcome(st, c)) else 0.0 for c in legal]
        good = [0] * len(legal)
        taken = 0
        while taken < self.samples and (taken < MIN_SAMPLES or self.nodes < NODE_BUDGET):
            st = view.state_with(self.know.sample_layout(self.rng))
            for i, c in enumerate(legal):
                if self.pleased(self.me, self.outcome(st, c)):
                    good[i] += 1
            taken += 1
        return [g / taken for g in good]

    # --- what a card is worth later ------------------------------------------

    def _kept(self, card: Card, trump: float, boss: float) -> float:
        """What keeping ``card`` weighs: its strength, plus ``trump`` for a trump and ``boss`` for
        the best card left in its suit."""
        value = float(self.strength[card])
        if (1 << card) & self.trump_mask:
            value += trump
        if self.know.is_boss(card):
            value += boss
        return value

    def worth(self, card: Card) -> float:
        """Win contracts: how much keeping ``card`` is worth (a winner, a trump)."""
        return self._kept(card, TRUMP_WORTH, BOSS_WORTH)

    def danger(self, card: Card) -> float:
        """Lose contracts: how likely ``card`` is to take a trick if kept."""
        below = SUIT_MASK_OF[card] & self.know.out & ~self.above[card] & ~(1 << card)
        return self._kept(card, TRUMP_DANGER, BOSS_DANGER) - DUCK_RELIEF * below.bit_count()

    def preference(self, card: Card) -> float:
        """Tie-break: higher is preferred, in ranks (about 0-20)."""
        if self.win_goal:
            pref = -self.worth(card)
            if self.position == 0:
                pref += self._lead_bonus_win(card)
            return pref
        pref = self.danger(card)
        return pref

    def _lead_bonus_win(self, card: Card) -> float:
        """Leading in a Win contract: long suits to set up, trumps to draw for a strong declarer."""
        suit_mask = SUIT_MASK_OF[card]
        bonus = LENGTH_LEAD * (self.hand & suit_mask).bit_count()
        if self.trump_mask and self.me == self.declarer and (1 << card) & self.trump_mask:
            mine = (self.hand & self.trump_mask).bit_count()
            theirs = (self.know.out & self.trump_mask).bit_count()
            if theirs and mine >= theirs and self.know.is_boss(card):
                bonus += DRAW_TRUMPS  # draw the defenders' trumps with our top trumps
            elif theirs and mine >= 2 * theirs:
                bonus += SPARE_TRUMP_LEAD  # many more trumps: giving one up still pulls two of theirs
        elif self.trump_mask and self.me != self.declarer and (1 << card) & self.trump_mask:
            bonus += DEFENDER_TRUMP_LEAD
        return bonus

    # --- the choice -----------------------------------------------------------

    def choose(self) -> Card:
        legal = list(cards_of(self.view.legal_cards))
        if len(legal) == 1:
            return legal[0]
        if self.counted:
            chance = self.chances(legal)
        else:
            chance = [0.0] * len(legal)
        best = max(chance)
        scored = [
            (chance[i] + TIE_WEIGHT * self.preference(c), -c, c)
            for i, c in enumerate(legal)
            if chance[i] >= best - CLOSE
        ]
        return max(scored)[2]
