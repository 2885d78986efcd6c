"""Game records: round trips, the replay command, and every kind of refusal."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ALL_RULES, random_game
from stepping_stones.cli import main
from stepping_stones.engine import SUITS, Declaration, Game, Phase, Rules, parse_bid, parse_card
from stepping_stones.storage.records import (
    RecordError,
    game_from_record,
    parse_record,
    read_record,
    record_from_game,
    record_json,
    summary,
    write_record,
)


def record_dict(game: Game) -> dict:
    return json.loads(record_json(record_from_game(game)))


def replay(tmp_path, capsys, data, *flags):
    path = tmp_path / "game.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    code = main(["replay", str(path), *flags])
    out = capsys.readouterr()
    return code, out.out, out.err


def refused(tmp_path, capsys, data) -> str:
    code, out, err = replay(tmp_path, capsys, data, "--json")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1, err
    shown = f"{tmp_path / 'game.json'}: "
    assert err.startswith(shown), err  # every command names the file it refuses, first
    return err.strip()[len(shown) :]


# --- round trips ----------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(ALL_RULES), cut=st.one_of(st.none(), st.integers(0, 600)))
def test_records_round_trip_exactly(seed, rules, cut):
    game = random_game(seed, rules, stop_after=cut)
    record = record_from_game(game)
    text = record_json(record)
    again = parse_record(text)
    assert again == record
    replayed = game_from_record(again)
    assert summary(replayed) == summary(game)
    assert record_json(record_from_game(replayed)) == text


def test_write_record_is_atomic_and_readable(tmp_path):
    game = random_game(3, Rules("advanced", redo_tokens=True))
    path = tmp_path / "saves" / "game.json"
    write_record(path, record_from_game(game))
    assert read_record(path) == record_from_game(game)
    assert [p.name for p in path.parent.iterdir()] == ["game.json"]  # no temporary file left


def test_replay_json_matches_the_spec_shape(tmp_path, capsys):
    game = random_game(8, Rules("standard"))
    code, out, err = replay(tmp_path, capsys, record_dict(game), "--json")
    assert code == 0 and err == ""
    facts = json.loads(out)
    assert set(facts) == {"complete", "hands", "sheet", "points", "totals", "firsts", "winners"}
    assert facts["complete"] is True
    assert len(facts["hands"]) == 12
    first = facts["hands"][0]
    assert set(first) == {
        "declarer",
        "contract",
        "ranking",
        "trump",
        "redo",
        "puddle",
        "forehand",
        "trick_winners",
        "count",
    }
    assert list(facts["sheet"]) == list(Rules().contract_ids)
    assert sum(facts["totals"]) == 12
    assert facts["winners"] == game.winners()


def test_replay_of_an_unfinished_game(tmp_path, capsys):
    game = random_game(4, Rules("advanced", short_game=True), stop_after=60)
    assert game.phase is Phase.PLAY
    code, out, _ = replay(tmp_path, capsys, record_dict(game), "--json")
    facts = json.loads(out)
    assert code == 0 and facts["complete"] is False and facts["winners"] == []
    last = facts["hands"][-1]
    assert last["count"] is None
    assert len(last["trick_winners"]) == len(game.state.winners)
    assert "may-trump" in facts["sheet"] and "win-pick-trump" not in facts["sheet"]


def test_win_last_6_count_in_the_replay_counts_tricks_7_to_12(tmp_path, capsys):
    for seed in range(40):
        game = random_game(seed, Rules("advanced"))
        facts = summary(game)
        for hand in facts["hands"]:
            if hand["contract"] == "win-last-6":
                won_late = sum(1 for w in hand["trick_winners"][6:] if w == hand["declarer"])
                assert hand["count"] == won_late
                return
    pytest.fail("no Win Last 6 hand found")


def test_replay_text_shows_the_sheet_and_the_result(tmp_path, capsys):
    game = random_game(8, Rules("standard", redo_tokens=True))
    data = record_dict(game)
    data["players"] = ["[bold]x[/]", "Hana", "Kenji"]
    code, out, _ = replay(tmp_path, capsys, data)
    assert code == 0
    assert "[bold]x[/]" in out  # markup-looking names are plain text
    for c in Rules().contracts:
        assert c.label in out
    names = ["[bold]x[/]", "Hana", "Kenji"]
    assert any(f"{names[w]} wins" in out or "Shared win" in out for w in game.winners())


# --- refusals ---------------------------------------------------------------------------


@pytest.fixture
def done():
    """A finished standard game's record (no redo tokens)."""
    return record_dict(random_game(11, Rules("standard")))


