"""What a person sees and may do, worked out once: ``present(state, now)`` -> ``Presentation``.

Every front end draws the person's game from a ``Presentation``: the app's top bar and prompts,
plain mode's lines, and the web page, to which the server sends it as JSON (``net.pageseat``).
A front end words nothing and decides nothing of its own: whose turn it is and how long is left,
the seats in a few words, the hand in its order with each card's legality and the engine's reason
for a refusal, the bids in words, the claim on offer, the trick on the table and the finished ones
with why each was won, the computer that plays for the person and how to take the seat back, the
summary on show, the result and the sheet, and the events told so far.

It is a pure function of a ``TableState``: two front ends given the same state show the same
facts, which the tests check side by side.

May import: the engine's face, ``explain``, the claims' words and this package's state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..ai.claims import claim_prompt, tricks_left
from ..engine import (
    CARD_NAMES,
    NUM_SEATS,
    RANKINGS,
    STRENGTH,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_SIZE,
    SUITS,
    TRICKS,
    IllegalActionError,
    PastHand,
    Phase,
    PlayerView,
    PublicView,
    Rules,
    Trick,
    cards_of,
    format_cards,
)
from ..explain import Teller, hand_of, plural, result_lines, sheet_lines, summary_lines
from ..game.choices import HUMAN
from ..storage.safety import CHAT_LENGTH
from .state import TableState

if TYPE_CHECKING:  # the analysis is worked out elsewhere; its words load with the first review that has it
    from ..ai.analysis import HandAnalysis

EVENTS_SHOWN = 40
"""The events a presentation carries (newest last): as many as the state's log keeps."""


@dataclass(frozen=True)
class SeatLine:
    """One seat as the table shows it: the person is seat 0."""

    seat: int
    name: str  # the player's name at the table ("Ann 2" for a second Ann)
    label: str  # how the table names the seat: "You", or the name
    words: str  # "person", "computer", "away, computer plays", ...
    cards: int  # cards in hand (the others' are drawn as backs)
    tricks: int  # tricks taken in the hand on show
    tags: tuple[str, ...]  # "declarer", "forehand"
    acting: str | None  # "to bid", "to play", or None
    seconds: int | None  # the seconds left on this seat's clock, when the table waits for it
    rating: int | None  # the player's rating at the table server (a person with a key, a computer level)


@dataclass(frozen=True)
class CardLine:
    """A card of the person's hand, in the order the hand is drawn."""

    card: str  # "K4"
    words: str  # "4 of Koi"
    legal: bool  # playable now
    why_not: str | None  # the engine's refusal, on the person's turn to play, for a card that is not


@dataclass(frozen=True)
class BidLine:
    """A bid open to the person, whole and as a front end may lay the bids out: under their
    contract, by ranking, a button a trump."""

    bid: str  # as typed and sent: "pass", "win-pick-trump 9 K"
    text: str  # in words: "Win Tricks (Pick Trump), 9 high, Koi trump"
    contract: str | None  # the contract's id (None for a pass)
    group: str  # its heading: "Win Tricks (Pick Trump)", "May Trump again, with your redo token"; "Pass"
    row: str  # its ranking, "9 high" ("" for a pass)
    short: str  # its own words under the heading and ranking: "Koi"; "9 high" where no trump is picked; "Pass"
    suit: str | None  # the trump's letter, "K", where one is picked


@dataclass(frozen=True)
class ClaimOffer:
    left: int  # the tricks that count and are still to play
    prompt: str  # "all, none or 0-5 of the remaining 5 tricks"
    text: str  # the question


@dataclass(frozen=True)
class TrickLine:
    number: int
    cards: tuple[tuple[str, str, str], ...]  # (who, card, the card in words) in the order played
    winner: str | None  # who took it, once finished
    text: str | None  # why, once finished


@dataclass(frozen=True)
class ClockLine:
    """The table's clock: whom it waits for and how long before a computer plays for them."""

    seat: int
    name: str  # "You" or the name
    seconds: int
    mine: bool
    reading: bool  # it waits on the person's summary: closing it starts the clock
    text: str  # "Your turn: 85 s left." / "Waiting for Ann: 40 s left."


