"""The plain line mode (``stepping-stones play --plain``): the whole game as sentences, one a line.

Nothing is redrawn and the cursor never moves, so a screen reader (or
``espeak-ng``) reads it in order, and a script can play it through a pipe.
Every line is a whole sentence.  Whenever it waits for the person, the last
line it prints is exactly ``legal: `` and the legal actions in the record
format's own spelling (``K4``, ``pass``, ``win-pick-trump 1 K``), separated by
a comma and a space; any of them typed back is done.  Other input is a
command word (``sheet``, ``trick``, ``hand``, ``hint``, ``help``, ``quit``) or
gets one sentence saying why not.  The game is saved after every action, as
in the terminal app and in the same place; ``--resume`` carries on.

It drives the same ``GameFlow`` as the terminal app, and tells the same ``TableState``s in
sentences: it holds no game state and decides no rule of its own.

A front end: it may import everything below it (``flow``, ``storage``, ``game``, ``ai``,
``explain``, the engine's public face), never Textual, ``tui`` or ``serve``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol, TextIO

from ..ai.claims import ClaimError, claim_prompt, parse_claim, tricks_left
from ..ai.hints import Hint
from ..engine import (
    CARD_NAMES,
    NUM_SEATS,
    SUIT_MASKS,
    SUIT_NAMES,
    Bid,
    IllegalActionError,
    Phase,
    PlayerView,
    SteppingStonesError,
    parse_bid,
    parse_card,
    sorted_cards,
)
from ..explain import Teller, plural, result_lines, sheet_lines, summary_lines
from ..explain.saving import describe_progress
from ..flow import NO_HINT, AiTurn, GameFlow, GameOver, HandSummary, PersonTurn, TableFlow, TableState
from ..flow.presenter import NO_TRICK_YET, last_trick, turn_prompt
from ..game.choices import HUMAN, Setup
from ..storage.records import quote
from ..storage.safety import escape
from ..storage.session import Session, find_saved, free_slot

LONG_LEGAL = 12
"""A legal list longer than this (a bid's, up to 21 items) is given in full once a prompt, then
``SAME_LEGAL`` after each command, until ``legal`` asks for it again."""
SAME_LEGAL = "legal: as before (type legal to hear them again)"

HELP = [
    "Type one of the actions after legal: to make it, for example K4, pass or win-pick-trump 9 K.",
    "sheet (or s) reads the scoresheet, trick (or t) the last finished trick, hand (or h) your cards.",
    "hint asks the computer for a suggestion, with its reason; a game with a hint is marked as assisted.",
    "analysis (or a) compares the last finished hand with perfect play: its par and each player's costliest mistake.",
    "claim all, claim none or claim N, on your turn to play: your side (you as declarer, or both defenders) "
    "takes all, none or N of the tricks left that count.",
    "A claim that holds whatever the others play ends the hand, played out; one that does not is refused.",
    "quit (or q) saves the game and stops; run stepping-stones play --plain --resume to carry on.",
    "legal lists what you may type again (a long list is given once, then 'legal: as before').",
    "help (or ?) says this again.",
]

Hinter = Callable[[PlayerView], tuple[Bid | int, str] | None]
"""Suggests the person's next action and a reason, or None if it cannot."""

MAX_INPUT_LINE = 1024
"""The most bytes of one input line that are read; the longest action is 23 characters."""
LONGEST_WORD = 60
"""Input longer than this (in characters) is no action or command, and is quoted cut short."""


class Lines(Protocol):
    """Where the person's lines come from: ``readline()`` gives one line, ``""`` at the end."""

    def readline(self) -> str: ...


class TooLong(str):
    """A line that was cut at ``MAX_INPUT_LINE`` bytes (the rest of it was read and dropped)."""


class ByteLines:
    """The lines of a byte stream (standard input's ``buffer``), read one at a time and decoded as
    UTF-8 with bytes that are not UTF-8 replaced, so bad bytes in one line cost only that line.
    At most ``MAX_INPUT_LINE`` bytes of a line are kept: the rest is read in pieces and dropped,
    so a line of any length takes bounded memory; such a line comes back as ``TooLong``."""

    def __init__(self, stream: BinaryIO, limit: int = MAX_INPUT_LINE) -> None:
        self.stream = stream
        self.limit = limit

    def readline(self) -> str:
        data = self.stream.readline(self.limit + 1)
        if len(data) <= self.limit or data.endswith(b"\n"):
            return data.decode("utf-8", "replace")
        while True:  # drop the rest of an over-long line
            rest = self.stream.readline(1 << 16)
            if not rest or rest.endswith(b"\n"):
                break
        return TooLong(data[: self.limit].decode("utf-8", "replace") + "\n")


@dataclass
class Options:
    setup: Setup
    resume: bool = False


class Quit(Exception):  # control flow, not a refusal (see its docstring)
    """The person asked to stop (or the input ended).

    Control flow, not a refusal: it unwinds the game loop to the one place that saves and says
    goodbye, so it stays apart from ``SteppingStonesError``, which a caller catches to show a problem."""


class PlainTable:
    """A game told in sentences on ``out``, played from lines read from ``inp``, whatever flow
    runs it (``TableFlow``: a game on this machine, or a seat at a table on a server).

    It is a renderer of the flow's states: each new ``TableState`` is told by what changed in
    it (the new events of the log, a hand's summary, the end of the game, a refusal, a hint),
    and each line read becomes a call on the flow.  It decides no rule itself."""

    def __init__(self, flow: TableFlow, inp: Lines, out: TextIO, hinter: Hinter | None = None) -> None:
        self.flow = flow
        self.inp = inp
        self.out = out
        self.hinter = hinter
        self.teller = Teller(flow.state.view.players, HUMAN)
        self.shown = flow.state  # the state told last: the game as it stood is told by introduce()
        self._said: list[str] | None = None  # the legal list the prompt last gave in full
        self.said = 0  # lines said so far: a prompt said before the last of them is said again
        flow.subscribe(self.tell)

    # --- telling ------------------------------------------------------------------

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)
        self.said += len(lines)

    def tell(self, state: TableState) -> None:
        """Tell what changed since the state told last."""
        old, self.shown = self.shown, state
        new = min(state.told - old.told, len(state.log))
        if new > 0:
            self.say(*(event.text for event in state.log[-new:]))
        if state.refusal is not None and state.refusal != old.refusal:
            self.say(state.refusal)
        if state.hint is not None and state.hint != old.hint:
            self.say(self.hint_sentence(state.hint, newly=state.assisted and not old.assisted))
        elif state.hint_note == NO_HINT and old.hint_note != NO_HINT:
            self.say(NO_HINT)
        if state.summary is not None and state.summary != old.summary:
            self.say(*summary_lines(state.view, state.summary, "to"))
            if state.summary == 1:
                self.say("After any hand, type analysis to compare it with perfect play.")
        if state.over and not old.over:
            self.say("The game is over.", *result_lines(state.view))

    def describe_turn(self, view: PlayerView) -> None:
        ranking = view.ranking or 9
        mine = sorted_cards(view.own_cards, ranking)
        held = ", ".join(CARD_NAMES[c] for c in mine)
        missing = [SUIT_NAMES[s] for s in range(len(SUIT_MASKS)) if not view.own_cards & SUIT_MASKS[s]]
        none = " or ".join([", ".join(missing[:-1]), missing[-1]] if len(missing) > 1 else missing)
        hand = f"You hold {held}" + (f", and have no {none}." if missing else ".")
        self.say(turn_prompt(view))  # the presenter's words, as the app and the web page say it
        if view.phase is Phase.BIDDING:
            open_ = [c.name for c in view.rules.contracts if view.sheet[c.id][HUMAN] is None]
            self.say(hand, f"Your open contracts: {', '.join(open_) or 'none'}.")
        else:
            self.say(hand)

    def legal(self, view: PlayerView) -> list[str]:
        """The legal actions, as typed; cards in the order "You hold" lists them."""
        if view.phase is Phase.BIDDING:
            return [str(b) for b in view.legal_bids]
        return [CARD_NAMES[c] for c in sorted_cards(view.legal_cards, view.ranking or 9)]

    # --- reading ------------------------------------------------------------------

    def ask(self, view: PlayerView) -> None:
        """Wait for the person's action, answering commands meanwhile; then make it."""
        self.describe_turn(view)
        self._said = None  # a new turn: its list is given in full
        while True:
            self.prompt(view)
            if self.handle(self.inp.readline(), view):
                return

    def prompt(self, view: PlayerView) -> None:
        options = self.legal(view)
        if options == self._said and len(options) > LONG_LEGAL:
            self.say(SAME_LEGAL)  # a long list, unchanged since the last prompt: not read out again
        else:
            self.say("legal: " + ", ".join(options))
            self._said = options
        self.out.flush()

    def handle(self, line: str, view: PlayerView) -> bool:
        """Do what the line read says on ``view``: True once the action is made."""
        if not line:
            raise Quit("end of input")
        if isinstance(line, TooLong):
            self.say(
                f"That line is too long (over {MAX_INPUT_LINE:,} bytes), so it is no action or command; "
                "type help for the commands."
            )
            return False
        text = " ".join(line.split())
        if not text:
            self.say("Please type an action or a command; help lists them.")
            return False
        words = text.lower().split()
        if words[0] == "claim":
            return self.claim(words[1:], view)
        wanted = {o.lower(): o for o in self.legal(view)}.get(text.lower())
        if wanted is not None:
            return self.act(view, wanted)
        if text.lower() == "legal":
            self._said = None  # the whole list again
            return False
        if not self.command(text.lower(), view):
            self.say(self.why_not(text, view))
        return False

    def claim(self, words: list[str], view: PlayerView) -> bool:
        """The person's claim (``claim all|none|N``): told by the flow's states (accepted, or refused
        with why).  True once it is made: on this machine the hand has ended; at a table it is sent,
        and the server's answer comes as a state or a refusal."""
        contract = view.contract
        if view.phase is not Phase.PLAY or contract is None:
            self.say("A claim is made on your turn to play, while the cards are being played.")
            return False
        left = tricks_left(contract, len(view.trick_winners))
        if len(words) != 1:
            self.say(f"Type claim and one of {claim_prompt(contract, len(view.trick_winners))}.")
            return False
        before = self.flow.state.refusal
        try:
            return self.flow.claim(parse_claim(words[0], left))
        except ClaimError as exc:
            # The flow's refusals are told as its states bring them: one the state already showed
            # (the same refusal twice) is said here, and so is a claim of no possible number.
            if exc.seat is None:
                self.say(f"{str(exc)[0].upper()}{str(exc)[1:]}.")
            elif self.flow.state.refusal == before and before is not None:
                self.say(before)
            return False

    def act(self, view: PlayerView, token: str) -> bool:
        try:
            if view.phase is Phase.BIDDING:
                self.flow.bid(parse_bid(token))
            else:
                self.flow.play(parse_card(token))
        except IllegalActionError:  # cannot happen for a legal token; the refusal is told all the same
            return False
        return True

    def why_not(self, text: str, view: PlayerView) -> str:
        """One sentence: why the input is not an action now (quoting at most a short, escaped
        prefix of it)."""
        if len(text) > LONGEST_WORD:
            return f"{quote(text)} is not an action or a command; type help for the commands."
        if view.phase is Phase.PLAY:
            try:
                card: int | None = parse_card(text.upper())
            except SteppingStonesError:
                card = None
            if card is not None and (refused := self.flow.why_not(card)) is not None:
                return refused
            return f"{quote(text)} is not one of your legal cards or a command; type help for the commands."
        try:
            bid = parse_bid(text.lower())
        except IllegalActionError as exc:
            return f"{exc}; type help for the commands."
        if (refused := self.flow.why_not(bid)) is not None:
            return refused
        return f"{quote(text)} is not a bid you can make now."

    def command(self, word: str, view: PlayerView) -> bool:
        if word in ("help", "?", "h?"):
            self.say(*HELP)
        elif word in ("sheet", "s", "score", "scores"):
            self.say(*sheet_lines(self.flow.state.view))
        elif word in ("hand", "h", "cards"):
            self.describe_turn(view)
        elif word in ("trick", "t", "last", "last trick"):
            self.say(self.last_trick())
        elif word in ("hint",):
            self.hint()
        elif word in ("analysis", "analyse", "analyze", "a"):
            self.say(*self.analysis())
        elif word in ("quit", "q", "exit"):
            raise Quit("asked")
        else:
            return False
        return True

    def last_trick(self) -> str:
        last = last_trick(self.flow.state.view)  # the presenter's sentence, as the app shows it
        return NO_TRICK_YET if last is None else last.text

    def analysis(self) -> list[str]:
        """The last finished hand against perfect play (it can take a few seconds)."""
        from ..ai.analysis import analyse_past, analysis_lines, seen_by

        view = self.flow.state.view
        if not view.history:
            return ["No hand has been finished yet."]
        past = view.history[-1]
        found = analyse_past(past, seen=seen_by(view))
        if found is None:
            return [f"Hand {past.number} was not played out."]
        return [f"Hand {past.number} against perfect play:", *analysis_lines(found, view.players, HUMAN)]

    def hint(self) -> None:
        """Ask the flow for a hint and work it out here; the new state tells it."""
        if self.hinter is None:
            self.say("No hints are available in this version.")
            return
        request = self.flow.ask_hint()
        if request is None:
            return  # the state's refusal says why
        found = self.hinter(request.view)
        self.flow.hint_came(request, None if found is None else Hint(*found))

    @staticmethod
    def hint_sentence(hint: Hint, newly: bool) -> str:
        action = hint.action
        token = CARD_NAMES[action] if isinstance(action, int) else str(action)
        reason = hint.reason[:1].upper() + hint.reason[1:]
        reason = reason if reason.endswith(".") else reason + "."
        marked = " This game is now marked as assisted." if newly else ""
        return f"Hint: {token}. {reason}{marked}"

    # --- the loop: the same for every flow; what differs is each flow's own ---------------

    def play(self) -> int:
        """Play to the end (or until the person quits or the input ends); the exit status."""
        try:
            while True:
                step = self.flow.next_step()
                if isinstance(step, HandSummary):
                    self.flow.summary_seen()  # told as the state showed it
                elif isinstance(step, PersonTurn):
                    self.ask(step.view)
                elif isinstance(step, GameOver):
                    return self.game_over(step.path)
                else:
                    self.others(step)
        except (Quit, KeyboardInterrupt) as why:
            return self.stopped(why)
        finally:
            self.out.flush()

    def others(self, step: object) -> None:
        """A step that is not the person's: an AI seat's turn here, the others' at a table."""
        raise NotImplementedError

    def game_over(self, path: Path | None) -> int:
        """The game is over (filed at ``path``, or not): say so; the exit status."""
        raise NotImplementedError

    def stopped(self, why: Quit | KeyboardInterrupt) -> int:
        """The person stopped (or the input ended) before the end: say what became of the game;
        the exit status."""
        raise NotImplementedError