def _replay_to(data: dict, hand: int):
    """The game replayed up to the start of ``hand`` (1-based)."""
    partial = copy.deepcopy(data)
    partial["hands"] = partial["hands"][: hand - 1]
    return game_from_record(parse_record(json.dumps(partial)))


def test_malformed_json_is_refused(tmp_path, capsys):
    line = refused(tmp_path, capsys, '{"format": "stepping-stones-record/1", ')
    assert line.startswith("not valid JSON")


def test_a_wrong_format_string_is_refused(tmp_path, capsys, done):
    done["format"] = "stepping-stones-record/2"
    assert refused(tmp_path, capsys, done).startswith("format must be 'stepping-stones-record/1'")


def test_a_deal_that_is_not_36_distinct_cards_is_refused(tmp_path, capsys, done):
    bad = copy.deepcopy(done)
    bad["hands"][2]["deal"][1] = bad["hands"][2]["deal"][0]
    assert refused(tmp_path, capsys, bad).startswith("hand 3, deal: ")
    short = copy.deepcopy(done)
    short["hands"][0]["deal"][2] = " ".join(short["hands"][0]["deal"][2].split()[:11])
    assert refused(tmp_path, capsys, short) == "hand 1, deal: Kenji is dealt 11 cards, not 12"
    nonsense = copy.deepcopy(done)
    nonsense["hands"][0]["deal"][0] = nonsense["hands"][0]["deal"][0].replace("C", "X", 1)
    assert "is not a card" in refused(tmp_path, capsys, nonsense)


@pytest.mark.parametrize("space", ["\u3000", "\u2028", "\t", "\xa0", "  "])
def test_cards_are_separated_by_a_single_ascii_space_only(tmp_path, capsys, done, space):
    deal = copy.deepcopy(done)
    deal["hands"][1]["deal"][0] = deal["hands"][1]["deal"][0].replace(" ", space, 1)
    line = refused(tmp_path, capsys, deal)
    assert line.startswith("hand 2, deal: "), line
    assert "\u3000" not in line and "\u2028" not in line and "\t" not in line
    play = copy.deepcopy(done)
    cards = play["hands"][0]["play"].split(" ")
    play["hands"][0]["play"] = " ".join(cards[:4]) + space + " ".join(cards[4:])
    line = refused(tmp_path, capsys, play)
    assert line.startswith("hand 1, play 4: " if space != "  " else "hand 1, play 5: "), line


@pytest.mark.parametrize("where", ["lead", "trail"])
def test_a_space_before_or_after_the_cards_is_refused(tmp_path, capsys, done, where):
    text = done["hands"][0]["play"]
    done["hands"][0]["play"] = " " + text if where == "lead" else text + " "
    line = refused(tmp_path, capsys, done)
    assert line.startswith("hand 1, play ") and "single spaces" in line, line


def test_an_unknown_contract_is_refused(tmp_path, capsys, done):
    bids = done["hands"][1]["bids"]
    bids[-1] = "win-everything 9"
    line = refused(tmp_path, capsys, done)
    assert line == f"hand 2, bid {len(bids)}: there is no contract called 'win-everything'"