@dataclass(frozen=True)
class Presentation:
    """Everything one person is shown at one moment (see the module's docstring)."""

    phase: str  # "deal", "bidding", "play", "over"
    title: str  # "Hand 3 of 12"
    contract: str  # "Ann declared Win Tricks, 9 high" / "Bidding" / ""
    progress: str  # "3 tricks so far; you made 5; not yet played by Bo" / "Ann holds the forehand card"
    status: str  # the one line of whose turn it is
    prompt: str | None  # what the person is asked, on their turn
    my_turn: bool
    clock: ClockLine | None
    seats: tuple[SeatLine, ...]  # the person first, then the seats after them
    hand: tuple[CardLine, ...]
    bids: tuple[BidLine, ...]
    said: tuple[str, ...]  # while bidding: the hand's bids so far in sentences, then who is thinking or in the puddle
    claim: ClaimOffer | None
    trick: TrickLine | None  # the trick on the table
    tricks: tuple[TrickLine, ...]  # the finished tricks of the hand on show
    message: str | None  # a refusal, a hint, or the note about one
    refused: bool  # the message is a refusal (drawn as one), not a hint or its note
    stand_in: str | None  # a computer plays the person's seat: how to take it back
    summary_hand: int | None  # the hand whose summary is on show
    summary: tuple[str, ...]
    result: tuple[str, ...]  # the end of the game, with what a computer played for whom
    sheet: tuple[str, ...]
    events: tuple[tuple[int, str], ...]  # (number, sentence), the newest last
    hints: bool  # the person may ask for a hint
    undo: bool  # the person may take back their last move (a game alone, or at a table with no other person)
    notes: tuple[str, ...]  # why hints or undo are off, here
    over: bool
    online: bool
    you: str  # the person's name at the table
    watching: str | None = None  # how many watch the table (``watchers_line``), when someone does


def card_words(card: int) -> str:
    """``"4 of Koi"`` for K4."""
    return f"{card % SUIT_SIZE + 1} of {SUIT_NAMES[card // SUIT_SIZE]}"


def clock_line(state: TableState, names: Sequence[str] | None = None) -> ClockLine | None:
    """The clock's line, or None where nothing is timed (a game on this machine).  ``names``: the
    players' names as the front end shows them (the app's, cut to fit), if not the whole ones."""
    clock = state.clock
    if clock is None:
        return None
    seconds = clock.seconds
    mine = clock.seat == HUMAN
    name = "You" if mine else (names or state.view.players)[clock.seat]
    if mine and clock.reading:
        text = f"Your turn: close the summary to start your clock ({seconds} s left)."
    elif mine:
        text = "Your turn: time is up, a computer plays next." if seconds <= 0 else f"Your turn: {seconds} s left."
    elif clock.reading:
        text = f"Waiting for {name}, who is reading the summary: {seconds} s left."
    else:
        text = f"Waiting for {name}: {seconds} s left."
    return ClockLine(clock.seat, name, seconds, mine, clock.reading, text)


def _status(state: TableState, clock: ClockLine | None, names: Sequence[str] | None = None) -> str:
    view = state.view
    players = names or view.players
    if view.phase is Phase.OVER:
        return "The game is over."
    if state.stand_in is not None:
        return state.stand_in
    if clock is not None:
        return clock.text
    if state.waiting:
        return state.waiting
    if state.my_turn:
        return "Your turn."
    if state.thinking == HUMAN:
        return "Your move is made: waiting for the table."
    if state.thinking is not None:
        return f"{players[state.thinking]} is thinking."
    if view.to_act is not None and view.to_act != HUMAN:
        return f"Waiting for {players[view.to_act]}."
    return ""


def turn_prompt(view: PlayerView) -> str:
    """What the person is asked on their turn, in one sentence."""
    if view.phase is Phase.BIDDING:
        if view.in_puddle:
            return "You are in the puddle: declare one of your open contracts."  # the event said all three passed
        return "You are to bid: declare a contract, or pass."
    trick = view.current_trick()
    number = len(view.trick_winners) + 1
    if trick:
        return f"You are to play to trick {number}; {SUIT_NAMES[trick[0][1] // SUIT_SIZE]} was led."
    return f"You are to lead trick {number}."


def _title(view: PlayerView) -> str:
    if view.phase is Phase.OVER:
        return "The game is over"
    return f"Hand {hand_of(view.hand_number, view.rules, view.redo_spent)}"


def _contract(view: PlayerView, teller: Teller) -> str:
    if view.phase is Phase.BIDDING:
        if view.in_puddle and view.bidder is not None:
            return f"The puddle: {teller.subject(view.bidder, 'must')} declare"
        return "Bidding"
    declaration = view.declaration
    if view.phase is Phase.PLAY and declaration is not None and view.declarer is not None:
        puddle = " (from the puddle)" if view.puddle else ""
        return f"{teller.subject(view.declarer, 'declared')} {declaration.describe()}{puddle}"
    return ""


