"""One way to play a game: the seeds of its randomness and the driver that runs its seats.

``Seeds`` says where every random choice of a game comes from: the first
forehand, each hand's deal, and each decision of each seat.  Every stream is
derived from the game's seed text and the *position* (hand number, bids and
cards so far), never from a generator that has been running since the start.
So the same seed gives the same game wherever it is played -- in the app, in
``simulate`` or in a test -- and a game resumed half-way deals and decides
exactly as it would have without the break.

``Match`` moves a game on one step at a time: it deals, asks an AI seat for its
bid or card, or waits for a person (a seat of ``None``), and applies every
action through the engine.  ``drive`` runs a match until a person must act or
the game ends.  The app, simulate, tournament, calibrate, the benchmark and
the tests all play through it.

>>> from stepping_stones.ai import make_ai
>>> seeds = Seeds("demo")
>>> game = Game(Rules("standard"), first_forehand=seeds.first_forehand())
>>> drive(game, [make_ai("random")] * 3, seeds).over
True
>>> again = drive(Game(Rules("standard"), first_forehand=seeds.first_forehand()),
...               [make_ai("random")] * 3, seeds)
>>> [h.plays for h in again.log] == [h.plays for h in game.log]
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from random import Random

from ..ai import Action, Agent, decide, sees_every_hand
from ..engine import NUM_SEATS, Declaration, Game, HandLog, Mask, Pass, Phase, PlayerView, Rules, Seat


@dataclass(frozen=True)
class Seeds:
    """Where every random choice of one game comes from, by position.

    >>> s = Seeds("abc")
    >>> s.deal(3).random() == Seeds("abc").deal(3).random() != s.deal(4).random()
    True
    >>> Seeds.series("abc", 0), Seeds.series("abc", 2)
    (Seeds(game='abc'), Seeds(game='abc/2'))
    """

    game: str

    @classmethod
    def series(cls, seed: str | int, number: int) -> Seeds:
        """Game ``number`` (0-based) of the series ``seed``.

        The first game uses the seed itself, so ``simulate --games 1 --seed S``
        plays the deals of the app's game with seed ``S``.
        """
        return cls(str(seed) if number == 0 else f"{seed}/{number}")

    def first_forehand(self) -> Seat:
        """The seat holding the forehand card in hand 1."""
        return Random(f"{self.game}:forehand").randrange(NUM_SEATS)

    def deal(self, hand_number: int) -> Random:
        """The generator that deals hand ``hand_number`` (1-based): whoever sits where, and
        whatever was played before, the same hand number gets the same cards."""
        return Random(f"{self.game}:deal:{hand_number}")

    def stream(self, name: str) -> Random:
        """A generator of its own for anything else a program draws for this game (e.g. a
        declaration that a test or a calibration imposes)."""
        return Random(f"{self.game}:{name}")

    def decision(self, game: Game, seat: Seat) -> Random:
        """The generator of ``seat``'s decision now: the same position gives the same choice."""
        hand = game.hand
        bids = len(hand.bids) if hand else 0
        plays = len(hand.plays) if hand else 0
        return Random(f"{self.game}:ai:{len(game.log)}:{seat}:{bids}:{plays}")


class Step(Enum):
    """What a match needs next."""

    DEAL = "deal"  # the next hand is to be dealt
    AI = "ai"  # an AI seat is to bid or play
    PERSON = "person"  # a person is to bid or play
    OVER = "over"  # the game has ended


@dataclass(frozen=True)
class Request:
    """Everything an AI seat needs to decide, taken on the thread that owns the game:
    the agent, its view and its generator.  ``answer()`` may run on any thread.

    ``hands`` (what each seat holds) is given only to a seat that sees every hand, the lab's
    ``cheat`` seat, as it plays a card; every level of the app gets ``None`` and decides from its
    view alone."""

    seat: Seat
    agent: Agent
    view: PlayerView
    rng: Random
    hands: tuple[Mask, Mask, Mask] | None = None

    def answer(self) -> Action:
        return decide(self.agent, self.view, self.rng, self.hands)


