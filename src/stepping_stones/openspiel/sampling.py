"""Who might hold the cards a seat cannot see: deals drawn from what the seat knows.

ISMCTS searches many possible worlds, each one deal of the unseen cards that agrees with the
seat's ``PlayerView``.  They are drawn from the knowledge the expert plays from, nothing else:

* the card counting of ``ai.knowledge`` (who has shown out of a suit, who could not beat a
  card in Must Beat) says which deals are *possible*: ``Knowledge.sample_layout`` draws one;
* the bidding inference of ``ai.inference`` says which are *likely*: a declarer's hand suits
  its declaration, a seat that passed had no hand it wanted to declare.  ``CANDIDATES`` possible
  deals are drawn and one of them kept in proportion to ``BiddingEvidence``'s weight
  (sampling-importance-resampling: the more candidates, the closer to the expert's weighting).

In the bidding, nothing has been played: every split of the unseen cards is possible, and only
the passes before this seat's bid weigh them.  The draw uses only the view and the generator it is
given, so the same view and seed give the same deals wherever the cards really are.
"""

from __future__ import annotations

import math
from random import Random

from ..ai.inference import BiddingEvidence
from ..ai.knowledge import Knowledge
from ..engine import HAND_SIZE, NUM_SEATS, Mask, Phase, PlayerView, Seat, cards_of

CANDIDATES = 8
"""Possible deals drawn for each deal kept, weighed by the bidding."""


def possible_deal(view: PlayerView, rng: Random) -> dict[Seat, Mask]:
    """One deal of the other two seats' cards for this hand, *as dealt* (the cards they played
    included), that agrees with the card counting of ``view``."""
    others = [(view.seat + i) % NUM_SEATS for i in (1, 2)]
    if view.phase is Phase.PLAY and view.declaration is not None:
        layout = Knowledge(view).sample_layout(rng)
        return {s: layout[s] | view.played_by(s) for s in others}
    unseen = list(cards_of(view.unseen_cards))
    rng.shuffle(unseen)
    first = 0
    for c in unseen[:HAND_SIZE]:
        first |= 1 << c
    return {others[0]: first, others[1]: view.unseen_cards & ~first}


def draw_deal(view: PlayerView, rng: Random, candidates: int = CANDIDATES) -> dict[Seat, Mask]:
    """A deal of the hidden cards of the hand in play (bidding or play), drawn from the card
    counting and weighed by the bidding: the other two seats' hands as dealt."""
    if view.phase is not Phase.BIDDING and view.phase is not Phase.PLAY:
        raise ValueError("no hand is being bid or played: nothing is hidden")
    evidence = BiddingEvidence(view)
    if not evidence.informative or candidates <= 1:
        return possible_deal(view, rng)
    drawn = [possible_deal(view, rng) for _ in range(candidates)]
    logs = [evidence.log_weight(deal) for deal in drawn]
    top = max(logs)
    weights = [math.exp(w - top) for w in logs]
    point = rng.random() * sum(weights)
    for deal, weight in zip(drawn, weights, strict=True):
        point -= weight
        if point < 0:
            return deal
    return drawn[-1]