class PlainGame(PlainTable):
    """One game on this machine told in sentences (``GameFlow``): the game is saved as it goes,
    and filed at its end."""

    def __init__(self, flow: GameFlow, inp: Lines, out: TextIO, hinter: Hinter | None = None) -> None:
        super().__init__(flow, inp, out, hinter)
        self.local = flow

    # --- the game -----------------------------------------------------------------

    def filed(self, path: Path | None) -> int:
        """Say where the finished game is saved; if it could not be written, keep it and try again
        each time the person presses Enter, until it is written or they give up."""
        session = self.local.session
        if path is None and session.finished_written:
            self.say(
                f"The finished game is saved, but it could not be put into the games folder: "
                f"{self.local.problem}. It is filed there the next time the game starts."
            )
            path = session.path
            session.release()  # the next start may file it
        while path is None:
            self.say(
                f"The finished game is not saved: {self.local.problem}.",
                "It is kept until this program ends: make room (or fix the folder), then press Enter "
                "to try again, or type quit to leave it unsaved.",
            )
            self.out.flush()
            line = self.inp.readline()
            if not line or line.strip().lower() in ("quit", "q", "exit"):
                self.say(f"The finished game was not saved: {self.local.problem}.")
                return 1
            path = self.local.file()
        self.say(f"record: {escape(str(path))}")
        return 0

    def others(self, step: object) -> None:
        """An AI seat's turn: its answer, worked out now."""
        assert isinstance(step, AiTurn)
        self.local.ai_answered(step.request, step.request.answer())

    def game_over(self, path: Path | None) -> int:
        return self.filed(path)

    def stopped(self, why: Quit | KeyboardInterrupt) -> int:
        """The game is saved (one more try if saving failed), and the person told how to go on."""
        flow = self.local
        if flow.problem:
            flow.session.save()  # one more try: the folder may be writable again
        flow.session.release()
        if flow.problem:
            self.say(f"The game could not be saved: {flow.problem}.")
            return 1
        stop = "The input ended" if str(why) == "end of input" else "You stopped"
        self.say(f"{stop}: the game is saved. Run stepping-stones play --plain --resume to carry on.")
        return 0


