"""A seat's view as the front ends draw it, and the engine's checks on what the seat has seen.

``turned`` numbers a view's seats from its own (the person in seat 0, as in a local game);
``replica`` is a game that agrees with all a view shows, on which ``refusal_of`` runs the
engine's own checks of the seat's bid or card, to word a refusal as a local game does.
"""

from __future__ import annotations

from dataclasses import replace
from random import Random
from typing import TypeVar

from ..engine import NUM_SEATS, Bid, Game, IllegalActionError, PastHand, Phase, PlayerView, sorted_cards

# --- the person in seat 0 ---------------------------------------------------------------------


def _turn(seat: int | None, by: int) -> int | None:
    return None if seat is None else (seat - by) % NUM_SEATS


def _seats(seats: tuple[int, ...], by: int) -> tuple[int, ...]:
    return tuple((s - by) % NUM_SEATS for s in seats)


_T = TypeVar("_T")


def _three(values: tuple[_T, _T, _T] | list[_T], by: int) -> tuple[_T, _T, _T]:
    return (values[by % 3], values[(by + 1) % 3], values[(by + 2) % 3])


def _turned_past(hand: PastHand, by: int) -> PastHand:
    forehand = _turn(hand.forehand, by)
    assert forehand is not None
    return replace(hand, forehand=forehand, bid_seats=_seats(hand.bid_seats, by), declarer=_turn(hand.declarer, by),
                   play_seats=_seats(hand.play_seats, by), trick_winners=_seats(hand.trick_winners, by),
                   winning=_turn(hand.winning, by))


def turned(view: PlayerView) -> PlayerView:
    """``view`` with the seats numbered from its own: the seat is 0, the next one 1.  It is the
    view seat 0 would have of the same game with the players moved round the table, which is how
    every front end draws a game (the person at seat 0)."""
    by = view.seat
    if by == 0:
        return view
    forehand = _turn(view.forehand, by)
    assert forehand is not None
    return replace(
        view, seat=0, players=_three(view.players, by), forehand=forehand,
        sheet={cid: _three(row, by) for cid, row in view.sheet.items()}, redo_spent=_three(view.redo_spent, by),
        history=tuple(_turned_past(h, by) for h in view.history), bid_seats=_seats(view.bid_seats, by),
        bidder=_turn(view.bidder, by), declarer=_turn(view.declarer, by), play_seats=_seats(view.play_seats, by),
        trick_winners=_seats(view.trick_winners, by), winning=_turn(view.winning, by), to_act=_turn(view.to_act, by),
    )


# --- the engine's checks, on what the seat has seen ---------------------------------------------


def replica(view: PlayerView) -> Game:
    """A game that agrees with everything ``view`` shows: the finished hands as they were played
    (all their cards are public), and the hand in progress dealt with the seat's own cards and, for
    the others, the cards they played and a layout of the unseen cards that agrees with every card
    seen (``ai.knowledge``).  Only the seat's own moves are checked on it, which never depend on the
    other hands.  Raises the engine's errors if the view describes no game."""
    from ..ai.knowledge import Knowledge

    first = view.history[0].forehand if view.history else view.forehand
    game = Game(view.rules, view.players, first)

    def replay(deal: tuple[int, int, int], hand: PastHand) -> None:
        log = game.start_hand(deal)
        for i, bid in enumerate(hand.bids):
            if i >= len(log.bids):  # the engine writes the forced passes itself
                game.bid(bid)
        for card in hand.plays:
            game.play(card)

    for past in view.history:
        replay((past.played_by(0), past.played_by(1), past.played_by(2)), past)
    current = view.shown_hand()
    if view.phase in (Phase.BIDDING, Phase.PLAY) and current is not None:
        hidden = Knowledge(view).sample_layout(Random(0)) if view.declaration is not None else {}
        deal = [0, 0, 0]
        unseen = sorted_cards(view.unseen_cards, 9)
        for seat in range(NUM_SEATS):
            if seat == view.seat:
                deal[seat] = view.dealt_cards
            elif hidden:
                deal[seat] = hidden[seat] | view.played_by(seat)
            else:  # before the declaration nothing has been played: any split of the unseen cards
                for card in unseen[:12]:
                    deal[seat] |= 1 << card
                unseen = unseen[12:]
        replay((deal[0], deal[1], deal[2]), current)
    return game


def refusal_of(view: PlayerView, action: Bid | int) -> IllegalActionError | None:
    """The engine's refusal of the seat's ``action`` now, or None if it would be made."""
    try:
        game = replica(view)
    except Exception:  # a view the replica cannot follow: the server alone decides
        return None
    try:
        if isinstance(action, int):
            game.verify_play(action)
        else:
            game.verify_bid(action)
    except IllegalActionError as exc:
        return exc
    return None