def test_a_contract_the_bidder_already_recorded_is_refused(tmp_path, capsys, done):
    game = game_from_record(parse_record(json.dumps(done)))
    # Find a hand whose declarer had already recorded another contract; make them declare that one.
    for h, hand in enumerate(game.log):
        earlier = [e for e in game.log[:h] if e.declarer == hand.declarer]
        if earlier:
            again = earlier[0].declaration
            done["hands"][h]["bids"][-1] = str(Declaration(again.contract, 9, again.trump))
            line = refused(tmp_path, capsys, done)
            name = game.players[hand.declarer]
            assert line == (f"hand {h + 1}, bid {len(hand.bids)}: {name} has already recorded {again.contract.name}")
            return
    pytest.fail("no suitable hand")


def test_a_redo_when_tokens_are_off_is_refused(tmp_path, capsys, done):
    game = game_from_record(parse_record(json.dumps(done)))
    h = next(i for i, hand in enumerate(game.log) if any(e.declarer == hand.declarer for e in game.log[:i]))
    earlier = next(e for e in game.log[:h] if e.declarer == game.log[h].declarer)
    done["hands"][h]["bids"][-1] = str(Declaration(earlier.declaration.contract, 9, earlier.declaration.trump, True))
    line = refused(tmp_path, capsys, done)
    assert line == f"hand {h + 1}, bid {len(game.log[h].bids)}: redo tokens are not in use in this game"


def test_a_second_redo_is_refused(tmp_path, capsys):
    for seed in range(200):
        game = random_game(seed, Rules("standard", redo_tokens=True))
        redo_hands = [i for i, h in enumerate(game.log) if h.declaration.redo]
        for i in redo_hands:
            seat = game.log[i].declarer
            later = [
                j
                for j in range(i + 1, len(game.log))
                if game.log[j].declarer == seat
                and game.log[j].bids[-1] is game.log[j].declaration
                and not game.log[j].puddle
            ]
            if not later:
                continue
            j = later[0]
            data = record_dict(game)
            first = game.log[i].declaration
            data["hands"][j]["bids"][-1] = str(Declaration(first.contract, 9, first.trump, True))
            line = refused(tmp_path, capsys, data)
            name = game.players[seat]
            assert line == f"hand {j + 1}, bid {len(game.log[j].bids)}: {name} has already spent their redo token"
            return
    pytest.fail("no game with a redo followed by another declaration")


def test_a_bid_after_the_bidding_ended_is_refused(tmp_path, capsys, done):
    n = len(done["hands"][0]["bids"])
    done["hands"][0]["bids"].append("pass")
    line = refused(tmp_path, capsys, done)
    assert line.startswith(f"hand 1, bid {n + 1}: the bidding has ended: ")


def test_a_pass_in_the_puddle_is_refused(tmp_path, capsys):
    for seed in range(100):
        game = random_game(seed, Rules())
        for h, hand in enumerate(game.log):
            if hand.puddle:
                data = record_dict(game)
                data["hands"][h]["bids"][3] = "pass"
                line = refused(tmp_path, capsys, data)
                name = game.players[hand.declarer]
                assert line == (
                    f"hand {h + 1}, bid 4: {name} is in the puddle and must declare one of their open contracts"
                )
                return
    pytest.fail("no puddle found")


def test_a_card_not_in_the_players_hand_is_refused(tmp_path, capsys, done):
    plays = done["hands"][0]["play"].split()
    plays[4] = plays[0]  # a card that was already played
    done["hands"][0]["play"] = " ".join(plays)
    line = refused(tmp_path, capsys, done)
    assert line.startswith("hand 1, play 5: ") and line.endswith(f"does not hold {plays[0]}")


