"""The plain line mode (``stepping-stones play --plain``), driven through its input like a script
or a screen-reader user would: whole games in every mode checked against the record's replay, bad
input, quitting, the end of input and resuming."""

from __future__ import annotations

import functools
import io
import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from random import Random

import pytest

import reference
from stepping_stones.engine import CARD_NAMES, Rules
from stepping_stones.game.choices import Setup
from stepping_stones.plain import SAME_LEGAL, Options, run
from stepping_stones.storage.records import game_from_record, read_record, summary
from stepping_stones.storage.session import current_path
from stepping_stones.storage.sidecar import sidecar_of

STANDARD = Rules()
MODES = {
    "standard": STANDARD,
    "advanced": Rules(contract_set="advanced"),
    "short": Rules(short_game=True, omit="lose-pick-trump"),
    "redo": Rules(redo_tokens=True),
    "advanced short redo": Rules("advanced", short_game=True, redo_tokens=True),
}


class Script(io.TextIOBase):
    """Input that answers each ``legal:`` line printed so far on ``out``: first the lines of
    ``first`` (commands, bad input), then a random legal token.  It checks that the prompt is the
    last thing printed before every read, and it can stop after ``stop_after`` actions."""

    def __init__(
        self,
        out: io.StringIO,
        seed: int,
        first: list[str] = (),
        stop_after: int | None = None,
        sent: list[str] | None = None,
    ) -> None:
        self.out = out
        self.rng = Random(seed)
        self.first = list(first)
        self.stop_after = stop_after
        self.sent: list[str] = [] if sent is None else sent
        self.reads = 0

    def readline(self, size: int = -1) -> str:
        self.reads += 1
        printed = self.out.getvalue()
        assert printed.endswith("\n")
        last = printed.rstrip("\n").rsplit("\n", 1)[-1]
        assert last.startswith("legal: "), f"the last line before a read is {last!r}"
        if last == SAME_LEGAL:  # a long list, as given in full before (issue 35)
            full = next(
                line for line in reversed(printed.splitlines()) if line.startswith("legal: ") and line != SAME_LEGAL
            )
            tokens = full[len("legal: ") :].split(", ")
            assert len(tokens) > 12
        else:
            tokens = last[len("legal: ") :].split(", ")
        assert all(tokens) and len(set(tokens)) == len(tokens)
        if self.first:
            return self.first.pop(0) + "\n"
        if self.stop_after is not None and len(self.sent) >= self.stop_after:
            return ""
        token = self.rng.choice(tokens)
        self.sent.append(token)
        return token + "\n"


def setup(rules: Rules = STANDARD, seed: int = 11) -> Setup:
    return Setup(rules=rules, player="Ana", names=("Hana", "Kenji"), levels=("heuristic", "random"), seed=str(seed))


def play(options: Options, script_seed: int = 0, **script) -> tuple[int, str, Script]:
    out = io.StringIO()
    inp = Script(out, script_seed, **script)
    status = run(options, inp, out, hinter=None)
    return status, out.getvalue(), inp


def person_actions(path: Path) -> list[tuple[str, bool]]:
    """Every action seat 0 (the person) made in the record, in the record's spelling, in order,
    each with whether the game could have made it for them (a forced pass, a hand's last card)."""
    game = game_from_record(read_record(path))
    actions = []
    for hand in game.log:
        for i, bid in enumerate(hand.bids):
            if hand.bid_seat(i) == 0:
                actions.append((str(bid), str(bid) == "pass"))
        for k, card in enumerate(hand.plays):
            if hand.play_seat(k) == 0:
                actions.append((CARD_NAMES[card], k >= 33))
    return actions


def check_sent(path: Path, sent: list[str]) -> None:
    """What the script sent is in the record, in order; anything else there is what the game may
    do for the person by itself (a forced pass, the last card)."""
    recorded = person_actions(path)

    @functools.cache
    def fits(r: int, i: int) -> bool:
        if r == len(recorded):
            return i == len(sent)
        action, automatic = recorded[r]
        return (i < len(sent) and action == sent[i] and fits(r + 1, i + 1)) or (automatic and fits(r + 1, i))

    assert fits(0, 0), f"the record's actions {[a for a, _ in recorded]} do not match those sent {sent}"


def record_of(text: str) -> Path:
    last = text.rstrip("\n").rsplit("\n", 1)[-1]
    assert last.startswith("record: ")
    return Path(last[len("record: ") :])


