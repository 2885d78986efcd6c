"""What the person puts together at their turn, the same for every flow: the card under the
cursor, the bid being chosen, and the hint asked for and shown.

``GameFlow`` (a game on this machine) and ``net.RemoteFlow`` (a seat at a table server) both keep
these with ``Choosing``; each says when the person may choose (``_may_choose``), what their view is
(``_choosing_view``) and what a hint shown does to the game (``_assist``), and publishes each change
with ``Publisher`` (``_change``).  Nothing here imports Textual.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass, replace

from ..ai.hints import Hint
from ..engine import Bid, Declaration, PlayerView, sorted_cards
from .state import BidChoice, TableState, bid_options

HINT_WORKING = "Hint: thinking it over..."
NO_HINT = "There is no hint for this position."


@dataclass(frozen=True, eq=False)
class HintRequest:
    """A hint asked for the person's position ``view``; ``answer()`` may run on any thread.
    Its identity is the token: the flow takes the answer only while this is the hint it waits for."""

    view: PlayerView

    def answer(self) -> Hint | None:
        from ..ai.hints import hint_for  # the expert is loaded by the first hint

        try:
            return hint_for(self.view)
        except ValueError:
            return None


class Choosing:
    """The cursor, the bid being chosen and the hint, kept by a flow (see the module)."""

    _cursor: int
    _bid: BidChoice
    _refusal: str | None
    _hint: Hint | None
    _hint_note: str | None
    _hint_asked: HintRequest | None
    _dirty: bool

    def _start_choosing(self) -> None:
        self._cursor = 0
        self._bid = BidChoice()
        self._hint = None
        self._hint_note = None
        self._hint_asked = None

    # --- what each flow says ---------------------------------------------------------------

    def _choosing_state(self) -> TableState | None:
        """The state last published (None before the first)."""
        raise NotImplementedError

    def _choosing_view(self) -> PlayerView | None:
        """The person's view now (None before the first)."""
        raise NotImplementedError

    def _may_choose(self) -> bool:
        """Whether the person may move the cursor now (their turn, nobody else thinking)."""
        raise NotImplementedError

    def _change(self) -> AbstractContextManager[None]:
        """Publish one new state for whatever changes inside."""
        raise NotImplementedError

    def _assist(self) -> None:
        """A hint was shown: the game counts as assisted."""
        raise NotImplementedError

    def bid(self, bid: Bid) -> None:
        """Make the person's bid."""
        raise NotImplementedError

    def play(self, card: int) -> None:
        """Play the person's card."""
        raise NotImplementedError

    def confirm(self) -> bool:
        """Make what the cursor or the bid choices show (Enter): whether it was made (not when it
        is not the person's turn, or the contract still needs a trump suit).  A card the rules
        refuse raises as ``play`` does (the state's refusal says why)."""
        state = self._choosing_state()
        if state is None or not self._may_choose():
            return False
        if state.playing and (card := state.chosen_card) is not None:
            self.play(card)
            return True
        if state.bidding and (bid := state.chosen_bid) is not None:
            self.bid(bid)
            return True
        return False

    # --- the card cursor and the bid ----------------------------------------------------------

    def move_cursor(self, step: int) -> None:
        """Move the card cursor ``step`` cards along the hand (round the ends)."""
        state = self._choosing_state()
        if state is not None and state.playing and self._may_choose() and (n := len(state.my_cards)):
            self.put_cursor((state.cursor + step) % n)

    def put_cursor(self, index: int) -> None:
        """Put the card cursor on the card at ``index`` of the person's hand in order."""
        state = self._choosing_state()
        if state is not None and state.playing and self._may_choose() and 0 <= index < len(state.my_cards):
            with self._change():
                self._cursor = index
                self._dirty = True

    def choose_bid(
        self, index: int | None = None, step: int = 0, ranking: int | None = None, trump: int | None = None
    ) -> None:
        """Change the bid being put together: the option at ``index`` (or ``step`` options along,
        round the ends), the ranking, the trump suit."""
        state = self._choosing_state()
        if state is None or not state.bidding:
            return
        bid = self._bid
        opts = state.bid_options
        if index is not None and 0 <= index < len(opts):
            bid = replace(bid, index=index)
        if step and opts:
            bid = replace(bid, index=(bid.index + step) % len(opts))
        if ranking is not None:
            bid = replace(bid, ranking=ranking)
        if trump is not None:
            bid = replace(bid, trump=trump)
        with self._change():
            self._bid = bid
            self._dirty = True

    # --- hints ----------------------------------------------------------------------------------

    def _ask_hint_for(self, view: PlayerView) -> HintRequest | None:
        """A new request for ``view`` (the flow has checked that one may be asked), or None while
        one is already being worked out.  Call inside ``_change``."""
        if self._hint_asked is not None and self._hint is None and self._hint_note == HINT_WORKING:
            return None
        self._hint_asked = HintRequest(view)
        self._refusal = None
        self._hint = None
        self._hint_note = HINT_WORKING
        self._dirty = True
        return self._hint_asked

    def hint_came(self, request: HintRequest, hint: Hint | None) -> None:
        """The hint worked out for ``request``: shown, with the cursor or the bid choices put on
        it (so Enter does it), and the game marked as assisted.  Dropped if the person has moved on."""
        view = self._choosing_view()
        if request is not self._hint_asked or view is None:
            return
        with self._change():
            self._dirty = True
            if hint is None:
                self._hint_note = NO_HINT
                return
            self._assist()
            self._hint = hint
            self._hint_note = None
            action = hint.action
            if isinstance(action, int):
                cards = sorted_cards(view.own_cards, view.ranking or self._bid.ranking)
                if action in cards:
                    self._cursor = cards.index(action)
                return
            key = (action.contract.id, action.redo) if isinstance(action, Declaration) else (None, False)
            opts = bid_options(view)
            bid = self._bid
            if key in opts:
                bid = replace(bid, index=opts.index(key))
            if isinstance(action, Declaration):
                bid = replace(bid, ranking=action.ranking, trump=action.trump)
            self._bid = bid

    def _clear_hint(self) -> None:
        if self._hint is not None or self._hint_note is not None or self._hint_asked is not None:
            self._dirty = True
        self._hint = None
        self._hint_note = None
        self._hint_asked = None