ELSEWHERE = "The unfinished game is open in another window; it is left alone there."


def start(options: Options, inp: Lines, out: TextIO) -> Session | None:
    """The session to play: the unfinished game with ``resume`` (None and a sentence if there is
    none); else, as the app does, an unfinished game is offered first (``resume`` carries it on,
    ``new`` keeps it in the games folder and starts a new game in a free slot), and a finished
    game whose result was never shown is shown."""
    saved = find_saved()
    if saved.problem:
        print(saved.problem, file=out)
    session = saved.session
    if session is None:
        if options.resume:
            print(ELSEWHERE if saved.open_elsewhere else "There is no unfinished game to resume.", file=out)
            return None
        if saved.open_elsewhere:
            print(f"{ELSEWHERE} This new game is saved in a slot of its own.", file=out)
    elif options.resume or session.game.over or _resume_offered(session, inp, out):
        if not session.claim():
            print(ELSEWHERE, file=out)
            return None
        if session.game.over:
            print("The last game ended before its result was shown; here it is.", file=out)
        else:
            print(f"Resuming the unfinished game at {describe_progress(session.game)}.", file=out)
        return session
    new = Session.new(options.setup, free_slot())
    new.claim()
    new.save()
    return new


RESUME_WORDS = {"resume": True, "r": True, "new": False, "n": False}