class Match:
    """A game, its seats (an ``Agent``, or ``None`` for a person) and its seeds.

    ``listener`` is told after every change (deal, bid or card), e.g. to save.
    With ``strict`` off, an AI answer the rules refuse is replaced by the first
    legal action instead of stopping the game (the app's choice: a person's
    game never ends on an AI fault); simulations and tests stay strict.
    """

    def __init__(
        self,
        game: Game,
        seats: Sequence[Agent | None],
        seeds: Seeds,
        listener: Callable[[Game], None] | None = None,
        strict: bool = True,
    ) -> None:
        if len(seats) != NUM_SEATS:
            raise ValueError("a match needs exactly three seats")
        self.game = game
        self.seats = tuple(seats)
        self.seeds = seeds
        self.listener = listener
        self.strict = strict

    @classmethod
    def new(
        cls,
        rules: Rules,
        seats: Sequence[Agent | None],
        seeds: Seeds,
        players: Sequence[str] | None = None,
        listener: Callable[[Game], None] | None = None,
        strict: bool = True,
    ) -> Match:
        """A match of a new game whose first forehand comes from ``seeds``; the players are
        named after their seats' levels unless ``players`` names them."""
        names = (
            tuple(players)
            if players
            else tuple(f"{a.name}-{s}" if a is not None else f"person-{s}" for s, a in enumerate(seats))
        )
        game = Game(rules, names, seeds.first_forehand())
        return cls(game, seats, seeds, listener, strict)

    # --- what comes next ------------------------------------------------------

    def next_step(self) -> Step:
        game = self.game
        if game.phase is Phase.OVER:
            return Step.OVER
        if game.phase is Phase.DEAL:
            return Step.DEAL
        seat = game.to_act
        assert seat is not None
        return Step.PERSON if self.seats[seat] is None else Step.AI

    def request(self) -> Request:
        """The AI seat to act, with its view and generator (call on the game's own thread)."""
        seat = self.game.to_act
        agent = self.seats[seat] if seat is not None else None
        if seat is None or agent is None:
            raise ValueError("no AI seat is to act")
        hands = None
        game = self.game
        if sees_every_hand(agent) and game.phase is Phase.PLAY and game.hand is not None:
            held = game.hand.state.hands
            hands = (held[0], held[1], held[2])
        return Request(seat, agent, game.view(seat), self.seeds.decision(game, seat), hands)

    # --- changing the game -------------------------------------------------------

    def deal(self) -> HandLog:
        """Deal the next hand from its seed."""
        hand = self.game.deal_hand(self.seeds.deal(len(self.game.log) + 1))
        self._changed()
        return hand

    def apply(self, action: Action) -> None:
        """Make ``action`` (a bid or a card) for the seat to act.

        Raises the engine's ``IllegalActionError`` and changes nothing when the
        rules refuse it.
        """
        if isinstance(action, Pass | Declaration):
            self.game.bid(action)
        else:
            self.game.play(action)
        self._changed()

    def answer(self, request: Request, action: Action) -> None:
        """Apply an AI seat's answer to ``request``, if the game is still where it was asked."""
        if self.game.to_act != request.seat:
            raise ValueError(f"seat {request.seat} is not to act any more")
        if not self.strict and not self._legal(action):
            action = self._first_legal()
        self.apply(action)

    def step(self) -> Step:
        """Do the next step if no person is needed: deal, or let an AI seat act.

        Returns what was done (``DEAL`` or ``AI``), or what stops the match
        (``PERSON`` or ``OVER``).
        """
        step = self.next_step()
        if step is Step.DEAL:
            self.deal()
        elif step is Step.AI:
            request = self.request()
            self.answer(request, request.answer())
        return step

    # --- helpers -------------------------------------------------------------------

    def _legal(self, action: Action) -> bool:
        game = self.game
        if game.phase is Phase.BIDDING:
            return isinstance(action, Pass | Declaration) and game.can_bid(action)
        return isinstance(action, int) and game.can_play(action)

    def _first_legal(self) -> Action:
        game = self.game
        if game.phase is Phase.BIDDING:
            return game.legal_bids()[0]
        return game.legal_cards()[0]

    def _changed(self) -> None:
        if self.listener is not None:
            self.listener(self.game)


def drive(
    game: Game,
    seats: Sequence[Agent | None],
    seeds: Seeds,
    *,
    stop: Callable[[Game], bool] | None = None,
    max_actions: int | None = None,
) -> Game:
    """Play ``game`` on with ``seats`` until it ends, a person must act, ``stop(game)`` holds
    (checked before every step), or ``max_actions`` deals, bids and cards have been made."""
    match = Match(game, seats, seeds)
    done = 0
    while max_actions is None or done < max_actions:
        if stop is not None and stop(game):
            break
        if match.step() in (Step.PERSON, Step.OVER):
            break
        done += 1
    return game
