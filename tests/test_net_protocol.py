"""The table protocol: a PlayerView's exact round trip on the wire, the checks at the boundary, invite
codes and seat secrets."""

from __future__ import annotations

import dataclasses
import json
import math
import unicodedata
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stepping_stones.ai import make_ai
from stepping_stones.engine import PlayerView, Rules, cards_of, record_cards
from stepping_stones.game.match import Match, Seeds, Step
from stepping_stones.net.codes import CODE_ALPHABET, CODE_CHARS, new_code, normal_code
from stepping_stones.net.protocol import (
    MAX_CLIENT_MESSAGE,
    Act,
    Hello,
    NewTable,
    Ping,
    ProtocolError,
    Start,
    StateMessage,
    VersionMismatch,
    parse_client,
    parse_new_table,
    parse_server,
    state_text,
)
from stepping_stones.net.table import Table, TableError
from stepping_stones.net.wire import legal_actions, read_view, turned, view_json
from stepping_stones.storage.records import RecordRules


@pytest.mark.parametrize("rules", [Rules("standard", short_game=True), Rules("advanced", redo_tokens=True)])
def test_every_view_of_a_game_goes_through_json_and_back_exactly(rules):
    match = Match.new(
        rules, [make_ai("random")] * 3, Seeds(f"codec-{rules.contract_set}"), players=("Zoë", 'Jo "J" \\', "Ren 連")
    )
    seen = 0
    while True:
        for seat in range(3):
            view = match.game.view(seat)
            text = view_json(view)
            back = read_view(text)
            assert back == view
            assert view_json(back) == text
            seen += 1
        if match.step() is Step.OVER:
            break
    assert seen > 300


def test_the_wire_is_the_engine_s_view_field_by_field_in_the_record_s_spelling():
    """Nothing restates the view's fields: the wire has exactly the engine's, in their order, each
    written as records write its type (cards by name, a set of cards as a record's list, bids)."""
    match = Match.new(Rules(), [make_ai("random")] * 3, Seeds("spelling"))
    while len(match.game.view(0).plays) < 5:
        match.step()
    view = match.game.view(0)
    data = json.loads(view_json(view))
    assert tuple(data) == tuple(f.name for f in dataclasses.fields(PlayerView))
    assert tuple(data["history"][0]) if data["history"] else True
    assert data["plays"] == record_cards(view.plays)
    assert data["own_cards"] == record_cards(cards_of(view.own_cards))
    assert data["bids"] == [str(b) for b in view.bids]
    assert data["declaration"] == str(view.declaration)
    assert data["rules"] == RecordRules.of(view.rules).model_dump()
    assert data["phase"] == "play" and data["seat"] == 0


def test_a_view_is_turned_to_its_own_seat_in_every_field_that_holds_a_seat():
    """``turned`` finds the fields that hold seats from the engine's annotations (``Seat``, and the
    tuples of one value per seat): turning is the same as the game seen with the players moved."""
    match = Match.new(Rules(), [make_ai("random")] * 3, Seeds("turn"), players=("A", "B", "C"))
    for _ in range(60):
        match.step()
    game = match.game
    moved = dataclasses.replace
    for seat in range(3):
        view = game.view(seat)
        mine = turned(view)
        assert mine.seat == 0 and mine.players == tuple(view.players[(seat + i) % 3] for i in range(3))
        assert mine.own_cards == view.own_cards and mine.plays == view.plays
        assert mine.play_seats == tuple((s - seat) % 3 for s in view.play_seats)
        assert mine.to_act == (None if view.to_act is None else (view.to_act - seat) % 3)
        assert all(mine.sheet[c] == tuple(row[(seat + i) % 3] for i in range(3)) for c, row in view.sheet.items())
        assert [h.declarer for h in mine.history] == [
            None if h.declarer is None else (h.declarer - seat) % 3 for h in view.history
        ]
        assert turned(moved(mine)) == mine