def _progress(view: PlayerView, teller: Teller) -> str:
    """Under the contract: while bidding, who holds the forehand card; in play, the declarer's count
    so far and what the others made of the same contract (or that they have not played it)."""
    hand = view.shown_hand()
    if hand is None or view.phase not in (Phase.BIDDING, Phase.PLAY):
        return ""
    declaration = hand.declaration
    if declaration is None or hand.declarer is None:
        return f"{teller.subject(hand.forehand, 'holds')} the forehand card"
    contract = declaration.contract
    count = plural(hand.count(), "trick")
    counted = f" of tricks {contract.first_counted}-{TRICKS}" if contract.first_counted > 1 else ""
    parts = [f"{count}{counted} so far"]
    made, not_yet = [], []
    for seat in range(NUM_SEATS):
        if seat == hand.declarer:
            continue
        who = "you" if seat == HUMAN else view.players[seat]
        result = view.sheet[contract.id][seat]
        if result is None:
            not_yet.append(who)
        else:
            made.append(f"{who} made {result}")
    if made:
        parts.append(", ".join(made))
    if not_yet:
        parts.append(f"not yet played by {' or '.join(not_yet)}")
    return "; ".join(parts)


def seat_caption(state: TableState, seat: int) -> str:
    """A seat in a few words with its player's rating, when it has one: ``person, rated 1012``."""
    words = state.seats[seat] if state.seats else ("you" if seat == HUMAN else "computer")
    rating = state.ratings[seat] if seat < len(state.ratings) else None
    return words if rating is None else f"{words}, rated {rating}"


def _seats(state: TableState, teller: Teller, clock: ClockLine | None, shown: PastHand | None) -> tuple[SeatLine, ...]:
    view = state.view
    live = view.phase in (Phase.BIDDING, Phase.PLAY)
    # the roles of the hand whose tricks are counted: a summary's finished hand while it is open
    # (the table shows its last trick), though the next one is dealt behind it
    summary = state.summary is not None and shown is not None and shown in view.history
    if summary and shown is not None:
        declarer, forehand = shown.declarer, shown.forehand
    elif live:
        declarer = view.declarer if view.phase is Phase.PLAY else None
        forehand = view.forehand
    else:
        declarer = forehand = None
    lines = []
    for seat in range(NUM_SEATS):
        tags = []
        if declarer == seat:
            tags.append("declarer")
        if forehand == seat:
            tags.append("forehand")
        acting = None
        if live and view.to_act == seat:
            acting = "to bid" if view.phase is Phase.BIDDING else "to play"
        words = state.seats[seat] if state.seats else ("you" if seat == HUMAN else "computer")
        lines.append(
            SeatLine(
                seat=seat,
                name=view.players[seat],
                label=teller.name(seat),
                words=words,
                cards=view.cards_left(seat) if live else 0,
                tricks=shown.tricks_won(seat) if shown is not None else 0,
                tags=tuple(tags),
                acting=acting,
                seconds=clock.seconds if clock is not None and clock.seat == seat else None,
                rating=state.ratings[seat] if seat < len(state.ratings) else None,
            )
        )
    return tuple(lines)


def _why_not(view: PlayerView, card: int, teller: Teller) -> str | None:
    try:
        view.verify_play(card)
    except IllegalActionError as exc:
        return teller.refusal(exc)
    return None


def _hand(state: TableState, teller: Teller) -> tuple[CardLine, ...]:
    view = state.view
    playing = state.playing and state.my_turn
    return tuple(
        CardLine(
            card=CARD_NAMES[card],
            words=card_words(card),
            legal=playing and bool(view.legal_cards >> card & 1),
            why_not=_why_not(view, card, teller) if playing and not view.legal_cards >> card & 1 else None,
        )
        for card in state.my_cards
    )


def _bids(state: TableState) -> tuple[BidLine, ...]:
    if not (state.bidding and state.my_turn):
        return ()
    out = []
    for bid in state.view.legal_bids:
        text = bid.describe()
        text = text[:1].upper() + text[1:]
        if bid.is_pass:
            out.append(BidLine(str(bid), text, None, text, "", text, None))
            continue
        group = f"{bid.contract.name} again, with your redo token" if bid.redo else bid.contract.name
        row = f"{bid.ranking} high"
        trump = bid.trump
        short, suit = (row, None) if trump is None else (SUIT_NAMES[trump], SUITS[trump])
        out.append(BidLine(str(bid), text, bid.contract.id, group, row, short, suit))
    return tuple(out)