def test_a_revoke_is_refused_with_the_players_holding(tmp_path, capsys, done):
    game = _replay_to(done, 2)
    game.start_hand(game_from_record(parse_record(json.dumps(done))).log[1].deal)
    for b in done["hands"][1]["bids"]:
        if len(game.hand.bids) < len(done["hands"][1]["bids"]):
            game.bid(parse_bid(b))
    plays = done["hands"][1]["play"].split()
    for j, name in enumerate(plays):
        state = game.state
        held = state.hands[state.turn]
        illegal = held & ~state.legal_mask()
        if illegal:
            bad = (illegal & -illegal).bit_length() - 1
            from stepping_stones.engine import CARD_NAMES, SUIT_NAMES

            plays[j] = CARD_NAMES[bad]
            done["hands"][1]["play"] = " ".join(plays)
            line = refused(tmp_path, capsys, done)
            led = SUIT_NAMES[state.current_trick()[0][1] // 9]
            assert line.startswith(f"hand 2, play {j + 1}: {game.players[state.turn]} must ")
            assert led in line or "must beat" in line
            return
        game.play(parse_card(name))
    pytest.fail("no revoke possible in hand 2")


def test_cards_before_the_bidding_ends_are_refused(tmp_path, capsys, done):
    game = game_from_record(parse_record(json.dumps(done)))
    hand = game.log[0]
    done["hands"][0]["bids"] = done["hands"][0]["bids"][:-1]
    line = refused(tmp_path, capsys, done)
    who = (hand.forehand + len(hand.bids) - 1) % 3 if len(hand.bids) < 4 else hand.declarer
    assert line == f"hand 1, play 1: the bidding is not over: {game.players[who]} is to bid"


def test_a_37th_card_is_refused(tmp_path, capsys, done):
    done["hands"][0]["play"] += " C1"
    assert refused(tmp_path, capsys, done) == "hand 1, play 37: all 12 tricks of this hand have been played"


def test_more_hands_than_the_game_has_are_refused(tmp_path, capsys, done):
    done["hands"].append(copy.deepcopy(done["hands"][-1]))
    line = refused(tmp_path, capsys, done)
    assert line.startswith("hand 13, bid 1: the game already ended after hand 12")


def test_a_hand_after_an_unfinished_hand_is_refused(tmp_path, capsys, done):
    done["hands"][0]["play"] = " ".join(done["hands"][0]["play"].split()[:20])
    line = refused(tmp_path, capsys, done)
    assert line == "hand 2, bid 1: hand 1 is not finished, so no new hand can start"


@pytest.mark.parametrize(
    "path, value, words",
    [
        (("rules", "short_game"), "true", "rules.short_game: "),
        (("rules", "redo_tokens"), 1, "rules.redo_tokens: "),
        (("first_forehand",), 1.0, "first_forehand: "),
        (("first_forehand",), True, "first_forehand: "),
        (("first_forehand",), 3, "first_forehand: "),
        (("rules", "contract_set"), "mixed", "rules.contract_set: "),
        (("players",), ["A", "B"], "players: "),
        (("players",), ["A", "B", "A"], "players: the three players need different names"),
        (("players",), ["A", "B\x1b[31m", "C"], "players.1: a player name may not contain control"),
        (("players",), ["A", "", "C"], "players.1: "),
        (("players",), ["A", "x" * 41, "C"], "players.1: "),
        (("hands",), "none", "hands: "),
        (("rules", "omit"), "win-no-trump", "rules: a contract can only be left out in the short game"),
        (("surprise",), 1, "surprise is not a field of the record format"),
    ],
)
def test_wrong_types_and_values_are_refused_not_coerced(tmp_path, capsys, done, path, value, words):
    target = done
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert refused(tmp_path, capsys, done).startswith(words)


def test_a_bid_of_the_wrong_type_is_refused_at_its_place(tmp_path, capsys, done):
    done["hands"][1]["bids"][0] = 7
    assert refused(tmp_path, capsys, done).startswith("hand 2, bid 1: ")


def test_a_missing_field_is_refused(tmp_path, capsys, done):
    del done["first_forehand"]
    assert refused(tmp_path, capsys, done) == "first_forehand is missing"


def test_a_missing_file_is_refused(tmp_path, capsys):
    code = main(["replay", str(tmp_path / "nope.json")])
    err = capsys.readouterr().err
    assert code == 2 and err == f"{tmp_path / 'nope.json'}: there is no such file\n"


def test_a_forced_pass_must_be_written_as_pass(tmp_path, capsys):
    # Find a hand in which some player had nothing left to declare and passed automatically.
    for seed in range(60):
        game = random_game(seed, Rules(short_game=True))
        for h, hand in enumerate(game.log):
            for i, bid in enumerate(hand.bids[:3]):
                seat = (hand.forehand + i) % 3
                before = _replay_to(record_dict(game), h + 1)
                if bid.is_pass and not before.has_open(seat):
                    data = record_dict(game)
                    c = Rules(short_game=True).contracts[0]
                    trump = f" {SUITS[0]}" if c.picks_trump else ""
                    data["hands"][h]["bids"][i] = f"{c.id} 9{trump}"
                    line = refused(tmp_path, capsys, data)
                    assert line == (
                        f"hand {h + 1}, bid {i + 1}: {game.players[seat]} has nothing left to declare and must pass"
                    )
                    return
    pytest.fail("no forced pass found")


def test_record_errors_name_hand_and_action():
    err = RecordError("Kenji must follow Koi (holds K4, K8)", 3, "play 14")
    assert str(err) == "hand 3, play 14: Kenji must follow Koi (holds K4, K8)"


# --- fuzzing: whatever the file holds, the answer is a result or one RecordError -------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["pass", "K4", "win-no-trump 9", "may-trump 1 L redo", "C1 C2", ""]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=8,
)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 50), data=st.data())
def test_any_damage_to_a_record_gives_a_result_or_one_record_error(seed, data):
    record = record_dict(random_game(seed, Rules("advanced", redo_tokens=True), stop_after=seed * 13))
    for _ in range(data.draw(st.integers(1, 3))):
        paths = list(_paths(record))
        path = data.draw(st.sampled_from(paths))
        new = data.draw(json_values)
        if not path:
            record = new
            continue
        target = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = new
    text = json.dumps(record)
    try:
        game = game_from_record(parse_record(text))
    except RecordError as exc:
        assert "\n" not in exc.line() and exc.line()
        return
    summary(game)  # a record that passed must give the whole result


