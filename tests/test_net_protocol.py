"""The table protocol: the PlayerView codec's exact round trip, the checks at the boundary, invite
codes and seat secrets."""

from __future__ import annotations

import dataclasses
import json
import math
import unicodedata
from random import Random

import pytest

from stepping_stones.ai import make_ai
from stepping_stones.engine import PastHand, PlayerView, Rules
from stepping_stones.game.match import Match, Seeds, Step
from stepping_stones.net.codes import CODE_ALPHABET, CODE_CHARS, new_code, normal_code
from stepping_stones.net.protocol import (
    MAX_CLIENT_MESSAGE,
    PAST_WIRE,
    VIEW_WIRE,
    Act,
    Hello,
    NewTable,
    Ping,
    ProtocolError,
    Start,
    StateMessage,
    VersionMismatch,
    ViewJSON,
    Wire,
    parse_client,
    parse_new_table,
    parse_server,
)
from stepping_stones.net.table import Table, TableError
from stepping_stones.net.viewcodec import legal_actions, view_from_json, view_to_json
from stepping_stones.net.writers import ViewWriter
from stepping_stones.storage.records import RecordRules


@pytest.mark.parametrize("rules", [Rules("standard", short_game=True), Rules("advanced", redo_tokens=True)])
def test_every_view_of_a_game_goes_through_json_and_back_exactly(rules):
    match = Match.new(
        rules, [make_ai("random")] * 3, Seeds(f"codec-{rules.contract_set}"), players=("Zoë", 'Jo "J" \\', "Ren 連")
    )
    writer = ViewWriter()  # one per game, as a table has: each finished hand written once
    seen = 0
    while True:
        for seat in range(3):
            view = match.game.view(seat)
            text = view_to_json(view).model_dump_json()
            assert writer.text(view) == text  # the server's writer, byte for byte
            back = view_from_json(ViewJSON.model_validate_json(text, strict=True))
            assert back == view
            assert view_to_json(back).model_dump_json() == text
            seen += 1
        if match.step() is Step.OVER:
            break
    assert seen > 300


_MARK_OF_TYPE = {
    "Seat": Wire.SEAT,
    "Seat | None": Wire.SEAT,
    "tuple[Seat, ...]": Wire.SEATS,
    "Mask": Wire.CARD_SET,
    "tuple[Card, ...]": Wire.CARD_RUN,
    "tuple[Bid, ...]": Wire.BIDS,
    "Declaration | None": Wire.DECLARATION,
    "Phase": Wire.PHASE,
    "Rules": Wire.RULES,
    "tuple[str, str, str]": Wire.BY_SEAT,
    "tuple[bool, bool, bool]": Wire.BY_SEAT,
    "dict[str, tuple[int | None, int | None, int | None]]": Wire.SHEET,
    "tuple[PastHand, ...]": Wire.HISTORY,
}


@pytest.mark.parametrize(("engine", "wire"), [(PlayerView, VIEW_WIRE), (PastHand, PAST_WIRE)])
def test_the_wire_declares_each_field_of_the_view_once_marked_as_its_engine_type_says(engine, wire):
    """``ViewJSON`` (and ``PastHandJSON``) has the engine's fields, in their order, each marked with
    how it goes on the wire: the codec, the server's writer and the client's renumbering of the
    seats read the marks, so a seat-valued field left unmarked would be sent unturned."""
    fields = dataclasses.fields(engine)
    assert [name for name, _mark in wire] == [f.name for f in fields]
    marks = dict(wire)
    for f in fields:
        assert marks[f.name] is _MARK_OF_TYPE.get(str(f.type), Wire.PLAIN), f.name
    assert {name for name, mark in VIEW_WIRE if mark in (Wire.SEAT, Wire.SEATS)} == {
        "seat",
        "forehand",
        "bid_seats",
        "bidder",
        "declarer",
        "play_seats",
        "trick_winners",
        "winning",
        "to_act",
    }


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
    data = json.loads(view_to_json(match.game.view(0)).model_dump_json())
    data["own_cards"] = "K1 X9"
    with pytest.raises(ProtocolError, match="does not describe a game"):
        view_from_json(ViewJSON.model_validate(data, strict=True))


def test_client_messages_are_checked_at_the_boundary():
    assert isinstance(parse_client('{"type":"hello","version":3,"code":"ABCDE-FGHJK","name":"Ann"}'), Hello)
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
        '{"type":"hello","version":3,"code":"ABCDE-FGHJK","secret":"x","name":"Ann"}',
        '{"type":"hello","version":3,"code":"ABCDE-FGHJK","name":"\\u001b[2J"}',
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
    with pytest.raises(VersionMismatch, match="version 3 of the table protocol, the client version 4"):
        parse_client('{"type":"hello","version":4,"whatever":"a later version may send"}')
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
        assert str(caught.value) == f"a hello's version is the whole number 3, {named}"
    with pytest.raises(ProtocolError, match="version: is missing"):
        parse_client('{"type":"hello","code":"ABCDE-FGHJK","name":"Ann"}')
    hello = parse_client('{"type":"hello","version":3,"code":"ABCDE-FGHJK","name":"Ann"}')
    assert isinstance(hello, Hello) and hello.version == 3
    with pytest.raises(VersionMismatch, match="the client version 1"):  # versions 1 and 2 are no longer spoken
        parse_client('{"type":"hello","version":1,"code":"ABCDE-FGHJK","name":"Ann"}')