def _resume_offered(session: Session, inp: Lines, out: TextIO) -> bool:
    """Offer the unfinished game ``session``: True to carry it on; False once it is filed in the
    games folder for a new game.  The end of the input raises ``Quit`` (nothing is changed)."""
    print(f"An unfinished game was saved: it stopped at {describe_progress(session.game)}.", file=out)
    print(
        "Type resume (or r) to carry it on, or new (or n) to start a new game "
        "(the unfinished one is kept in the games folder).",
        file=out,
    )
    while True:
        print("legal: resume, new", file=out, flush=True)
        line = inp.readline()
        if not line:
            raise Quit("end of input")
        answer = RESUME_WORDS.get(line.strip().lower())
        if answer is not None:
            if not answer:
                session.archive("unfinished")
            return answer
        print(f"{quote(line.strip())} is neither resume nor new.", file=out)


def introduce(session: Session, out: TextIO) -> None:
    game = session.game
    teller = Teller(game.players, HUMAN)
    others = [f"{game.players[s]} ({escape(session.level(s) or 'a person')})" for s in range(1, NUM_SEATS)]
    print(f"Stepping Stones: {game.rules.describe()}, {plural(game.rules.hands, 'hand')}.", file=out)
    print(f"{teller.subject(HUMAN, 'play')} as {game.players[HUMAN]} against {' and '.join(others)}.", file=out)
    print(f"The deal seed is {escape(session.info.seed)}. Type help at any prompt for the commands.", file=out)


def expert_hint(view: PlayerView) -> tuple[Bid | int, str] | None:
    """The expert's suggestion for the person, with its reason."""
    from ..ai.hints import hint_for

    try:
        found = hint_for(view)
    except ValueError:
        return None
    return found.action, found.reason


def run(options: Options, inp: Lines, out: TextIO, hinter: Hinter | None = expert_hint) -> int:
    """Play a game in plain lines; the exit status."""
    from ..storage.settings import load_settings

    kept = load_settings()
    # no pace here: the only legal card waits for the person unless they asked for it always
    settings = kept.model_copy(
        update={"pace": "instant", "trick_pause": False, "only_card": "on" if kept.only_card == "on" else "off"}
    )
    try:
        session = start(options, inp, out)
    except Quit:
        print("The input ended: nothing was started, and the unfinished game is kept.", file=out)
        return 1
    if session is None:
        out.flush()
        return 2 if options.resume else 1
    introduce(session, out)
    if session.problem:
        print(f"This game is not being saved: {session.problem}. It goes on, kept in memory.", file=out)
    flow = GameFlow(session, settings)
    return PlainGame(flow, inp, out, hinter).play()