def _said(view: PlayerView, teller: Teller) -> tuple[str, ...]:
    """While bidding: the bids said so far in this hand, in sentences, then the player who is to
    bid, if not the person (thinking, or in the puddle)."""
    hand = view.shown_hand()
    if hand is None or view.phase is not Phase.BIDDING:
        return ()
    said = [
        teller.bid(seat, bid, puddle=i >= NUM_SEATS)
        for i, (bid, seat) in enumerate(zip(hand.bids, hand.bid_seats, strict=True))
    ]
    bidder = view.bidder
    if bidder is not None and bidder != teller.you:
        said.append(teller.puddle(bidder) if view.in_puddle else f"{teller.name(bidder)} is thinking...")
    return tuple(said)


def _claim(state: TableState) -> ClaimOffer | None:
    view = state.view
    contract = view.contract
    if not (state.playing and state.my_turn) or contract is None:
        return None
    done = len(view.trick_winners)
    side = "you" if view.declarer == HUMAN else "you and your partner"
    return ClaimOffer(
        tricks_left(contract, done),
        claim_prompt(contract, done),
        f"Claim the rest: how many of the tricks left do {side} take?",
    )


def _trick_line(teller: Teller, hand: PastHand, number: int) -> TrickLine:
    trick = hand.tricks()[number - 1]
    declaration = hand.declaration
    text = None
    if trick.finished and declaration is not None:
        reason = teller.trick_reason(trick, declaration.contract, declaration.ranking, declaration.trump)
        text = teller.trick_won(trick, reason)
    return TrickLine(
        number=trick.number,
        cards=tuple((teller.name(seat), CARD_NAMES[card], card_words(card)) for seat, card in trick.cards),
        winner=teller.name(trick.winner) if trick.finished and trick.winner is not None else None,
        text=text,
    )


def _tricks(state: TableState, teller: Teller) -> tuple[tuple[TrickLine, ...], TrickLine | None]:
    """The finished tricks of the hand on show (the summary's hand while it is open), and the trick
    on the table."""
    view = state.view
    if state.summary is not None and 1 <= state.summary <= len(view.history):
        hand = view.history[state.summary - 1]
        return tuple(_trick_line(teller, hand, n) for n in range(1, len(hand.tricks()) + 1)), None
    shown = view.shown_hand()
    if shown is None:
        return (), None
    lines = [_trick_line(teller, shown, n) for n in range(1, len(shown.tricks()) + 1)]
    current = lines.pop() if lines and lines[-1].winner is None else None
    if view.phase is not Phase.PLAY:
        current = None
    return tuple(lines), current


def trick_lines(view: PlayerView, hand: PastHand) -> tuple[TrickLine, ...]:
    """Every trick of ``hand`` (a hand of ``view``'s game), the unfinished one last, as the
    presentation tells them: for the app's panel of a hand's tricks."""
    teller = Teller(view.players, HUMAN)
    return tuple(_trick_line(teller, hand, n) for n in range(1, len(hand.tricks()) + 1))


def table_line(view: PlayerView, hand: PastHand) -> str:
    """The last line of the app's table while ``hand`` is played: who leads the first trick
    before a card is played, who won the last trick and why once it is finished (as
    ``trick_lines`` tells it), or the number of the trick on the table.

    >>> from random import Random
    >>> from stepping_stones.engine import Game
    >>> game = Game(Rules("standard"), ["Ann", "Kenji", "Hana"], first_forehand=1)
    >>> _ = game.deal_hand(Random(3))
    >>> game.bid(game.legal_bids()[1])  # Kenji declares, the others pass
    >>> while game.phase is Phase.BIDDING:
    ...     game.bid(game.legal_bids()[0])
    >>> table_line(game.view(0), game.view(0).shown_hand())
    'Trick 1: Kenji leads.'
    >>> game.play(game.legal_cards()[0])
    >>> table_line(game.view(0), game.view(0).shown_hand())
    'Trick 1'
    """
    teller = Teller(view.players, HUMAN)
    tricks = hand.tricks()
    if not tricks:
        assert hand.declarer is not None
        return f"Trick 1: {teller.subject(hand.declarer, 'leads')}."
    if tricks[-1].finished:
        return _trick_line(teller, hand, len(tricks)).text or ""
    return f"Trick {len(tricks)}"


