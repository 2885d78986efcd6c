"""Hostile files are refused like any bad record: exit 2, one clean line, quickly, in bounded memory.

Each case runs ``stepping-stones replay --json`` in its own process with its memory capped at
1.5 GB and its CPU time at 10 s (``RLIMIT_CPU``: the process is stopped past it, however busy the
machine is; a refusal takes about a second, most of it starting Python), as a person (or a
script) would run it.  No test reads the clock.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time  # process_time only: CPU time, never the wall clock
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import random_game
from stepping_stones.engine import Rules
from stepping_stones.storage.records import parse_record, record_from_game, record_json
from stepping_stones.storage.safety import _decoded, escape, name_problem, strict_json

MEMORY = 1_500 * 1024 * 1024
CPU_SECONDS = 10
CONTROL = {chr(c) for c in range(32)} - {"\n"} | {"\x7f", "\u202e", "\u2066"}


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


def replay(path: str | Path, *args: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "stepping_stones", "replay", str(path), *args],
        capture_output=True,
        preexec_fn=_cap,
    )
    return done.returncode, done.stdout.decode(), done.stderr.decode("utf-8", "replace")


def refused(path: str | Path) -> str:
    """The one line a refusal prints, after the file's name (which every command gives first)."""
    code, out, err = replay(path, "--json")
    assert code == 2, (code, err[-500:])  # a process stopped by its CPU limit dies of SIGXCPU
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n"), err[-500:]
    assert "Traceback" not in err
    assert not CONTROL & set(err.rstrip("\n")), repr(err)
    shown = f"{escape(str(path))}: "
    assert err.startswith(shown), err[-500:]
    return err.strip()[len(shown) :]


@pytest.fixture
def record() -> dict:
    return json.loads(record_json(record_from_game(random_game(3, Rules()))))


def write(tmp_path: Path, text: str | bytes, name: str = "hostile.json") -> Path:
    path = tmp_path / name
    if isinstance(text, str):
        text = text.encode()
    path.write_bytes(text)
    return path


def test_json_nested_far_too_deep(tmp_path):
    line = refused(write(tmp_path, "[" * 100_000 + "]" * 100_000))
    assert "nested deeper" in line


def test_nesting_hidden_inside_a_record(tmp_path, record):
    record["hands"][0]["bids"] = json.loads("[" * 50 + "]" * 50)
    assert "nested deeper" in refused(write(tmp_path, json.dumps(record)))


def test_an_integer_of_thousands_of_digits(tmp_path, record):
    text = json.dumps(record).replace('"first_forehand": ', '"first_forehand": ' + "9" * 5000 + "0*", 1)
    text = text.replace("0*", "")
    assert "digits" in refused(write(tmp_path, text))


def test_escape_sequences_in_a_key_and_in_values_are_never_echoed_raw(tmp_path, record):
    record["\x1b]0;pwned\x07"] = 1
    assert "\\x1b" in refused(write(tmp_path, json.dumps(record), "key.json"))
    del record["\x1b]0;pwned\x07"]
    record["format"] = "\x1b[2J\x1b]0;pwned\x07"
    assert "\\x1b" in refused(write(tmp_path, json.dumps(record), "value.json"))
    record["format"] = "stepping-stones-record/1"
    record["players"][1] = "Eve\u202eevil"
    assert "control characters" in refused(write(tmp_path, json.dumps(record), "name.json"))


def test_an_escape_sequence_in_the_file_name(tmp_path):
    refused(write(tmp_path, "not json", "evil\x1b]0;pwned\x07.json"))  # no control character shown
    # refused() checks that the name comes first, escaped: missing\x1b[31m.json
    assert refused(tmp_path / "missing\x1b[31m.json") == "there is no such file"


def test_a_duplicate_key_even_with_the_same_value(tmp_path, record):
    text = json.dumps(record).replace('"format": ', '"format": "stepping-stones-record/1", "format": ', 1)
    assert "twice" in refused(write(tmp_path, text))