@pytest.mark.parametrize("command", ["replay", "hint", "analyse", "review", "library"])
def test_every_command_names_a_refused_file_the_same_way(tmp_path, capsys, done, command):
    """Issue 43: "record: players the three players need different names", without the file's
    name, from replay, hint, analyse and review, while library import named it."""
    done["players"] = ["Ann", "Bo", "Ann"]
    path = tmp_path / "same names.json"
    path.write_text(json.dumps(done), encoding="utf-8")
    missing = tmp_path / "missing.json"
    args = ["library", "import"] if command == "library" else [command]
    lead = "refused " if command == "library" else ""
    for file, why in ((path, "players: the three players need different names"), (missing, "there is no such file")):
        code = main([*args, str(file)])
        err = capsys.readouterr().err
        assert code == 2
        assert err.splitlines()[0] == f"{lead}{file}: {why}"


def test_replay_counts_in_counted_tricks_with_the_right_plural(tmp_path, capsys):
    """Issue 43, item 4: "1 tricks"."""
    game = next(g for g in (random_game(s, Rules()) for s in range(40)) if any(h.result == 1 for h in g.log))
    code, out, _ = replay(tmp_path, capsys, record_dict(game))
    assert code == 0
    said = [line.rsplit(": ", 1)[1] for line in out.splitlines() if line.startswith("Hand ")]
    assert said == [f"{h.result} counted trick{'' if h.result == 1 else 's'}" for h in game.log if h.declared]
    assert "1 counted trick" in said