def test_legal_actions_are_the_seat_s_own_in_the_record_spelling():
    match = Match.new(Rules(), [make_ai("random")] * 3, Seeds("legal"))
    match.step()  # the deal
    game = match.game
    seat = game.to_act
    assert legal_actions(game.view(seat)) == [str(b) for b in game.legal_bids()]
    assert legal_actions(game.view((seat + 1) % 3)) == []


def test_a_view_that_describes_no_game_is_refused_in_one_line():
    match = Match.new(Rules(), [make_ai("random")] * 3, Seeds("bad"))
    match.step()
    good = json.loads(view_json(match.game.view(0)))
    for field, value, says in (
        ("own_cards", "K1 X9", "own_cards"),
        ("plays", ["K1", 7], "plays"),
        ("bids", ["may-trump 10 K"], "bids"),
        ("to_act", 3, "to_act"),
        ("players", ["A", "B", "\x1b[2J"], "players"),
        ("rules", {"contract_set": "huge", "short_game": False}, "rules"),
    ):
        with pytest.raises(ProtocolError) as caught:
            parse_server(json.dumps({**_state_of(good), "view": {**good, field: value}}))
        line = str(caught.value)
        assert says in line and "\n" not in line and len(line) <= 300, line


def _state_of(view: dict) -> dict:
    return {
        "type": "state",
        "seq": 1,
        "started": True,
        "seats": [_SEAT] * 3,
        "help": False,
        "view": view,
        "legal": [],
        "waiting": None,
    }


_SEAT = {"name": "Ann", "kind": "human", "level": None, "connected": True, "stand_in": False}


def test_client_messages_are_checked_at_the_boundary():
    assert isinstance(parse_client('{"type":"hello","version":4,"code":"ABCDE-FGHJK","name":"Ann"}'), Hello)
    assert isinstance(parse_client('{"type":"action","seq":3,"card":"K9"}'), Act)
    assert isinstance(parse_client('{"type":"start"}'), Start)
    assert parse_client('{"type":"ping","nonce":7}') == Ping(type="ping", nonce=7)
    bad = [
        b"\xff\xfe\x00garbage",
        "not json",
        "[1,2,3]",
        '{"type":"fly"}',
        '{"type":"action","seq":3,"card":"K9","seat":2}',  # no such field: a seat acts only for itself
        '{"type":"action","seq":"3","card":"K9"}',  # no coercion
        '{"type":"action","seq":3}',
        '{"type":"action","seq":3,"card":"K9","bid":"pass"}',
        '{"type":"hello","version":4,"code":"ABCDE-FGHJK","secret":"x","name":"Ann"}',
        '{"type":"hello","version":4,"code":"ABCDE-FGHJK","name":"\\u001b[2J"}',
        '{"type":"ping","nonce":1,"nonce":2}',
        '{"type":"ping","nonce":' + "9" * 40 + "}",
        '{"type":"start","x":' + "[" * 50 + "]" * 50 + "}",
        '{"type":"ping","pad":"' + "x" * MAX_CLIENT_MESSAGE + '"}',
    ]
    for data in bad:
        with pytest.raises(ProtocolError) as caught:
            parse_client(data)
        line = str(caught.value)
        assert "\n" not in line and len(line) <= 300 and "\x1b" not in line and "Traceback" not in line