@pytest.mark.parametrize("mode", list(MODES))
def test_a_whole_game_in_every_mode_replays_with_every_action_sent(mode):
    rules = MODES[mode]
    status, text, script = play(Options(setup(rules, seed=100 + len(mode))), script_seed=len(mode))
    assert status == 0
    path = record_of(text)
    data = json.loads(path.read_text())
    assert data["players"][0] == "Ana"
    redos = sum(bid.endswith(" redo") for hand in data["hands"] for bid in hand["bids"])
    hands = len(data["hands"])
    assert hands == rules.hands + redos
    if rules.redo_tokens:
        assert redos > 0  # the seeds are chosen so that a redo is spent
    # what the script sent is exactly what the record has the person doing
    check_sent(path, script.sent)
    game = game_from_record(read_record(path))
    assert game.over
    assert reference.replay(data) == summary(game)
    # the person is told every hand's end and the result
    assert [f"Hand {n} is over." for n in range(1, hands + 1)] == [
        line for line in text.splitlines() if line.startswith("Hand ") and line.endswith(" is over.")
    ]
    assert "The game is over." in text
    # nothing is drawn: no escape sequences, no carriage returns, every line a sentence or a prompt
    assert "\x1b" not in text and "\r" not in text
    for line in text.splitlines():
        assert line.startswith(("legal: ", "record: ")) or line.endswith((".", ":", ")", "!")), line


def test_events_are_told_in_order_as_the_rules_example_shows():
    status, text, _ = play(Options(setup()), stop_after=20)
    assert status == 0
    assert "Trick 1. " in text and "Trick 2. " in text
    lines = text.splitlines()
    # a trick is told card by card, then who won it and why
    start = next(i for i, line in enumerate(lines) if line.startswith("Trick 2. "))
    told = lines[start : start + 12]
    assert any(" leads " in line for line in told[:1])
    assert any(" wins trick 2 (" in line for line in told)
    assert any(line.startswith("You hold ") for line in lines)


def test_bad_input_gets_one_sentence_and_the_prompt_again():
    first = [
        "",
        "   ",
        "Z9",
        "K0",
        "banana",
        "win-pick-trump 9",
        "lose-no-trump 5",
        "sheet",
        "s",
        "trick",
        "hand",
        "help",
        "?",
        "hint",
    ]
    status, text, script = play(Options(setup()), first=first, stop_after=3)
    assert status == 0
    assert script.reads == len(first) + 4  # each bad line or command, then three actions and the end
    assert "Please type an action or a command" in text
    assert "'banana' is not" in text
    assert "No hint" in text  # the test runs without the expert
    assert "sheet (or s) reads the scoresheet" in text
    assert "No trick has been finished yet." in text
    # every answer is followed by the prompt again, which is the last line before the next read
    assert text.count("\nlegal: ") >= len(first) + 4


def test_a_card_that_does_not_follow_suit_is_refused_with_the_rule():
    # play until the person follows a trick, then try a card of another suit they hold
    out = io.StringIO()

    class Tries(Script):
        tried = False

        def readline(self, size: int = -1) -> str:
            printed = self.out.getvalue()
            last = printed.rstrip("\n").rsplit("\n", 1)[-1]
            before = printed.rstrip("\n").rsplit("\n", 3)
            hold = next((line for line in before if line.startswith("You hold ")), None)
            if not self.tried and hold and "was led" in printed.rsplit("legal: ", 2)[-2]:
                legal = set(last[len("legal: ") :].split(", "))
                held = hold[len("You hold ") :].split(", and have")[0].rstrip(".").split(", ")
                other = [c for c in held if c not in legal]
                if other:
                    self.tried = True
                    return other[0] + "\n"
            return super().readline(size)

    inp = Tries(out, 3, stop_after=40)
    assert run(Options(setup(seed=5)), inp, out, hinter=None) == 0
    assert inp.tried
    assert "You must follow" in out.getvalue() or "follow suit" in out.getvalue().lower()


def test_quit_saves_and_resume_carries_on_to_a_record_with_every_action():
    options = Options(setup(Rules(short_game=True), seed=42))
    sent: list[str] = []
    status, text, _ = play(options, first=[], stop_after=15, sent=sent)
    assert status == 0
    assert "The input ended: the game is saved." in text
    assert current_path().exists()
    assert len(sent) == 15

    status, text, _ = play(Options(options.setup, resume=True), script_seed=9, first=["quit"], sent=sent)
    assert status == 0
    assert text.startswith("Resuming the unfinished game at hand ")
    assert "You stopped: the game is saved." in text
    assert len(sent) == 15

    status, text, _ = play(Options(options.setup, resume=True), script_seed=9, sent=sent)
    assert status == 0
    data = json.loads(record_of(text).read_text())
    check_sent(record_of(text), sent)
    assert reference.replay(data) == summary(game_from_record(read_record(record_of(text))))
    assert not current_path().exists()