NO_TRICK_YET = "No trick has been finished yet."
"""What the "last trick" window and command say before the first trick is finished."""


@dataclass(frozen=True)
class LastTrick:
    """The last finished trick of the game so far: the app's "last trick" window and plain
    mode's ``trick`` command."""

    hand: int  # its hand's number
    trick: Trick  # its cards, to draw
    text: str  # "Trick 4 of hand 2: You C6, Kenji C8, Hana C2; Kenji wins it (C8 wins: …)."


def last_trick(view: PlayerView) -> LastTrick | None:
    """The last trick finished so far (of the hand on show, or else of the hands before), or
    None before the first."""
    shown = view.shown_hand()
    hands = [*view.history, shown] if shown is not None and shown not in view.history else list(view.history)
    finished = [(h, trick) for h in hands for trick in h.tricks() if trick.finished]
    if not finished:
        return None
    hand, trick = finished[-1]
    teller = Teller(view.players, HUMAN)
    cards = ", ".join(f"{teller.name(s)} {CARD_NAMES[c]}" for s, c in trick.cards)
    declaration = hand.declaration
    assert declaration is not None
    reason = teller.trick_reason(trick, declaration.contract, declaration.ranking, declaration.trump)
    text = f"Trick {trick.number} of hand {hand.number}: {cards}; {teller.subject(trick.winner, 'wins')} it ({reason})."
    return LastTrick(hand.number, trick, text)


@dataclass(frozen=True)
class Tracker:
    """The cards the person has not seen, and the suits each player has shown out of (the app's
    tracker panel)."""

    ranking: int | None  # 9 or 1: which rank is high, once declared
    out: tuple[tuple[int, str], ...]  # each suit (its index) with the ranks not seen, strongest first
    shown_out: tuple[tuple[str, tuple[int, ...]], ...]  # who ("You", a name) and the suits they showed out of


def tracker(view: PlayerView) -> Tracker:
    """The person's count of the cards (``Tracker``) in the hand on the table, as the computers
    count them (``ai.knowledge.deductions``)."""
    from ..ai.knowledge import deductions  # the computers' count: loaded with the first tracker drawn

    ranking = view.ranking or RANKINGS[0]
    key = STRENGTH[ranking]
    unseen = view.unseen_cards if view.phase in (Phase.BIDDING, Phase.PLAY) else 0
    out = tuple(
        (s, " ".join(str(c % SUIT_SIZE + 1) for c in sorted(cards_of(unseen & SUIT_MASKS[s]), key=lambda c: -key[c])))
        for s in range(len(SUITS))
    )
    hand = view.shown_hand()
    voids = [0] * NUM_SEATS
    if hand is not None and hand.declaration is not None:
        voids = deductions(hand.tricks(), hand.declaration)[0]
    teller = Teller(view.players, HUMAN)
    shown_out = tuple(
        (teller.name(seat), suits)
        for seat in range(NUM_SEATS)
        if (suits := tuple(s for s in range(len(SUITS)) if voids[seat] & SUIT_MASKS[s]))
    )
    return Tracker(view.ranking, out, shown_out)


@dataclass(frozen=True)
class HandReview:
    """A finished hand as a game's review shows it: each seat's deal (once the game is over, the
    deals are the record's to show), its tricks with why each was won, and its summary."""

    number: int
    deal: tuple[str, ...]  # "You: C1 C4 ...", a seat a line, in the seats' order
    tricks: tuple[TrickLine, ...]
    summary: tuple[str, ...]
    analysis: tuple[str, ...] = ()  # the hand against perfect play, as the app's summary says it
    positions: tuple[tuple[str, ...], ...] = ()  # after each trick (its index in ``tricks``): perfect play from there


