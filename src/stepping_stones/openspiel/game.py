"""``python_stepping_stones``: the game as an OpenSpiel (pyspiel) Python game.

Importing this module registers the game: ``pyspiel.load_game("python_stepping_stones")``, with
the parameters ``contract_set`` (``"standard"`` or ``"advanced"``), ``short_game`` (a bool),
``omit`` (the contract a short game leaves out; ``""`` for the set's usual one) and
``redo_tokens`` (a bool).

* **Chance.**  The first chance node draws the seat with the first forehand (three outcomes);
  then each hand is dealt by 24 chance nodes, one card each (outcome = the card): the first 12
  to seat 0, the next 12 to seat 1, and seat 2 holds the 12 left.  No one sees a card of a hand
  until the whole hand is dealt.
* **Actions.**  ``actions.py``: a card is its card number, a bid is pass or a declaration with
  its ranking, trump and redo.  The engine decides what is legal and makes every move
  (``Game.start_hand``, ``Game.bid``, ``Game.play``); a seat with nothing to declare passes by
  itself, as the engine has it, so a forced pass is no action.
* **Returns.**  At the end, each seat's game points (``Game.totals``): every contract's column
  pays 3 + 1 - 1, so the game is constant-sum (3 points a contract).
* **Observations.**  ``observer.py``, from the seat's ``PlayerView`` only.
* **Resampling.**  ``resample_from_infostate`` deals the cards the seat cannot see again, from
  the expert's knowledge (``sampling.py``), and plays the same history on that deal.
* ``state.record()`` is the game so far as a game record (``storage.records``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from random import Random
from typing import Any, cast

import pyspiel

from ..engine import (
    FULL_DECK,
    HAND_SIZE,
    NUM_CARDS,
    NUM_SEATS,
    Game,
    Mask,
    Phase,
    PlayerView,
    Rules,
    RulesError,
    card_name,
    cards_of,
)
from ..storage.records import GameRecord, record_from_game
from .actions import ActionSpace
from .observer import ViewObserver
from .sampling import draw_deal

GAME_NAME = "python_stepping_stones"
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
PLAYERS = ("Seat 0", "Seat 1", "Seat 2")
"""The players' names in a record of a pyspiel game."""
DEALT_BY_CHANCE = 2 * HAND_SIZE
"""Chance nodes of one deal: seat 0's twelve cards, then seat 1's; seat 2 holds the rest."""

PARAMETERS: dict[str, Any] = {"contract_set": "standard", "short_game": False, "omit": "", "redo_tokens": False}

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Stepping Stones",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=NUM_SEATS,
    min_num_players=NUM_SEATS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def rules_of(params: dict[str, Any]) -> Rules:
    """The ``Rules`` the game's parameters name (``ValueError``, one line, for a wrong one)."""
    unknown = set(params) - set(PARAMETERS)
    if unknown:
        raise ValueError(
            f"unknown parameter(s) of {GAME_NAME}: {', '.join(sorted(unknown))} (known: {', '.join(PARAMETERS)})"
        )
    values = {**PARAMETERS, **params}
    try:
        return Rules(
            str(values["contract_set"]),
            short_game=bool(values["short_game"]),
            omit=str(values["omit"]) or None,
            redo_tokens=bool(values["redo_tokens"]),
        )
    except RulesError as exc:
        raise ValueError(f"{GAME_NAME}: {exc}") from None


class _Shared:
    """What every state of one game shares and never changes: the rules and the action ids.
    A clone keeps the same object (OpenSpiel deep-copies a Python state's attributes)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.space = ActionSpace(rules)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Table:
    """The engine's game of one state (``None`` before the first forehand is drawn).  Copied by
    playing its moves again on a new ``Game``, which is faster than a deep copy and goes through
    the engine's checks."""

    def __init__(self, game: Game | None) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return _Table(None if self.game is None else replayed(self.game))


def replayed(game: Game, deal: tuple[Mask, Mask, Mask] | None = None) -> Game:
    """``game`` played again move by move through the engine; ``deal``, if given, in place of the
    current hand's deal."""
    out = Game(game.rules, game.players, game.first_forehand)
    last = len(game.log) - 1
    for i, hand in enumerate(game.log):
        out.start_hand(deal if deal is not None and i == last else hand.deal)
        for k, bid in enumerate(hand.bids):
            if len(out.log[-1].bids) <= k:  # the others were forced, and made by the engine
                out.bid(bid)
        for c in hand.plays:
            out.play(c)
    return out


def _deal_actions(deal: tuple[Mask, Mask, Mask]) -> Iterator[int]:
    """The chance outcomes that deal ``deal``: seat 0's cards, then seat 1's."""
    yield from cards_of(deal[0])
    yield from cards_of(deal[1])


class SteppingStonesGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """The game for one set of parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        rules = rules_of(params or {})
        self.shared = _Shared(rules)
        contracts = len(rules.contracts)
        self.max_chance = 1 + rules.max_hands * DEALT_BY_CHANCE
        info = pyspiel.GameInfo(
            num_distinct_actions=self.shared.space.size,
            max_chance_outcomes=NUM_CARDS,
            num_players=NUM_SEATS,
            min_utility=-float(contracts),
            max_utility=3.0 * contracts,
            utility_sum=3.0 * contracts,
            max_game_length=self.max_chance + rules.max_hands * (NUM_SEATS + 1 + NUM_CARDS),
        )
        super().__init__(GAME_TYPE, info, {**PARAMETERS, **(params or {})})

    @property
    def rules(self) -> Rules:
        return self.shared.rules

    def new_initial_state(self) -> SteppingStonesState:
        return SteppingStonesState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.max_chance

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> ViewObserver:
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return ViewObserver(self.rules, self.shared.space, iig_obs_type, params)

    def state_of(self, game: Game) -> SteppingStonesState:
        """The state an engine game has reached (of these rules), its moves made as actions: the
        first forehand, each hand's deal (seat 0's cards, then seat 1's), its bids and cards."""
        if game.rules != self.rules:
            raise ValueError(
                f"the game is played by other rules ({game.rules.describe()}, not {self.rules.describe()})"
            )
        state = self.new_initial_state()
        state.apply_action(game.first_forehand)
        for hand in game.log:
            state._apply_hand(hand.deal, hand.bids, hand.plays)
        return state

    def state_from_view(self, view: PlayerView, rng: Random) -> SteppingStonesState:
        """A state that ``view``'s seat cannot tell from the real one: the cards it cannot see
        dealt from its knowledge (``sampling.draw_deal``), the history it saw played on them."""
        return self.new_initial_state()._rebuilt(view, rng)