def test_another_version_is_told_so_in_one_line():
    with pytest.raises(VersionMismatch, match="version 4 of the table protocol, the client version 5"):
        parse_client('{"type":"hello","version":5,"whatever":"a later version may send"}')
    with pytest.raises(VersionMismatch, match="the client version 2"):
        parse_client('{"type":"hello","version":2,"code":"ABCDE-FGHJK","name":"Ann"}')
    for version, named in (
        ('"2"', 'not the text "2"'),
        ("true", "not true"),
        ("2.0", "not 2.0"),
        ("[2]", "not a list"),
    ):
        with pytest.raises(ProtocolError) as caught:  # not another version: no version at all
            parse_client(f'{{"type":"hello","version":{version},"code":"ABCDE-FGHJK","name":"Ann"}}')
        assert not isinstance(caught.value, VersionMismatch)
        assert str(caught.value) == f"a hello's version is the whole number 4, {named}"
    with pytest.raises(ProtocolError, match="version: is missing"):
        parse_client('{"type":"hello","code":"ABCDE-FGHJK","name":"Ann"}')
    hello = parse_client('{"type":"hello","version":4,"code":"ABCDE-FGHJK","name":"Ann"}')
    assert isinstance(hello, Hello) and hello.version == 4
    for old in (1, 3):  # versions 1 to 3 are no longer spoken (3 had no ratings in a seat's facts)
        with pytest.raises(VersionMismatch, match=f"the client version {old}"):
            parse_client(f'{{"type":"hello","version":{old},"code":"ABCDE-FGHJK","name":"Ann"}}')


def test_an_action_that_is_no_bid_or_card_is_refused_as_illegal():
    with pytest.raises(ProtocolError) as caught:
        Act(type="action", seq=0, card="Z9").action()
    assert caught.value.code == "illegal"
    assert str(Act(type="action", seq=0, bid="may-trump 9 B").action()) == "may-trump 9 B"


def test_server_messages_are_checked_by_the_client():
    with pytest.raises(ProtocolError):
        parse_server('{"type":"state","seq":0}')
    with pytest.raises(ProtocolError):
        parse_server("x" * (300 * 1024))


def test_a_table_request_is_checked():
    ok = parse_new_table(
        '{"rules":{"contract_set":"standard","short_game":true,"omit":null,"redo_tokens":false},'
        '"seats":["open","expert","open"]}'
    )
    assert ok.seats == ["open", "expert", "open"]
    for data in [
        '{"rules":{}}',
        '{"rules":{"contract_set":"standard","short_game":true,"redo_tokens":false},'
        '"seats":["expert","expert","expert"]}',
        '{"seed":"\\u0007"}',
    ]:
        with pytest.raises(ProtocolError):
            parse_new_table(data)
    with pytest.raises(ProtocolError, match="nobody can know the deal: a seed cannot be chosen"):
        parse_new_table(
            '{"rules":{"contract_set":"standard","short_game":true,"omit":null,"redo_tokens":false},'
            '"seed":"my-lucky-deal"}'
        )


def test_invite_codes_are_short_readable_and_hard_to_guess():
    codes = {new_code() for _ in range(2000)}
    assert len(codes) == 2000
    assert CODE_CHARS * math.log2(len(CODE_ALPHABET)) >= 40
    assert not set("01ILOUV") & set(CODE_ALPHABET)
    for code in list(codes)[:50]:
        assert len(code) == 11 and code[5] == "-" and set(code.replace("-", "")) <= set(CODE_ALPHABET)
        assert normal_code(code.lower().replace("-", " ")) == code
    assert normal_code("O0000-11111") is None
    assert normal_code("ABCDE-FGHJ") is None


def test_seat_secrets_are_long_compared_by_digest_and_never_kept():
    from stepping_stones.net.protocol import NewTable

    table = Table.new(NewTable(rules=RecordRules(contract_set="standard", short_game=True, redo_tokens=False)))
    seat, secret = table.claim("Ann")
    assert len(secret) >= 22 and len(secret.encode()) * 6 // 8 >= 16  # >= 128 bits of urlsafe base64
    assert table.seat_of(secret) == seat
    assert table.seat_of(secret[:-1] + ("A" if secret[-1] != "A" else "B")) is None
    kept = table.to_file().model_dump_json()
    assert secret not in kept
    second, other = table.claim("Ann")
    assert table.seats[second].name == "Ann 2" and other != secret
    table.claim("Bo")  # the last seat: the table starts
    assert table.started
    with pytest.raises(TableError) as caught:
        table.claim("Cy")
    assert caught.value.code == "table-full"


