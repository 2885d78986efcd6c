"""What one player may see: ``Game.view(seat)`` for the AI seats and the table.

A view holds the player's own cards, everything that was played or said in
the open (bids, cards, tricks, the sheet), and nothing else: the other two
hands appear only as counts.  It is a frozen snapshot, so an AI can think
about it while the game goes on.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import FULL_DECK
from .contracts import Contract, Rules
from .game import Bid, Game, Phase
from .hand import HandState


@dataclass(frozen=True)
class PastHand:
    """A finished (or abandoned) hand as everyone saw it: no deals."""

    number: int
    forehand: int
    bids: tuple[Bid, ...]
    declarer: int | None
    declaration: Bid | None
    puddle: bool
    plays: tuple[int, ...]
    trick_winners: tuple[int, ...]
    result: int | None


@dataclass(frozen=True)
class PlayerView:
    seat: int
    rules: Rules
    players: tuple[str, str, str]
    phase: Phase
    hand_number: int  # 1-based number of the current hand (0 before the first deal)
    forehand: int
    sheet: dict[str, tuple[int | None, int | None, int | None]]
    redo_spent: tuple[bool, bool, bool]
    history: tuple[PastHand, ...]  # the hands before the current one
    # --- the current hand (empty before a deal) ---
    own_cards: int  # mask of the cards this player still holds
    dealt_cards: int  # mask of the 12 cards this player was dealt this hand
    bids: tuple[Bid, ...]
    bidder: int | None
    in_puddle: bool
    declarer: int | None
    declaration: Bid | None
    contract: Contract | None
    puddle: bool
    plays: tuple[int, ...]  # cards played this hand, in order
    play_seats: tuple[int, ...]  # who played each of them
    trick_winners: tuple[int, ...]
    to_act: int | None
    legal_bids: tuple[Bid, ...]  # this player's, when it is their bid
    legal_cards: int  # mask of this player's legal cards, when it is their card

    @property
    def ranking(self) -> int | None:
        return self.declaration.ranking if self.declaration else None

    @property
    def trump(self) -> int | None:
        return self.declaration.trump if self.declaration else None

    @property
    def played_mask(self) -> int:
        mask = 0
        for c in self.plays:
            mask |= 1 << c
        return mask

    @property
    def unseen_cards(self) -> int:
        """Cards held by the other two players: not ours, not yet played."""
        return FULL_DECK & ~self.dealt_cards & ~self.played_mask

    def cards_left(self, seat: int) -> int:
        """How many cards ``seat`` still holds."""
        return 12 - sum(1 for s in self.play_seats if s == seat)

    def current_trick(self) -> list[tuple[int, int]]:
        n = len(self.plays) % 3
        if not n:
            return []
        return list(zip(self.play_seats[-n:], self.plays[-n:]))

    def state_with(self, hidden: dict[int, int]) -> HandState:
        """The hand's card play as it would be if the other seats held ``hidden`` now.

        ``hidden`` maps each other seat to the mask of cards it holds now;
        together with this player's cards and the cards played, they must make
        up the deck.  The AI samples such layouts and searches them.
        """
        if self.declaration is None or self.contract is None:
            raise ValueError("no contract has been declared yet")
        start = [0, 0, 0]
        start[self.seat] = self.dealt_cards
        for seat, mask in hidden.items():
            start[seat] = mask
        for seat, c in zip(self.play_seats, self.plays):
            if seat != self.seat:
                start[seat] |= 1 << c
        state = HandState(start, self.declarer, self.contract, self.declaration.ranking, self.declaration.trump)
        for c in self.plays:
            state.push(c)
        return state


def _past(hand) -> PastHand:
    return PastHand(
        number=hand.number,
        forehand=hand.forehand,
        bids=tuple(hand.bids),
        declarer=hand.declarer,
        declaration=hand.declaration,
        puddle=hand.puddle,
        plays=tuple(hand.plays),
        trick_winners=tuple(hand.state.winners) if hand.state else (),
        result=hand.result,
    )


def _play_seats(state: HandState | None) -> tuple[int, ...]:
    if state is None:
        return ()
    seats = []
    leader = state.declarer
    for i in range(len(state.plays)):
        t, k = divmod(i, 3)
        if k == 0 and t:
            leader = state.winners[t - 1]
        seats.append((leader + k) % 3)
    return tuple(seats)


def make_view(game: Game, seat: int) -> PlayerView:
    hand = game.hand
    current = hand if hand is not None and game.phase in (Phase.BIDDING, Phase.PLAY) else None
    history = tuple(_past(h) for h in (game.log[:-1] if current else game.log))
    state = current.state if current else None
    to_act = game.to_act
    return PlayerView(
        seat=seat,
        rules=game.rules,
        players=game.players,
        phase=game.phase,
        hand_number=len(game.log) if current else len(game.log) + (0 if game.over else 1),
        forehand=game.forehand,
        sheet={k: tuple(v) for k, v in game.sheet.items()},
        redo_spent=tuple(game.redo_spent),
        history=history,
        own_cards=(state.hands[seat] if state else current.deal[seat]) if current else 0,
        dealt_cards=current.deal[seat] if current else 0,
        bids=tuple(current.bids) if current else (),
        bidder=game.bidder,
        in_puddle=game.in_puddle,
        declarer=current.declarer if current else None,
        declaration=current.declaration if current else None,
        contract=current.contract if current else None,
        puddle=current.puddle if current else False,
        plays=tuple(state.plays) if state else (),
        play_seats=_play_seats(state),
        trick_winners=tuple(state.winners) if state else (),
        to_act=to_act,
        legal_bids=tuple(game.legal_bids()) if to_act == seat and game.phase is Phase.BIDDING else (),
        legal_cards=game.legal_cards_mask() if to_act == seat and game.phase is Phase.PLAY else 0,
    )