def review(
    view: PlayerView,
    deals: Sequence[tuple[int, int, int]],
    analyses: Sequence[HandAnalysis | None] | None = None,
    missing: str = "",
) -> tuple[HandReview, ...]:
    """A finished game reviewed hand by hand, trick by trick, in the words of ``view``'s seat
    ("You"): the web page's review of a game (``net.playerpages``).  ``deals`` are the hands' deals
    (the view has none: they come from the game's record).

    With ``analyses`` (one per hand of ``view.history``, None for a hand not played out), each hand
    says what perfect play made of it (``ai.analysis.analysis_lines``, the app's hand summary) and
    each trick what perfect play would make from there (``position_lines``, the app's review);
    without, each hand says ``missing`` (why its analysis is not shown), if anything."""
    teller = Teller(view.players, view.seat)
    out = []
    for number, (hand, deal) in enumerate(zip(view.history, deals, strict=False), 1):
        tricks = tuple(_trick_line(teller, hand, n) for n in range(1, len(hand.tricks()) + 1))
        found = analyses[number - 1] if analyses is not None and number <= len(analyses) else None
        if found is not None:
            from ..ai.analysis import analysis_lines, position_lines

            analysis = (
                f"Hand {number} against perfect play:",
                *analysis_lines(found, view.players, view.seat),
            )
            positions = tuple(
                tuple(position_lines(found, NUM_SEATS * t.number, view.players, view.seat)) for t in tricks
            )
        elif analyses is not None:
            analysis, positions = (f"Hand {number} was not played out: there is no analysis of it.",), ()
        else:
            analysis, positions = ((missing,) if missing else ()), ()
        out.append(
            HandReview(
                number=number,
                deal=tuple(f"{teller.name(seat)}: {format_cards(deal[seat])}" for seat in range(NUM_SEATS)),
                tricks=tricks,
                summary=tuple(summary_lines(view, number, "to")),
                analysis=analysis,
                positions=positions,
            )
        )
    return tuple(out)


def status_line(state: TableState, names: Sequence[str] | None = None) -> str:
    """The one line of whose turn it is (the app's top bar, plain mode's prompt); ``names`` as
    in ``clock_line``: a long name cut, the seconds left stay in a narrow terminal's top bar."""
    return _status(state, clock_line(state, names), names)


def present(state: TableState) -> Presentation:
    """What the person of ``state`` is shown."""
    view = state.view
    teller = Teller(view.players, HUMAN)
    clock = clock_line(state)
    shown = view.shown_hand()
    if state.summary is not None and 1 <= state.summary <= len(view.history):
        shown = view.history[state.summary - 1]
    tricks, trick = _tricks(state, teller)
    over = view.phase is Phase.OVER
    notes = tuple(n for n in (state.hints_off, state.undo_off) if n)
    return Presentation(
        phase=view.phase.name.lower(),
        title=_title(view),
        contract=_contract(view, teller),
        progress=_progress(view, teller),
        status=_status(state, clock),
        prompt=turn_prompt(view) if state.my_turn and state.summary is None else None,
        my_turn=state.my_turn,
        clock=clock,
        seats=_seats(state, teller, clock, shown),
        hand=_hand(state, teller) if view.phase in (Phase.BIDDING, Phase.PLAY) else (),
        bids=_bids(state),
        said=_said(view, teller),
        claim=_claim(state),
        trick=trick,
        tricks=tricks,
        message=state.message,
        refused=bool(state.refusal),
        stand_in=None if over else state.stand_in,
        summary_hand=state.summary,
        summary=tuple(summary_lines(view, state.summary, "to")) if state.summary is not None else (),
        result=(*result_lines(view), *state.stood) if over else (),
        sheet=tuple(sheet_lines(view)),
        events=tuple((state.told - len(state.log) + i + 1, e.text) for i, e in enumerate(state.log))[-EVENTS_SHOWN:],
        hints=state.hints_allowed and state.my_turn and not over,
        undo=state.can_undo and not over,
        notes=notes,
        over=over,
        online=state.online,
        you=view.players[HUMAN],
        watching=watchers_line(state.watchers),
    )


# --- the lobby, and those who watch a table (docs/online.md, "The lobby", "Watching") ----------------


def watchers_line(count: int) -> str | None:
    """How many watch the table, in a sentence; None when nobody does.

    >>> watchers_line(0), watchers_line(1), watchers_line(3)
    (None, '1 person is watching.', '3 people are watching.')
    """
    if count <= 0:
        return None
    return "1 person is watching." if count == 1 else f"{count} people are watching."


def watchers_news(before: int, now: int) -> str | None:
    """What to say when the number of watchers changes (plain mode says it as it comes): None when
    it does not.

    >>> watchers_news(0, 2), watchers_news(2, 2), watchers_news(1, 0)
    ('2 people are watching.', None, 'Nobody is watching any more.')
    """
    if before == now:
        return None
    return watchers_line(now) or "Nobody is watching any more."