class SteppingStonesState(pyspiel.State):  # type: ignore[misc]
    """One position of a game: the engine's ``Game`` and the cards of the deal in progress."""

    def __init__(self, game: SteppingStonesGame) -> None:
        super().__init__(game)
        self._shared = game.shared
        self._table = _Table(None)
        self._drawn: list[int] = []  # this deal's chance outcomes so far
        self._player = CHANCE  # who acts now (OpenSpiel asks very often)

    @property
    def engine(self) -> Game | None:
        """The engine's game (``None`` before the first forehand is drawn).  It knows every hand:
        for the seats, ``view(seat)``."""
        return self._table.game

    def view(self, seat: int) -> PlayerView | None:
        """What ``seat`` may see now (``None`` before the first forehand is drawn)."""
        game = self._table.game
        return None if game is None else game.view(seat)

    # --- OpenSpiel's state API ---------------------------------------------------------------

    def current_player(self) -> int:
        return self._player

    def _next_player(self) -> int:
        game = self._table.game
        if game is None or game.phase is Phase.DEAL:
            return CHANCE
        if game.phase is Phase.OVER:
            return TERMINAL
        seat = game.to_act
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        game = self._table.game
        assert game is not None and player == game.to_act
        if game.phase is Phase.BIDDING:
            return sorted(self._shared.space.bid_id(b) for b in game.legal_bids())
        return list(cards_of(game.legal_cards_mask()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._table.game is None:
            return [(s, 1.0 / NUM_SEATS) for s in range(NUM_SEATS)]
        drawn = 0
        for c in self._drawn:
            drawn |= 1 << c
        left = list(cards_of(FULL_DECK & ~drawn))
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        game = self._table.game
        if game is None:
            self._table.game = Game(self._shared.rules, PLAYERS, first_forehand=int(action))
        elif game.phase is Phase.DEAL:
            self._drawn.append(int(action))
            if len(self._drawn) == DEALT_BY_CHANCE:
                first = second = 0
                for c in self._drawn[:HAND_SIZE]:
                    first |= 1 << c
                for c in self._drawn[HAND_SIZE:]:
                    second |= 1 << c
                self._drawn = []
                game.start_hand((first, second, FULL_DECK & ~first & ~second))
        elif game.phase is Phase.BIDDING:
            game.bid(self._shared.space.bid(int(action)))
        else:
            game.play(int(action))
        self._player = self._next_player()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._table.game is None:
                return f"first forehand: seat {action}"
            return f"deal {card_name(action)}"
        if self._shared.space.is_card(action):
            return card_name(action)
        return str(self._shared.space.bid(action))

    def is_terminal(self) -> bool:
        return self._player == TERMINAL

    def returns(self) -> list[float]:
        game = self._table.game
        if game is None or not game.over:
            return [0.0] * NUM_SEATS
        return [float(t) for t in game.totals()]

    def __str__(self) -> str:
        game = self._table.game
        if game is None:
            return "the first forehand is not drawn yet"
        lines = [
            f"{game.rules.describe()}; hand {len(game.log)}, {game.phase.value}; totals "
            + " ".join(map(str, game.totals()))
        ]
        hand = game.hand
        if hand is not None and game.phase is not Phase.OVER:
            held = hand.state.hands if hand.declared else hand.deal
            lines += [f"seat {s}: {' '.join(card_name(c) for c in cards_of(held[s]))}" for s in range(NUM_SEATS)]
            lines.append("bids: " + ", ".join(map(str, hand.bids)))
            lines.append("plays: " + " ".join(map(card_name, hand.plays)))
        if self._drawn:
            lines.append(f"dealing: {len(self._drawn)} cards drawn")
        return "\n".join(lines)

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> SteppingStonesState:
        """A state with the same information state for ``player_id``: the cards it cannot see
        dealt again from its knowledge, drawn with ``probability_sampler``'s numbers."""
        return self.resampled(int(player_id), Random(int(probability_sampler() * 2**53)))

    # --- beyond OpenSpiel's API --------------------------------------------------------------

    def record(self) -> GameRecord:
        """The game so far as a game record (docs/records.md): the hands dealt so far, their bids
        and cards (a deal in progress is not in it).  ``ValueError`` before the first forehand."""
        game = self._table.game
        if game is None:
            raise ValueError("no record yet: the first forehand is not drawn")
        return record_from_game(game)

    def resampled(self, player: int, rng: Random, prefix: SteppingStonesState | None = None) -> SteppingStonesState:
        """A state ``player`` cannot tell from this one, the hidden cards drawn from ``rng``;
        ``prefix``, a clone of which it starts from, is this game up to the current hand's deal
        (``before_deal``), to spare playing the earlier hands again."""
        game = self._table.game
        if game is None or game.phase is Phase.OVER:
            return cast(SteppingStonesState, self.clone())  # nothing is hidden
        if game.phase is Phase.DEAL:
            out = self._prefix_like(prefix)
            for c in rng.sample(range(NUM_CARDS), len(self._drawn)):
                out.apply_action(c)  # nobody has seen the cards of a deal in progress
            return out
        return self._prefix_like(prefix)._rebuilt(game.view(player), rng)

    def before_deal(self) -> SteppingStonesState:
        """This game before the current hand's first card was dealt (everything in it public)."""
        game = self._table.game
        out = cast(SteppingStonesState, self.get_game().new_initial_state())
        if game is None:
            return out
        out.apply_action(game.first_forehand)
        current = game.log[-1] if game.phase is Phase.BIDDING or game.phase is Phase.PLAY else None
        for hand in game.log:
            if hand is current:
                break
            out._apply_hand(hand.deal, hand.bids, hand.plays)
        return out

    def _prefix_like(self, prefix: SteppingStonesState | None) -> SteppingStonesState:
        return self.before_deal() if prefix is None else cast(SteppingStonesState, prefix.clone())

    def _apply_hand(self, deal: tuple[Mask, Mask, Mask], bids: Any, plays: Any) -> None:
        for c in _deal_actions(deal):
            self.apply_action(c)
        space = self._shared.space
        game = self._table.game
        assert game is not None
        for k, bid in enumerate(bids):
            if len(game.log[-1].bids) <= k:
                self.apply_action(space.bid_id(bid))
        for c in plays:
            self.apply_action(c)

    def _rebuilt(self, view: PlayerView, rng: Random) -> SteppingStonesState:
        """This state (the game up to the deal of ``view``'s hand, or the initial state) carried
        on to ``view``'s position, the cards ``view`` cannot see drawn from ``rng``."""
        if self._table.game is None:
            first = view.history[0].forehand if view.history else view.forehand
            self.apply_action(first)
            for past in view.history:
                log = past.replayed()
                assert log is not None  # every earlier hand was played out
                self._apply_hand(log.deal, past.bids, past.plays)
        hidden = draw_deal(view, rng)
        deal = [0, 0, 0]
        deal[view.seat] = view.dealt_cards
        for s, mask in hidden.items():
            deal[s] = mask
        self._apply_hand((deal[0], deal[1], deal[2]), view.bids, view.plays)
        return self


pyspiel.register_game(GAME_TYPE, SteppingStonesGame)