def test_resume_without_a_saved_game_says_so():
    out = io.StringIO()
    assert run(Options(setup(), resume=True), io.StringIO(""), out, hinter=None) == 2
    assert out.getvalue() == "There is no unfinished game to resume.\n"


def test_the_hint_command_gives_the_reason_and_marks_the_game_assisted(home):
    out = io.StringIO()
    inp = Script(out, 1, first=["hint", "hint"], stop_after=0)
    told = []

    def hinter(view):
        told.append(view.seat)
        return view.legal_bids[0], "passing keeps every contract open"

    assert run(Options(setup()), inp, out, hinter=hinter) == 0
    assert told == [0, 0]
    assert out.getvalue().count("marked as assisted") == 1
    assert "Hint: pass. Passing keeps every contract open. This game is now marked as assisted." in out.getvalue()
    assert json.loads(sidecar_of(current_path()).read_text())["assisted"] is True


def test_through_a_real_pipe(tmp_path):
    """The command itself, through pipes, answering as a script would (output flushed per read)."""
    env = {**os.environ, "STEPPING_STONES_HOME": str(tmp_path / "pipehome")}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "stepping_stones",
            "play",
            "--plain",
            "--short",
            "--seed",
            "3",
            "--name",
            "Ana",
            "--levels",
            "random,random",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    rng = Random(4)
    last = ""
    for line in proc.stdout:
        last = line
        if line.startswith("legal: "):
            proc.stdin.write(rng.choice(line[len("legal: ") :].rstrip("\n").split(", ")) + "\n")
            proc.stdin.flush()
    assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
    path = Path(last.rstrip("\n")[len("record: ") :])
    assert reference.replay(json.loads(path.read_text())) == summary(game_from_record(read_record(path)))


def _plain_process(tmp_path: Path, **env: str) -> subprocess.Popen:
    env = {**os.environ, "STEPPING_STONES_HOME": str(tmp_path / "pipehome"), **env}
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "stepping_stones",
            "play",
            "--plain",
            "--short",
            "--seed",
            "3",
            "--name",
            "Ana",
            "--levels",
            "random,random",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )


def _first_prompt(proc: subprocess.Popen) -> tuple[bytes, str]:
    """What the game printed up to its first prompt, and the first legal action there."""
    assert proc.stdout is not None
    told = b""
    for line in proc.stdout:
        told += line
        if line.startswith(b"legal: "):
            return told, line[len(b"legal: ") :].decode().rstrip("\n").split(", ")[0]
    raise AssertionError(told)


def test_bytes_that_are_not_utf8_cost_only_their_line_on_a_strict_locale(tmp_path):
    proc = _plain_process(tmp_path, PYTHONIOENCODING="utf-8:strict", LC_ALL="C.UTF-8")
    _, action = _first_prompt(proc)
    # The action and a line of bad bytes arrive in one read; the action must still be made.
    out, err = proc.communicate(action.encode() + b"\n\xff\xfe\xc3 bad\n", timeout=120)
    assert proc.returncode == 0, err.decode(errors="replace")
    assert b"Traceback" not in err and b"UnicodeDecodeError" not in err, err
    told = out.decode()
    assert "bad' is not " in told and "\ufffd" in told
    assert told.rstrip().endswith(
        "The input ended: the game is saved. Run stepping-stones play --plain --resume to carry on."
    )
    saved = json.loads((tmp_path / "pipehome" / "data" / "current.json").read_text())
    hand = saved["hands"][-1]
    assert action in hand["play"].split(" ") + hand["bids"]


def test_a_ten_megabyte_line_is_not_echoed(tmp_path):
    proc = _plain_process(tmp_path)
    _first_prompt(proc)
    out, err = proc.communicate(b"K" * (10 * 1024 * 1024) + b"\nhelp\n", timeout=120)
    assert proc.returncode == 0, err.decode(errors="replace")
    assert len(out) < 4000, len(out)
    assert max(len(line) for line in out.splitlines()) < 200
    assert b"That line is too long (over 1,024 bytes)" in out
    assert b"sheet (or s) reads the scoresheet" in out  # the next line is read as usual