def ratings_news(before: TableState, now: TableState) -> str | None:
    """What to say when the server has rated the finished game and the seats' ratings moved (plain
    mode says it; the app's and the page's seats show the ratings as they are): None otherwise.
    Each rated seat's new rating, and the one before when it changed."""
    if now.view.phase is not Phase.OVER or now.ratings == before.ratings:
        return None
    parts = []
    for seat, rating in enumerate(now.ratings):
        if rating is None:
            continue
        was = before.ratings[seat] if seat < len(before.ratings) else None
        name = "you" if seat == HUMAN else now.view.players[seat]
        parts.append(f"{name} {rating}" + (f" (was {was})" if was is not None and was != rating else ""))
    return f"The ratings after this game: {', '.join(parts)}." if parts else None


NO_LISTED = "No table is open to anyone at this server now: open one and list it."
"""What the lobby says when it lists no table."""


@dataclass(frozen=True)
class LobbySeat:
    """A seat of a listed table: who sits there (None: free), in a few words, and their rating."""

    name: str | None
    words: str  # "person", "computer (expert)"
    rating: int | None


def lobby_line(rules: Rules, seats: Sequence[LobbySeat]) -> str:
    """A listed table in the lobby, in one line: its rules, who sits there, the seats free.

    >>> lobby_line(Rules("advanced", redo_tokens=True), [LobbySeat("Ann", "person", 1012),
    ...     LobbySeat(None, "free", None), LobbySeat("Hana", "computer", None)])
    'Advanced set, redo tokens: Ann (person, rated 1012), Hana (computer); 1 seat free.'
    """
    who = [
        f"{s.name} ({s.words}{'' if s.rating is None else f', rated {s.rating}'})" for s in seats if s.name is not None
    ]
    free = sum(1 for s in seats if s.name is None)
    return f"{rules.describe()}: {', '.join(who) or 'nobody yet'}; {plural(free, 'seat')} free."


@dataclass(frozen=True)
class WatchPresentation:
    """What someone who watches a table is shown (``watch``): everything public, nobody's cards
    but those played, and each hand's deal once it is over."""

    phase: str  # "waiting" before the start, then as ``Presentation.phase``
    title: str
    contract: str
    status: str
    seats: tuple[SeatLine, ...]  # in the table's order
    bids: tuple[str, ...]  # this hand's bids, in sentences
    trick: TrickLine | None
    tricks: tuple[TrickLine, ...]
    deals: tuple[tuple[str, ...], ...]  # each finished hand's deal: its number's line, then a seat a line
    summary: tuple[str, ...]  # the last finished hand's summary
    result: tuple[str, ...]
    sheet: tuple[str, ...]
    watching: str | None
    over: bool


