"""A table's journal: a snapshot, then one line per bid or card.  Replaying it gives the table
back exactly (stand-ins included); a torn last line (a write cut short by a crash) is dropped, and
a move that does not follow the table is refused."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from net_support import rules
from stepping_stones.engine import Phase, cards_of, parse_bid, parse_card, record_cards
from stepping_stones.engine.cards import CARD_NAMES
from stepping_stones.net.journal import FileTableStore, JournalMove, TableStore, move_line, read_table
from stepping_stones.net.protocol import NewTable
from stepping_stones.net.server import TableServer
from stepping_stones.net.table import Table
from stepping_stones.net.wire import legal_actions
from stepping_stones.storage.records import RecordError


def _keep(table: Table, store: TableStore) -> None:
    how, text = table.keep()
    if how == "save":
        store.save(table.id, text)
    elif text:
        store.append(table.id, text)


def _played(store: TableStore, actions: int, stand_in_at: int | None = None) -> Table:
    """A table of three people, ``actions`` random bids and cards into its game, kept after each;
    from ``stand_in_at`` on a computer plays for seat 0."""
    table = Table.new(NewTable(rules=rules()), seed="journal")
    _keep(table, store)
    for name in ("Ann", "Bo", "Cy"):
        table.claim(name)
        _keep(table, store)
    rng = Random(7)
    for n in range(actions):
        game = table.game
        assert game is not None and not game.over
        if n == stand_in_at:
            table.stand_in(0)
        seat = game.to_act
        assert seat is not None
        request = table.computer_request()
        if request is not None:
            assert table.answer(request, request.answer())
        else:
            move = rng.choice(legal_actions(game.view(seat)))
            table.act(seat, table.seq, parse_bid(move) if game.phase is Phase.BIDDING else parse_card(move))
        _keep(table, store)
    return table


def _resumed(store: TableStore, table: Table) -> Table:
    snapshot, moves = read_table(store.load(table.id))
    return Table.from_file(snapshot, moves=moves)


def test_a_move_costs_one_line_and_the_journal_gives_the_table_back(tmp_path):
    store = FileTableStore(tmp_path)
    table = _played(store, 60, stand_in_at=40)
    text = store.load(table.id)
    # the snapshot made with the stand-in (and move 41 with it), then a line per move after it
    assert len(text.splitlines()) == 1 + (60 - 41)
    assert all(len(line) < 80 for line in text.splitlines()[1:])
    again = _resumed(store, table)
    assert again.to_file() == table.to_file() and again.seq == table.seq
    assert again.substitutions and all(s.seat == 0 for s in again.substitutions)
    assert again.resave is False


def test_a_torn_last_line_is_dropped(tmp_path):
    store = FileTableStore(tmp_path)
    table = _played(store, 30)
    whole = _resumed(store, table)
    store.append(table.id, '{"seq":999,"seat":1,"ca')  # a write cut short: no newline
    again = _resumed(store, table)
    assert again.to_file() == whole.to_file()
    # without its last whole line, the table is one move back (and one deal, after a hand's last card)
    store.save(table.id, store.load(table.id).rsplit("\n", 2)[0] + "\n")
    assert _resumed(store, table).seq in (table.seq - 1, table.seq - 2)


@pytest.mark.parametrize(
    "line",
    [
        '{"seq":0,"seat":0,"card":"K1"}',  # not the table's state
        '{"seq":%d,"seat":%d,"card":"X9"}',  # no such card
        '{"seq":%d,"seat":%d,"bid":"pass","card":"K1"}',  # both
        '{"seq":%d,"seat":%d,"card":"K1","x":1}',  # no such field
        '{"seq":%d,"seat":%d,"card":"%s"}',  # a card its seat does not hold
        "not json",
    ],
)
def test_a_move_that_does_not_follow_the_table_is_refused(tmp_path, line):
    store = FileTableStore(tmp_path)
    table = _played(store, 30)
    game = table.game
    assert game is not None and game.to_act is not None and game.phase is Phase.PLAY
    elsewhere = next(c for c in cards_of(~game.hand.state.hands[game.to_act] & ((1 << 36) - 1)))
    if line.count("%") == 2:
        line = line % (table.seq, game.to_act)
    elif line.count("%") == 3:
        line = line % (table.seq, game.to_act, record_cards([elsewhere]))
    store.append(table.id, line + "\n")
    with pytest.raises(RecordError) as caught:
        _resumed(store, table)
    assert "\n" not in str(caught.value)


def test_the_server_resumes_a_journal_and_writes_a_torn_one_again_as_a_snapshot(tmp_path):
    store = FileTableStore(tmp_path / "tables")
    table = _played(store, 25)
    store.append(table.id, '{"seq":')
    path = Path(tmp_path / "tables" / f"{table.id}.jsonl")

    async def resume() -> Table:
        server = TableServer(tmp_path, io.StringIO(), io.StringIO(), port=0)
        await server.start()
        try:
            return server.tables.tables[table.id]
        finally:
            await server.stop()

    resumed = asyncio.run(resume())
    assert resumed.to_file() == table.to_file()
    text = path.read_text()
    assert text.endswith("\n") and len(text.splitlines()) == 1  # one snapshot, nothing torn before new lines


def test_journals_kept_open_for_appending_are_closed_past_the_most_and_before_a_snapshot(tmp_path):
    store = FileTableStore(tmp_path)
    store.MAX_OPEN = 2
    ids = [f"{n:016x}" for n in range(3)]
    for table_id in ids:
        store.save(table_id, "{}")
    for n in range(4):
        for table_id in ids:
            store.append(table_id, f"line {n}\n")
    assert len(store._open) == 2
    store.save(ids[2], "{}")  # replaced: its open file was the old one
    store.append(ids[2], "after\n")
    store.delete(ids[1])
    assert ids[1] not in store._open
    assert [store.load(i) for i in (ids[0], ids[2])] == [
        "{}\n" + "".join(f"line {n}\n" for n in range(4)),
        "{}\nafter\n",
    ]
    store.sync()


_TEXTS = st.one_of(
    st.none(),
    st.text(max_size=24),
    st.sampled_from(["pass", "2 1 S redo", 'a"b\\c', "\x00\x1f\x7f\n\t\b\f\r", "é\u2028😀"]),
)


@settings(max_examples=400, deadline=None)
@given(
    seq=st.one_of(st.integers(-2, 3), st.integers(10**6 - 2, 10**6 + 2), st.booleans()),
    seat=st.integers(-1, 3),
    bid=_TEXTS,
    card=st.one_of(_TEXTS, st.sampled_from(CARD_NAMES)),
    stand_in=st.booleans(),
)
def test_a_move_line_is_the_models_line_byte_for_byte_and_refused_as_it(seq, seat, bid, card, stand_in):
    """``move_line`` writes the journal line without the model: the same bytes for what the model
    takes, the model's own refusal for what it does not (out of bounds, too long, a bool for a number)."""
    try:
        expected = JournalMove(seq=seq, seat=seat, bid=bid, card=card, stand_in=stand_in).line()
    except ValidationError:
        with pytest.raises(ValidationError):
            move_line(seq, seat, bid, card, stand_in)
        return
    assert move_line(seq, seat, bid, card, stand_in) == expected


def test_the_lines_of_a_played_table_are_the_models_lines(tmp_path):
    """Every move line of real play (bids, cards, a computer standing in) reads back and is
    written again by the model byte for byte."""
    appended: list[str] = []

    class Recording(FileTableStore):
        def append(self, table_id: str, lines: str) -> None:
            appended.extend(lines.splitlines())
            super().append(table_id, lines)

    _played(Recording(tmp_path), 60, stand_in_at=20)
    assert len(appended) >= 50 and any('"bid"' in line for line in appended)
    assert any('"stand_in":true' in line for line in appended)
    for line in appended:
        assert JournalMove.model_validate_json(line, strict=True).line() == line