def test_byte_lines_decode_each_line_alone_and_drop_the_rest_of_a_long_one():
    from stepping_stones.plain import ByteLines, TooLong

    lines = ByteLines(io.BytesIO(b"y" * 5000 + b"\nK3\r\n\xffpass\n" + b"z" * 10 + b"\xe2\x82"), limit=100)
    long = lines.readline()
    assert isinstance(long, TooLong) and long == "y" * 100 + "\n"
    assert [lines.readline() for _ in range(4)] == ["K3\r\n", "\ufffdpass\n", "z" * 10 + "\ufffd", ""]


def test_a_long_line_is_quoted_cut_short():
    status, text, _ = play(Options(setup()), first=["\x1b[2J" + "w" * 500], stop_after=1)
    assert status == 0
    said = next(line for line in text.splitlines() if "is not an action" in line)
    assert said.startswith("'\\x1b[2Jwww") and len(said) < 120, said
    assert "\x1b" not in text


def test_play_without_plain_opens_the_app_with_the_flags_as_its_setup(monkeypatch):
    from stepping_stones import cli
    from stepping_stones.tui import app

    opened = []
    monkeypatch.setattr(app, "run", lambda resume=False, setup=None: opened.append((resume, setup)) or 0)
    assert (
        cli.main(
            [
                "play",
                "--set",
                "advanced",
                "--short",
                "--omit",
                "must-beat",
                "--redo",
                "--seed",
                "9",
                "--name",
                "Ana",
                "--opponents",
                "Mia,Ola",
                "--levels",
                "expert,random",
            ]
        )
        == 0
    )
    ((resume, chosen),) = opened
    assert not resume
    assert chosen == Setup(
        rules=Rules("advanced", short_game=True, omit="must-beat", redo_tokens=True),
        player="Ana",
        names=("Mia", "Ola"),
        levels=("expert", "random"),
        seed="9",
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (["--levels", "heuristic"], "give two levels separated by a comma"),
        (["--levels", "heuristic,grandmaster"], "grandmaster"),
        (["--opponents", "Mia"], "give two names separated by a comma"),
        (["--omit", "must-beat"], "only be left out in the short game"),
        (["--opponents", "Mia,Mia"], "different names"),
    ],
)
def test_play_refuses_bad_flags_in_one_line(args, message, capsys):
    from stepping_stones import cli

    with pytest.raises(SystemExit) as stop:
        status = cli.main(["play", "--plain", *args])
        raise SystemExit(status)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_analysis_tells_the_last_hand_against_perfect_play():
    from stepping_stones.ai.analysis import analyse_past, analysis_lines, seen_by

    out = io.StringIO()

    class Asks(Script):
        asked = 0

        def readline(self, size: int = -1) -> str:
            printed = self.out.getvalue()
            if self.asked == 0 or (self.asked == 1 and "Hand 1 is over." in printed):
                self.asked += 1
                self.reads += 1
                return "analysis\n"
            return super().readline(size)

    inp = Asks(out, 2, stop_after=40)
    assert run(Options(setup(seed=8)), inp, out, hinter=None) == 0
    text = out.getvalue()
    assert "No hand has been finished yet." in text
    assert "After any hand, type analysis" in text
    game = game_from_record(read_record(current_path()))
    view = game.view(0)  # the person's cards judged against what they could see, as in the app
    expected = analysis_lines(analyse_past(view.history[0], seen=seen_by(view)), game.players, 0)
    told = text.split("Hand 1 against perfect play:\n", 1)[1].splitlines()
    assert told[: len(expected)] == expected
    # and ``analyse`` on the record says the same of that hand (issue 43, item 3)
    import contextlib

    from stepping_stones.cli import main

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["analyse", str(current_path())]) == 0
    told = printed.getvalue().split("\nHand 2 ", 1)[0].splitlines()[1:]
    first = [line.strip() for line in told if " next mistake: " not in line]  # analyse names up to 3
    # told from outside the game (the record does not say who the person was: "Ana", not "You"),
    # the same lines, naming the same cards at the same places
    assert first[: len(expected)] == analysis_lines(
        analyse_past(view.history[0], seen=seen_by(view)), game.players, None
    )
    places = re.compile(r"[CKLB][1-9] \(trick \d+, card \d\)")
    assert [places.findall(line) for line in first[: len(expected)]] == [places.findall(line) for line in expected]
    assert any(places.search(line) for line in expected)