@pytest.mark.parametrize("name", ["Ann\u200d", "\u0410nn", "ANN", "\uff21nn", "\U0001d400nn", "Ann "])
def test_a_name_that_looks_like_a_seated_one_is_taken(name):
    """A joiner after it, a Cyrillic or full-width letter, another case: it reads "Ann"."""
    table = Table.new(NewTable(rules=RecordRules(contract_set="standard", short_game=True, redo_tokens=False)))
    table.claim("Ann")
    second, _secret = table.claim(name)
    seated = table.seats[second].name
    assert seated is not None and seated.endswith(" 2") and seated != "Ann"
    assert unicodedata.normalize("NFKC", seated) == seated  # taken in as NFKC: full-width "Ａ" is "A"


@pytest.mark.parametrize(
    "seated,name",
    [
        ("AB", "\u13aa\u13f4"),  # Cherokee A and B
        ("Ann", "\ua4eenn"),  # Lisu A
        ("Ann", "\u15c5nn"),  # Canadian syllabics A
        ("Anna", "Ann\u0251"),  # Latin alpha
        ("Kit", "K\u0131t"),  # dotless i
        ("Ann", "A\u03b7\u03b7"),  # Greek eta
        ("Ann", "A\u043f\u043f"),  # Cyrillic pe
        ("Ann", "\u1d00nn"),  # small capital A
        ("Bob", "B\u1d0fb"),  # small capital O
        ("Olli", "0lli"),  # a digit for a letter
    ],
)
def test_look_alikes_from_unicode_s_confusables_are_taken_for_the_ascii_name(seated, name):
    """The look-alikes an audit seated beside ASCII names (issue 42): each is in Unicode's
    confusables (UTS #39), and the name is numbered as the seated one's look-alike."""
    table = Table.new(NewTable(rules=RecordRules(contract_set="standard", short_game=True, redo_tokens=False)))
    table.claim(seated)
    second, _secret = table.claim(name)
    assert table.seats[second].name == f"{name} 2"


@pytest.mark.parametrize("seated,name", [("Ann", "Anna"), ("Bo", "Bob"), ("Zoë", "Zoe"), ("Jo", "J0e")])
def test_names_that_differ_stay_apart(seated, name):
    table = Table.new(NewTable(rules=RecordRules(contract_set="standard", short_game=True, redo_tokens=False)))
    table.claim(seated)
    second, _secret = table.claim(name)
    assert table.seats[second].name == name


@pytest.mark.parametrize(
    "name",
    [
        "\u3164",
        "\u2800",
        "\u200d",
        "\u115f\u1160",
        "\u3000",
        "\u2800\u200d",
        "\ufe0f",
        "A" + "\u0301" * 19,
        "x\u0489\u0489\u0489\u0489",
    ],
)
def test_an_invisible_or_blank_name_or_a_pile_of_marks_is_refused(name):
    table = Table.new(NewTable(rules=RecordRules(contract_set="standard", short_game=True, redo_tokens=False)))
    with pytest.raises(TableError) as caught:
        table.claim(name)
    assert caught.value.code == "bad-message"
    assert "blank or invisible" in str(caught.value) or "marks on one letter" in str(caught.value)
    assert all(s.kind == "open" for s in table.seats)  # nothing taken
    with pytest.raises(ProtocolError, match=r"blank or invisible|marks on one letter"):  # refused at the door too
        parse_client(json.dumps({"type": "hello", "version": 4, "code": "ABCDE-FGHJK", "name": name}))


def test_names_of_other_people_are_theirs():
    table = Table.new(NewTable(rules=RecordRules(contract_set="standard", short_game=True, redo_tokens=False)))
    for name in ("Zoë", "Zoe\u0308 ", "Ngọc"):  # the second is the first, decomposed
        table.claim(name)
    assert [s.name for s in table.seats] == ["Zoë", "Zoë 2", "Ngọc"]