def test_a_40_megabyte_record_is_refused_without_being_read_whole(tmp_path, record):
    record["hands"][0]["play"] = "K4 " * (40 * 1024 * 1024 // 3)
    line = refused(write(tmp_path, json.dumps(record)))
    assert "too large" in line


def test_a_fifo_a_device_and_a_folder(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    assert "not a regular file" in refused(fifo)
    assert "not a regular file" in refused("/dev/zero")
    assert "folder" in refused(tmp_path)


def test_replay_into_a_closed_pipe_ends_quietly(tmp_path, record):
    path = write(tmp_path, json.dumps(record))
    done = subprocess.run(
        f"{sys.executable} -m stepping_stones replay '{path}' | head -1",
        shell=True,
        capture_output=True,
        timeout=30,
    )
    assert done.stdout.decode().startswith("Stepping Stones: ")
    assert b"Traceback" not in done.stderr and b"Error" not in done.stderr


def test_names_follow_the_setup_screens_rule(tmp_path, record):
    scotland = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"  # a flag: tag characters
    record["players"] = ["Ann", "\U0001f469\u200d\U0001f4bb", scotland]
    assert parse_record(json.dumps(record)).players[1] == "\U0001f469\u200d\U0001f4bb"  # joined emoji are names
    record["players"] = ["Ann", "Ann", "Kenji"]
    assert "different names" in refused(write(tmp_path, json.dumps(record), "same.json"))
    record["players"] = ["Ann", "   ", "Kenji"]
    assert "blank" in refused(write(tmp_path, json.dumps(record), "blank.json"))
    for override in ("\u202e", "\u2066", "\u200f"):
        assert name_problem(f"Eve{override}") is not None


def _bulky(record: dict) -> dict[str, dict]:
    """Records just under the size limit whose lists are far longer than any game's."""
    room = 250 * 1024
    empty_hand = {"deal": ["", "", ""], "bids": [], "play": ""}
    variants = {
        "empty hands": {"hands": [empty_hand] * (room // 40)},
        "hands of nothing": {"hands": [{}] * (room // 3)},
        "hands that are lists": {"hands": [[]] * (room // 3)},
        "hands of unknown fields": {"hands": [{"x": 1}] * (room // 8)},
        "many bids": {"hands": [{**record["hands"][0], "bids": ["pass"] * (room // 8)}]},
        "bids of numbers": {"hands": [{**record["hands"][0], "bids": [1] * (room // 2)}]},
        "a long play": {"hands": [{**record["hands"][0], "play": "K1 " * (room // 3)}]},
        "a wide deal": {"hands": [{**record["hands"][0], "deal": [""] * (room // 3)}]},
        "many players": {"players": [1] * (room // 2)},
        "unknown fields": {f"k{i}": 0 for i in range(room // 12)},
        "unknown rules": {"rules": {f"k{i}": 0 for i in range(room // 12)}},
    }
    return {name: {**record, **change} for name, change in variants.items()}


def test_structural_excess_is_refused_quickly_and_in_little_memory(record):
    import tracemalloc

    from stepping_stones.storage.records import MAX_RECORD_BYTES, RecordError

    for name, bulky in _bulky(record).items():
        text = json.dumps(bulky, separators=(",", ":"))
        assert len(text) <= MAX_RECORD_BYTES, (name, len(text))
        tracemalloc.start()
        cpu = time.process_time()
        try:
            with pytest.raises(RecordError) as err:
                parse_record(text)
            cpu = time.process_time() - cpu
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        # Under the limit: within 1 s of CPU and 100 MB (it takes a few hundredths of a second
        # and a few MB; before, up to 6 s and 200 MB).
        assert cpu < 1.0, (name, cpu)
        assert peak < 100 * 1024 * 1024, (name, peak)
        assert "\n" not in err.value.line() and len(err.value.line()) <= 300, name


def test_87000_empty_hands_are_refused_in_one_line(tmp_path, record):
    record["hands"] = [{}] * 87_000
    line = refused(write(tmp_path, json.dumps(record, separators=(",", ":"))))
    assert line == "87,000 hands, far more than any game has"


def test_strict_json_limits_directly():
    with pytest.raises(ValueError, match="NaN"):
        strict_json('{"a": NaN}')
    with pytest.raises(ValueError, match="digits"):
        strict_json('{"a": 1e' + "9" * 40 + "}")
    assert strict_json('{"a": [1, {"b": "[[[["}]}') == {"a": [1, {"b": "[[[["}]}
    assert escape("a\nb\x1bc\u200dd") == "a\\x0ab\\x1bc\u200dd"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"a": "abc', "Unterminated string starting at line 1, column 7"),
        ('{"a": "a\x01b"}', "Invalid control character at line 1, column 9"),
        ('{"a" 1}', "Expecting ':' delimiter at line 1, column 6"),
    ],
)
def test_json_errors_say_where_once(text, said):
    with pytest.raises(ValueError) as err:
        strict_json(text)
    assert str(err.value) == f"not valid JSON ({said})"
    assert "at at" not in str(err.value)


def _outcome(read, text):
    try:
        return ("value", read(text))
    except json.JSONDecodeError as exc:
        return ("error", exc.msg, exc.pos, exc.lineno, exc.colno)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=' \t\n\r{}[]":,0123456789.-+eEtrufalsnNI\\x\x01', max_size=24))
@example("")
@example("  ")
@example(' {"a": 1} ')
@example('{"a": 1} x')
@example("1 2")
def test_strict_json_reads_as_the_decoder_would(text):
    """``strict_json`` calls its decoder's scanner itself: the value, or the error and its place,
    that ``JSONDecoder.decode`` gives, for any text (whitespace around, extra data, nothing)."""
    decoder = json.JSONDecoder()
    assert _outcome(lambda t: _decoded(decoder.scan_once, t), text) == _outcome(decoder.decode, text)