def test_an_action_that_is_no_bid_or_card_is_refused_as_illegal():
    with pytest.raises(ProtocolError) as caught:
        Act(type="action", seq=0, card="Z9").action()
    assert caught.value.code == "illegal"
    assert str(Act(type="action", seq=0, bid="may-trump 9 B").action()) == "may-trump 9 B"


def _read_as_the_models_do(data: str) -> tuple[int, object] | str:
    """What ``parse_client`` and ``Act.action`` make of ``data``: (seq, action), or the refusal."""
    try:
        message = parse_client(data)
        if not isinstance(message, Act):
            return "not an action"
        return message.seq, message.action()
    except ProtocolError as exc:
        return f"refused: {exc}"


def test_an_action_read_without_the_models_is_what_the_models_read_or_left_to_them():
    """The server reads an action as this package's client writes it without the models
    (``quick_action``): every bid and card there is, every state number's edge, and near misses of
    the form (escapes, spaces, fields twice or in another order, out of bounds) are each either
    read exactly as ``parse_client`` reads them, or left to it (None)."""
    from stepping_stones.engine import CARD_NAMES, CONTRACTS, Declaration
    from stepping_stones.net.protocol import MAX_SEQ, dump, quick_action

    moves = [("card", name) for name in CARD_NAMES] + [("bid", "pass")]
    for cid in CONTRACTS:
        for ranking in (9, 1):
            for trump in ("", " C", " B"):
                for redo in ("", " redo"):
                    moves.append(("bid", f"{cid} {ranking}{trump}{redo}"))
    read = 0
    for kind, text in moves:
        for seq in (0, 1, 41, MAX_SEQ):
            data = dump(Act(type="action", seq=seq, **{kind: text}))
            quick = quick_action(data)
            models = _read_as_the_models_do(data)
            assert quick == (models if isinstance(models, tuple) else None), data  # every real one, quickly
            if quick is not None:
                read += 1
                if isinstance(quick[1], Declaration):
                    assert str(quick[1]) == text
    assert read > (len(CARD_NAMES) + len(CONTRACTS)) * 4
    near = [
        '{"type":"action","seq":3,"bid":null,"card":"K9"}',
        '{"type":"action","seq":3,"bid":null,"card":null}',
        '{"type":"action","seq":3,"bid":"pass","card":"K9"}',
        '{"type":"action","seq":03,"bid":null,"card":"K9"}',
        f'{{"type":"action","seq":{MAX_SEQ + 1},"bid":null,"card":"K9"}}',
        '{"type":"action","seq":9999999,"bid":null,"card":"K9"}',
        '{"type":"action","seq":-1,"bid":null,"card":"K9"}',
        '{"type":"action","seq":3,"bid":null,"card":"Z9"}',
        '{"type":"action","seq":3,"bid":null,"card":"K\u0039"}',
        '{"type":"action","seq":3,"bid":"no such 9","card":null}',
        '{"type":"action","seq":3,"bid":"pass ","card":null}',
        '{"type":"action", "seq":3,"bid":null,"card":"K9"}',
        '{"type":"action","seq":3,"card":"K9","bid":null}',
        '{"type":"action","seq":3,"bid":null,"card":"K9","card":"K8"}',
        '{"type":"action","seq":3,"bid":null,"card":"K9"} ',
        '{"type":"action","seq":3.0,"bid":null,"card":"K9"}',
        '{"type":"action","seq":3,"bid":null,"card":"K9"}\n',
    ]
    for data in near:
        quick = quick_action(data)
        assert quick is None or quick == _read_as_the_models_do(data), data
    assert quick_action(near[0]) == (3, 17) and quick_action(near[0].encode()) is None


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
        parse_client(json.dumps({"type": "hello", "version": 3, "code": "ABCDE-FGHJK", "name": name}))


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
    assert table.states([0, 1, 2]) == [table.state_for(s).dump() for s in range(3)]
    assert table.states([2]) == [table.state_for(2).dump()]


def test_the_states_the_server_writes_are_the_models_json_byte_for_byte():
    """``Table.states`` writes states without the models; at every step of whole games (an open
    table, a stand-in, the end with its record) they are ``StateMessage``'s own JSON."""
    from stepping_stones.engine import Phase, parse_bid, parse_card
    from stepping_stones.net.protocol import NewTable

    for seed, seats in (("w1", ["open", "open", "open"]), ("w2", ["open", "random", "open"])):
        table = Table.new(
            NewTable(rules=RecordRules(contract_set="standard", short_game=True, redo_tokens=False), seats=seats),
            seed=seed,
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
        assert table.states([0])[0].count('"record":{') == 1
