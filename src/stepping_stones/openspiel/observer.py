"""What a seat observes, as OpenSpiel's strings and tensors: written from its ``PlayerView`` only.

OpenSpiel asks a Python game's observer for two kinds of observation:

* the **information state** (``perfect_recall``): everything the seat has seen since the game
  began, hand by hand: the forehand, the cards it was dealt, the bids in order and the cards
  played in order.  A finished hand's 36 cards are all public, and the seat's own are the ones it
  played, so the view's history holds them;
* the **observation**: the table as it is now: the phase, the hand number, the sheet, the redo
  tokens spent, the seat's cards, this hand's bids, who played which card, the trick on the table,
  the tricks won, and who is to act.

Every piece is read from ``Game.view(seat)``: no card the seat cannot see reaches a string or a
tensor.  While a hand is being dealt (the chance nodes) no one has picked their cards up yet.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..engine import (
    NUM_CARDS,
    NUM_SEATS,
    TRICKS,
    Bid,
    Phase,
    PlayerView,
    Rules,
    card_name,
    cards_of,
    format_cards,
    record_cards,
)
from .actions import PASS_ACTION, ActionSpace

PHASES = (Phase.DEAL, Phase.BIDDING, Phase.PLAY, Phase.OVER)
MAX_BIDS = NUM_SEATS + 1  # three passes, then the puddle's declaration
RESULTS = TRICKS + 1  # a recorded result: 0 to 12 counted tricks


class ViewObserver:
    """OpenSpiel's ``PyObserver`` of one observation type: ``tensor`` and ``dict`` (its named
    pieces), ``set_from(state, player)`` and ``string_from(state, player)``."""

    def __init__(self, rules: Rules, space: ActionSpace, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.space = space
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.max_hands = rules.max_hands
        self.contracts = [c.id for c in rules.contracts]
        hands, bids = self.max_hands, space.bids
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (NUM_SEATS,))]
        if self.perfect_recall:
            if self.public:
                pieces.append(("forehands", (hands, NUM_SEATS)))
            if self.private:
                pieces.append(("dealt", (hands, NUM_CARDS)))
            if self.public:
                pieces += [("bids", (hands, MAX_BIDS, bids)), ("plays", (hands, NUM_CARDS, NUM_CARDS))]
        else:
            if self.public:
                pieces += [
                    ("phase", (len(PHASES),)),
                    ("hand", (hands + 1,)),
                    ("forehand", (NUM_SEATS,)),
                    ("sheet", (len(self.contracts), NUM_SEATS, RESULTS)),
                    ("redo_spent", (NUM_SEATS,)),
                ]
            if self.private:
                pieces += [("own_cards", (NUM_CARDS,)), ("dealt_cards", (NUM_CARDS,))]
            if self.public:
                pieces += [
                    ("bids", (MAX_BIDS, bids)),
                    ("played_by", (NUM_CARDS, NUM_SEATS)),
                    ("trick", (NUM_SEATS, NUM_CARDS)),
                    ("trick_winners", (TRICKS, NUM_SEATS)),
                    ("to_act", (NUM_SEATS,)),
                ]
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        index = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[index : index + size].reshape(shape)
            index += size

    # --- tensors ------------------------------------------------------------------------------

    def set_from(self, state: Any, player: int) -> None:
        """The tensor of ``state`` as ``player`` sees it."""
        self.tensor.fill(0)
        self.dict["player"][player] = 1
        view: PlayerView | None = state.view(player)
        if view is None:
            return
        if self.perfect_recall:
            self._set_recall(view)
        else:
            self._set_now(view)

    def _bids(self, out: Any, bids: tuple[Bid, ...]) -> None:
        for i, bid in enumerate(bids[:MAX_BIDS]):
            out[i, self.space.bid_id(bid) - PASS_ACTION] = 1

    def _set_recall(self, view: PlayerView) -> None:
        d = self.dict
        hands: list[tuple[int, Any]] = [(h.forehand, h) for h in view.history]
        current = view.shown_hand() if view.phase is Phase.BIDDING or view.phase is Phase.PLAY else None
        if current is not None:
            hands.append((view.forehand, current))
        for h, (forehand, hand) in enumerate(hands):
            own = view.dealt_cards if hand is current else hand.played_by(view.seat)
            if "forehands" in d:
                d["forehands"][h, forehand] = 1
                self._bids(d["bids"][h], hand.bids)
                for k, c in enumerate(hand.plays):
                    d["plays"][h, k, c] = 1
            if "dealt" in d:
                for c in cards_of(own):
                    d["dealt"][h, c] = 1

    def _set_now(self, view: PlayerView) -> None:
        d = self.dict
        if "phase" in d:
            d["phase"][PHASES.index(view.phase)] = 1
            d["hand"][min(view.hand_number, self.max_hands)] = 1
            d["forehand"][view.forehand] = 1
            for i, cid in enumerate(self.contracts):
                for s, result in enumerate(view.sheet[cid]):
                    if result is not None:
                        d["sheet"][i, s, result] = 1
            for s, spent in enumerate(view.redo_spent):
                d["redo_spent"][s] = float(spent)
            self._bids(d["bids"], view.bids)
            for s, c in zip(view.play_seats, view.plays, strict=True):
                d["played_by"][c, s] = 1
            for k, (_, c) in enumerate(view.current_trick()):
                d["trick"][k, c] = 1
            for t, w in enumerate(view.trick_winners):
                d["trick_winners"][t, w] = 1
            if view.to_act is not None:
                d["to_act"][view.to_act] = 1
        if "own_cards" in d:
            for c in cards_of(view.own_cards):
                d["own_cards"][c] = 1
            for c in cards_of(view.dealt_cards):
                d["dealt_cards"][c] = 1

    # --- strings ------------------------------------------------------------------------------

    def string_from(self, state: Any, player: int) -> str:
        """The string of ``state`` as ``player`` sees it."""
        view: PlayerView | None = state.view(player)
        if view is None:
            return f"seat {player}: the first forehand is not drawn yet"
        if self.perfect_recall:
            return self._recall_string(view)
        return self._now_string(view)

    def _recall_string(self, view: PlayerView) -> str:
        parts = [f"seat {view.seat}"]
        for hand in view.history:
            own = hand.played_by(view.seat) if self.private else 0
            parts.append(self._hand_string(hand.number, hand.forehand, own, hand.bids, hand.plays))
        if view.phase is Phase.BIDDING or view.phase is Phase.PLAY:
            own = view.dealt_cards if self.private else 0
            parts.append(self._hand_string(view.hand_number, view.forehand, own, view.bids, view.plays))
        return " | ".join(parts)

    def _hand_string(self, number: int, forehand: int, own: int, bids: tuple[Bid, ...], plays: tuple[int, ...]) -> str:
        text = f"hand {number}"
        if self.public:
            text += f" forehand {forehand}"
        if self.private:
            text += f" dealt {record_cards(cards_of(own))}"
        if self.public:
            text += f" bids {', '.join(map(str, bids))} plays {record_cards(plays)}"
        return text

    def _now_string(self, view: PlayerView) -> str:
        parts = [f"seat {view.seat}"]
        if self.public:
            parts.append(f"hand {view.hand_number} {view.phase.value} forehand {view.forehand}")
            sheet = "; ".join(
                f"{cid} {'/'.join('-' if r is None else str(r) for r in view.sheet[cid])}" for cid in self.contracts
            )
            parts.append(f"sheet {sheet}")
            if any(view.redo_spent):
                parts.append("redo spent " + " ".join(str(s) for s, spent in enumerate(view.redo_spent) if spent))
        if self.private and view.dealt_cards:
            parts.append(f"holds {format_cards(view.own_cards)}")
        if self.public:
            if view.bids:
                parts.append("bids " + ", ".join(f"{s}:{b}" for s, b in zip(view.bid_seats, view.bids, strict=True)))
            if view.plays:
                won = [view.tricks_won(s) for s in range(NUM_SEATS)]
                trick = " ".join(f"{s}:{card_name(c)}" for s, c in view.current_trick())
                parts.append(f"tricks won {'/'.join(map(str, won))} trick {trick or '-'}")
            if view.to_act is not None:
                parts.append(f"to act {view.to_act}")
        return " | ".join(parts)