def watch(
    view: PublicView | None,
    names: Sequence[str | None],
    words: Sequence[str],
    ratings: Sequence[int | None],
    clock: tuple[int, int] | None,
    watchers: int,
) -> WatchPresentation:
    """What a watcher is shown of the table whose public view is ``view`` (None before the start),
    its seats' ``names``, ``words`` and ``ratings``, and its ``clock`` (the seat it waits for and
    the seconds left), in the third person: nobody is "you"."""
    watching = watchers_line(watchers)
    if view is None:
        seats = tuple(
            SeatLine(i, n or "", n or "Free seat", w, 0, 0, (), None, None, r)
            for i, (n, w, r) in enumerate(zip(names, words, ratings, strict=True))
        )
        free = sum(1 for n in names if n is None)
        status = f"The table has not started: {plural(free, 'seat')} free."
        return WatchPresentation(
            "waiting", "Not started", "", status, seats, (), None, (), (), (), (), (), watching, False
        )
    teller = Teller(view.players, None)
    live = view.phase in (Phase.BIDDING, Phase.PLAY)
    shown = view.shown_hand()
    seats = tuple(
        SeatLine(
            seat=seat,
            name=view.players[seat],
            label=view.players[seat],
            words=words[seat],
            cards=view.cards_left(seat) if live else 0,
            tricks=shown.tricks_won(seat) if shown is not None else 0,
            tags=tuple(
                tag
                for tag, on in (
                    ("declarer", live and view.phase is Phase.PLAY and view.declarer == seat),
                    ("forehand", live and view.forehand == seat),
                )
                if on
            ),
            acting=("to bid" if view.phase is Phase.BIDDING else "to play") if live and view.to_act == seat else None,
            seconds=clock[1] if clock is not None and clock[0] == seat else None,
            rating=ratings[seat],
        )
        for seat in range(NUM_SEATS)
    )
    over = view.phase is Phase.OVER
    if over:
        status = "The game is over."
    elif clock is not None:
        status = f"Waiting for {view.players[clock[0]]}: {clock[1]} s left."
    elif view.to_act is not None:
        status = f"Waiting for {view.players[view.to_act]}."
    else:
        status = ""
    trick = None
    tricks: tuple[TrickLine, ...] = ()
    if shown is not None:
        lines = [_trick_line(teller, shown, n) for n in range(1, len(shown.tricks()) + 1)]
        if lines and lines[-1].winner is None:
            trick = lines.pop() if view.phase is Phase.PLAY else None
        tricks = tuple(lines)
    bids = tuple(teller.bid(seat, bid) for seat, bid in zip(view.bid_seats, view.bids, strict=True)) if live else ()
    deals = []
    for hand in view.history:
        log = hand.replayed()
        if log is not None:
            deal = log.deal
            deals.append(
                (f"Hand {hand.number}:", *(f"{view.players[s]}: {format_cards(deal[s])}" for s in range(NUM_SEATS)))
            )
    return WatchPresentation(
        phase=view.phase.name.lower(),
        title="The game is over" if over else f"Hand {hand_of(view.hand_number, view.rules, view.redo_spent)}",
        contract=_watch_contract(view, teller),
        status=status,
        seats=seats,
        bids=bids,
        trick=trick,
        tricks=tricks,
        deals=tuple(deals),
        summary=tuple(summary_lines(view, len(view.history), "to")) if view.history else (),
        result=tuple(result_lines(view)) if over else (),
        sheet=tuple(sheet_lines(view)),
        watching=watching,
        over=over,
    )


def _watch_contract(view: PublicView, teller: Teller) -> str:
    if view.phase is Phase.BIDDING:
        return "Bidding"
    if view.phase is Phase.PLAY and view.declaration is not None and view.declarer is not None:
        return f"{teller.subject(view.declarer, 'declared')} {view.declaration.describe()}"
    return ""


# --- chat and the table's life (docs/online.md, "Chat") -------------------------------------------

QUICK_PHRASES: tuple[str, ...] = ("Hello!", "Well played", "Thanks", "Sorry", "Oops", "Good luck", "Good game")
"""The phrases every front end offers with one tap, key or number (``say 2`` in plain mode)."""
CHAT_OFF = "Chat is off at this table."
CHAT_ON = "Chat is on at this table."
MUTE = "Mute {name}"
"""The switch that stops the person hearing another (``HEAR`` undoes it)."""
HEAR = "Hear {name}"
MUTED = "You no longer hear {name}."
UNMUTED = "You hear {name} again."
CLUB_LINE = "At the table of {club}."
"""How the terminal clients show the club whose table it is (the page shows its logo too)."""
TURN_TITLE = "Your turn - Stepping Stones"
"""The browser tab's title on the person's turn (the page's own title otherwise)."""
TURN_NOTICE = "Your turn at Stepping Stones"
"""The notification shown when it becomes the person's turn while the page is hidden."""


def again_line(by: str, mine: bool) -> str:
    """The invitation to play again, in one sentence (each front end adds how to take it: a key,
    a word, a link)."""
    if mine:
        return "A new table with the same setup is open: the others are asked to sit with you."
    return f"{by} asks everyone to play again, at a new table with the same setup."


def chat_line(name: str, text: str, mine: bool) -> str:
    """A line said at the table, as every front end shows it (``text`` is clean already:
    ``net.chat.clean_chat``).

    >>> chat_line("Ann", "Well played", False), chat_line("Bob", "Thanks", True)
    ('Ann says: Well played', 'You say: Thanks')
    """
    return f"You say: {text}" if mine else f"{name} says: {text}"


def chat_words(on: bool, opener: bool) -> dict[str, object]:
    """The page's chat panel in words: its quick phrases, the field's limit, whether chat is on,
    and, for the table's opener, the switch."""
    return {
        "quick": list(QUICK_PHRASES),
        "most": CHAT_LENGTH,
        "on": on,
        "note": "" if on else CHAT_OFF,
        "switch": ("Turn chat off" if on else "Turn chat on") if opener else "",
        "title": TURN_TITLE,
        "notice": TURN_NOTICE,
    }