def test_state_messages_are_plain_json_of_the_declared_fields():
    from stepping_stones.net.protocol import NewTable

    table = Table.new(
        NewTable(
            rules=RecordRules(contract_set="standard", short_game=True, redo_tokens=False),
            seats=["open", "random", "random"],
        )
    )
    table.claim("Ann")  # the only open seat: the table starts
    state = table.state_for(0)
    assert isinstance(parse_server(state.model_dump_json()), StateMessage)
    assert state.help and state.seats[1].kind == "computer" and state.seats[0].kind == "human"
    assert table.state_for(0).model_dump_json() == state.model_dump_json()


def _same_states(table: Table) -> None:
    states = table.states([0, 1, 2])
    assert [parse_server(state_text(state)) for state in states] == [StateMessage.model_construct(**s) for s in states]
    assert [state_text(s) for s in states] == [state_text(table.states([s])[0]) for s in range(3)]


def test_the_states_the_server_writes_without_checking_read_back_as_themselves():
    """``Table.states`` builds states of the server's own values without checking them again; at
    every step of whole games (an open table, a stand-in, the end with its record) the client's
    check reads each back as the very same state."""
    from stepping_stones.engine import Phase, parse_bid, parse_card
    from stepping_stones.net.protocol import NewTable

    for seed, seats in (("w1", ["open", "open", "open"]), ("w2", ["open", "random", "open"])):
        table = Table.new(
            NewTable(rules=RecordRules(contract_set="standard", short_game=True, redo_tokens=False), seats=seats),
            seed=seed,
            clock=lambda: 0.0,  # the clock stands still: the seconds left are the same in every state
        )  # type: ignore[arg-type]
        rng = Random(seed)

        _same_states(table)
        table.claim("Zoë")
        table.seats[0].connected = True
        _same_states(table)
        if seats[1] == "open":
            table.claim('Jo "J"')
            _same_states(table)
            table.claim("Ren 連")  # the last seat: the table starts
        else:
            table.start(0)  # the opener starts early: a computer takes the open seat
        _same_states(table)
        steps = 0
        while not table.over:
            game = table.game
            assert game is not None and game.to_act is not None
            if steps == 30 and table.seats[game.to_act].kind == "human":
                table.stand_in(game.to_act)
            request = table.computer_request()
            if request is not None:
                table.answer(request, request.answer())
            else:
                move = rng.choice(legal_actions(game.view(game.to_act)))
                table.act(game.to_act, table.seq, parse_bid(move) if game.phase is Phase.BIDDING else parse_card(move))
            _same_states(table)
            steps += 1
        assert state_text(table.states([0])[0]).count('"record":{') == 1


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**14), 10**14) | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(value=_JSON_VALUES, spaced=st.booleans(), ascii_only=st.booleans(), twice=st.booleans())
def test_a_client_s_compact_json_is_read_as_strict_json_reads_it(value, spaced, ascii_only, twice):
    """``parse_client`` reads compact JSON with msgspec (``_compact``), and only when writing the
    value again gives the very same text: whatever it reads is what ``strict_json`` reads, and what
    it does not (a key twice, spaces, escapes, NaN, long numbers, deep nesting) is left to
    ``strict_json`` and its refusals."""
    from stepping_stones.net.protocol import _NOT_COMPACT, _compact
    from stepping_stones.storage.safety import strict_json

    text = json.dumps(value, separators=(", ", ": ") if spaced else (",", ":"), ensure_ascii=ascii_only)
    if twice and text.startswith("{") and len(text) > 2:  # the first key again, at the end
        first = text[1:].split(",")[0]
        text = text[:-1] + "," + first + "}"
    read = _compact(text, 4)
    if read is _NOT_COMPACT:
        return
    assert read == strict_json(text, max_depth=4, max_digits=12)
    assert type(read) is type(strict_json(text, max_depth=4, max_digits=12))


def test_compact_json_with_a_key_twice_is_refused_as_before():
    with pytest.raises(ProtocolError, match="twice"):
        parse_client('{"type":"ping","nonce":1,"nonce":2}')
    assert parse_client('{"type":"ping","nonce":7}') == Ping(type="ping", nonce=7)