def test_a_long_legal_list_is_given_once_a_prompt_and_cards_come_in_the_order_of_the_hand():
    """Issue 35, item 14: the 21-item legal: line of a bid was printed again after every command;
    "You hold" and legal: listed cards in different orders; "and have no X or Y or Z"."""
    out = io.StringIO()

    class Commands(Script):
        sent = 0

        commands = 0

        def readline(self, size: int = -1) -> str:
            printed = self.out.getvalue()
            if self.commands < 3 and "You are to bid" in printed:
                self.commands += 1
                self.reads += 1
                return ("sheet\n", "legal\n", "sheet\n")[self.commands - 1]
            return super().readline(size)

    inp = Commands(out, 2, stop_after=60)
    assert run(Options(setup(seed=3)), inp, out, hinter=None) == 0
    lines = out.getvalue().splitlines()
    prompts = [line for line in lines if line.startswith("legal: ")]
    first = next(i for i, line in enumerate(prompts) if len(line.split(", ")) > 12)
    assert prompts[first + 1] == "legal: as before (type legal to hear them again)"  # after sheet
    assert prompts[first + 2] == prompts[first]  # after legal: in full
    assert prompts[first + 3] == "legal: as before (type legal to hear them again)"
    for i, line in enumerate(lines):
        if line.startswith("You hold ") and lines[i + 1].startswith("legal: ") and "," in lines[i + 1]:
            held = line.removeprefix("You hold ").split(", and have no")[0].rstrip(".").split(", ")
            legal = lines[i + 1].removeprefix("legal: ").split(", ")
            if all(len(t) == 2 for t in legal):  # cards
                assert legal == [c for c in held if c in legal]
        if ", and have no " in line:  # "and have no Cherry Blossoms, Koi or Stone Lanterns"
            assert line.split(", and have no ")[1].count(" or ") <= 1


def _unfinished_app_game() -> Path:
    """An unfinished game saved as the app leaves it (expert and random players), its path."""
    from stepping_stones.storage.session import Session, free_slot

    session = Session.new(
        Setup(player="Ana", names=("Mia", "Ola"), levels=("expert", "random"), seed="unfinished"), free_slot()
    )
    session.save()
    session.release()
    return session.path


@pytest.mark.parametrize("answer", ["resume", "new", ""])
def test_plain_mode_offers_the_unfinished_game_as_the_app_does(answer):
    """Issue 43, item 10: `play --plain` started a new game while a game of the app was
    unfinished; it offers it first (resume, or new: filed in the games folder), as the app does."""
    from stepping_stones.storage.session import games_dir

    path = _unfinished_app_game()
    before = path.read_bytes()
    out = io.StringIO()
    inp = Script(out, 1, first=[answer] if answer else [], stop_after=0)
    status = run(Options(setup(seed=5)), inp, out, hinter=None)
    text = out.getvalue()
    assert text.startswith("An unfinished game was saved: it stopped at hand 1"), text
    assert "legal: resume, new" in text
    if answer == "resume":
        assert "Resuming the unfinished game at hand 1" in text
        assert "Stepping Stones: Standard set, 12 hands." in text and "against Mia (expert) and Ola (random)" in text
        assert status == 0
    elif answer == "new":
        filed = [p for p in games_dir().glob("unfinished-*.json") if not p.name.endswith(".session.json")]
        assert len(filed) == 1 and read_record(filed[0]).players == ["Ana", "Mia", "Ola"]
        assert "against Hana (heuristic) and Kenji (random)" in text and "The deal seed is 5." in text
    else:  # the input ended at the question: nothing started, the game kept as it was
        assert status == 1 and path.read_bytes() == before
        assert not list(games_dir().glob("unfinished-*.json"))


def test_play_takes_what_its_flags_leave_out_from_the_setup_chosen_last(monkeypatch):
    """Issue 43, item 10: `play --plain` played heuristic opponents where the setup chosen last
    (kept in the settings) said expert; the rules chosen there were not kept either."""
    from stepping_stones import cli, plain
    from stepping_stones.ai import solver
    from stepping_stones.storage.settings import Settings, load_settings, save_settings

    chosen = Setup(
        rules=Rules("advanced", short_game=True, omit="must-beat", redo_tokens=True),
        player="Ana",
        names=("Mia", "Ola"),
        levels=("expert", "random"),
    )
    settings = Settings()
    settings.remember(chosen)
    save_settings(settings)
    assert load_settings().setup() == chosen  # the rules kept with the players
    monkeypatch.setattr(solver, "compile_needed", lambda: False)
    monkeypatch.setattr(solver, "load_in_background", lambda: None)
    started = []
    monkeypatch.setattr(plain, "run", lambda options, inp, out: started.append(options.setup) or 0)
    assert cli.main(["play", "--plain"]) == 0
    assert cli.main(["play", "--plain", "--levels", "random,random", "--set", "advanced"]) == 0
    assert started == [chosen, replace(chosen, rules=Rules("advanced"), levels=("random", "random"))]
