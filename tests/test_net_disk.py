"""Nothing is claimed saved that isn't: a table whose change cannot be written pauses (the seat that
acted is told, and the others), and goes on by itself once it can be written; no table is handed
out while nothing can be written; a computer whose decision failed decides again; a stop counts
what is saved."""

from __future__ import annotations

import asyncio
import errno
import io
import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from net_support import WAIT, new_table, next_state, running
from stepping_stones.game.match import Request
from stepping_stones.net.client import Refused, SeatClient, open_table
from stepping_stones.net.journal import FileTableStore, read_table
from stepping_stones.net.protocol import ErrorMessage
from stepping_stones.net.server import TableServer
from stepping_stones.net.table import Table
from stepping_stones.net.thinking import Thinkers


class FullDisk(FileTableStore):
    """A journal folder on a disk that fills up, and is freed again, when the test says."""

    full = False

    def _refuse(self) -> None:
        if self.full:
            raise OSError(errno.ENOSPC, "No space left on device")

    def save(self, table_id: str, text: str) -> None:
        self._refuse()
        super().save(table_id, text)

    def append(self, table_id: str, lines: str) -> None:
        self._refuse()
        super().append(table_id, lines)


async def _error(client: SeatClient) -> ErrorMessage:
    async with asyncio.timeout(WAIT):
        while True:
            message = await client.receive()
            if isinstance(message, ErrorMessage):
                return message


def _kept(store: FileTableStore, table_id: str) -> Table:
    snapshot, moves = read_table(store.load(table_id))
    return Table.from_file(snapshot, moves=moves)


def test_a_table_that_cannot_be_written_pauses_and_goes_on_by_itself_once_it_can(tmp_path):
    store = FullDisk(tmp_path / "tables")

    async def game() -> None:
        async with running(tmp_path, store=store) as (server, url):
            opened = await open_table(url, new_table(("open", "open", "random")))
            table = server.tables.tables[opened.table]
            async with (
                SeatClient(url, code=opened.code, name="Ann") as ann,
                SeatClient(url, code=opened.code, name="Bo") as bo,
            ):
                await ann.join()
                await bo.join()
                state = await next_state(ann, lambda s: s.waiting is not None and s.waiting.seat in (0, 1))
                mover, other = (ann, bo) if state.waiting and state.waiting.seat == 0 else (bo, ann)
                turn = state if mover is ann else await next_state(bo, lambda s: s.seq == state.seq)
                # Ann has had that state already (it is ``state``); Bo is still to read it
                seen = state.seq if other is ann else (await next_state(other, lambda s: s.seq == turn.seq)).seq

                store.full = True
                await mover.act(turn.legal[0], turn.seq)
                refused = await _error(mover)
                assert refused.code == "server"
                assert "could not save your move (No space left on device)" in refused.message
                told = await _error(other)
                assert told.code == "server" and "paused" in told.message and "goes on by itself" in told.message
                assert table.paused and table.seq == turn.seq + 1  # the move is held, not lost...
                assert _kept(store, table.id).seq == turn.seq  # ...and not claimed saved
                await mover.act(turn.legal[-1], turn.seq + 1)  # nothing goes on while paused
                assert "paused" in (await _error(mover)).message
                await server.tables.sweep()  # still full: still paused, nobody hears a thing
                assert table.paused

                store.full = False
                await server.tables.sweep()  # written: the table goes on
                assert not table.paused
                after = await next_state(other, lambda s: s.seq > seen)
                assert after.seq >= turn.seq + 1 and _kept(store, table.id).seq >= turn.seq + 1
                with pytest.raises(Refused, match="cannot save a table now"):
                    store.full = True
                    await open_table(url, new_table())  # 503 while nothing can be written
                assert len(server.tables.tables) == 1

    asyncio.run(game())


def test_a_folder_that_cannot_be_written_hands_out_no_table(tmp_path):
    # read-only for anyone but root, who writes anywhere: a file where the folder should be
    (tmp_path / "tables").write_text("not a folder")

    async def game() -> None:
        async with running(tmp_path) as (server, url):
            with pytest.raises(Refused, match="cannot save a table now"):
                await open_table(url, new_table())
            assert server.tables.tables == {}

    asyncio.run(game())


def test_a_computer_whose_decision_fails_decides_again_and_never_at_random(tmp_path, monkeypatch):
    answer = Request.answer
    decision = Thinkers.decision
    failures: list[Request] = []

    async def out_of_descriptors(self: Thinkers, request: Request, *args: Any) -> object:
        if not failures:
            failures.append(request)
            raise OSError(errno.EMFILE, "Too many open files")
        return await decision(self, request, *args)

    monkeypatch.setattr(Thinkers, "decision", out_of_descriptors)
    err = io.StringIO()

    async def game() -> None:
        server = TableServer(tmp_path, io.StringIO(), err, port=0)
        url = await server.start()
        try:
            opened = await open_table(url, new_table(("heuristic", "open", "heuristic")))
            async with SeatClient(url, code=opened.code, name="Ann") as ann:
                await ann.join()
                table = server.tables.tables[opened.table]
                state = await next_state(ann)
                if state.legal:  # Ann bids first: then a computer is asked
                    await ann.act(state.legal[0], state.seq)
                    state = await next_state(ann, lambda s: s.seq > state.seq)
                await asyncio.gather(*list(server.tables._tasks))  # the computer's decision, which fails
                (first,) = failures
                game = table.game
                assert game is not None and game.hand is not None
                before, made = table.seq, len(game.hand.bids)
                assert game.to_act == first.seat and not table.thinking  # not answered, at random or at all
                await server.tables.sweep()  # asks again
                await next_state(ann, lambda s: s.seq > before)
                assert game.hand.bids[made] == answer(first)  # the computer's own choice, the same request again
        finally:
            await server.stop()

    asyncio.run(game())
    assert "a computer failed to decide (OSError); it tries again" in err.getvalue()
    assert "random" not in err.getvalue()


def test_a_stop_writes_what_is_pending_and_counts_only_what_is_saved(tmp_path):
    store = FullDisk(tmp_path / "tables")

    async def game(heal: bool) -> tuple[int, int]:
        server = TableServer(tmp_path, io.StringIO(), io.StringIO(), port=0, store=store)
        url = await server.start()
        try:
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with SeatClient(url, code=opened.code, name="Ann") as ann:
                await ann.join()
                turn = await next_state(ann, lambda s: bool(s.legal))
                store.full = True
                await ann.act(turn.legal[0], turn.seq)
                assert (await _error(ann)).code == "server"
            store.full = not heal
        finally:
            await server.stop()
        return server.saved, _kept(store, opened.table).seq - turn.seq

    assert asyncio.run(game(heal=False)) == (0, 0)  # the stop message says it: not saved
    for path in Path(tmp_path / "tables").glob("*.jsonl"):
        path.unlink()
    store.full = False
    saved, ahead = asyncio.run(game(heal=True))
    assert saved == 1 and ahead >= 1  # the move held while paused, written by the stop


def test_a_seat_back_at_a_paused_table_gets_the_state_as_last_written_and_the_pause_once(tmp_path):
    """Back at a table that cannot be written (a full disk): the welcome, the state as the table
    was last written (not the move it holds), and one word that it is paused; the tries to write it
    again, every second, say nothing more to anyone."""
    store = FullDisk(tmp_path / "tables")

    async def game() -> None:
        async with running(tmp_path, store=store) as (server, url):
            opened = await open_table(url, new_table(("open", "open", "random")))
            table = server.tables.tables[opened.table]
            ann = SeatClient(url, code=opened.code, name="Ann")
            async with SeatClient(url, code=opened.code, name="Bo") as bo:
                await ann.join()
                await bo.join()
                state = await next_state(ann, lambda s: s.waiting is not None and s.waiting.seat in (0, 1))
                mover = ann if state.waiting and state.waiting.seat == ann.seat else bo
                turn = state if mover is ann else await next_state(bo, lambda s: s.seq == state.seq)
                store.full = True
                await mover.act(turn.legal[0], turn.seq)
                assert (await _error(mover)).code == "server"
                assert table.paused and table.seq == turn.seq + 1
                secret = ann.secret
                await ann.close()
                async with asyncio.timeout(WAIT):
                    while (table.id, ann.seat) in server.tables.holders:
                        await asyncio.sleep(0.01)  # polls the server's hearing of the close
                async with aiohttp.ClientSession() as session:
                    ws = await session.ws_connect(url.replace("http", "ws", 1) + "/ws")
                    await ws.send_str(json.dumps({"type": "hello", "version": 4, "secret": secret}))
                    replies = [json.loads((await ws.receive()).data) for _ in range(3)]
                    assert [r["type"] for r in replies] == ["welcome", "state", "error"], replies
                    assert replies[1]["seq"] == turn.seq  # as last written: the held move is not told
                    assert "paused" in replies[2]["message"]
                    for _ in range(3):
                        await server.tables.sweep()  # still full: nobody hears a thing
                    await ws.send_str(json.dumps({"type": "ping", "nonce": 5}))
                    assert json.loads((await ws.receive()).data) == {"type": "pong", "nonce": 5}
                    store.full = False
                    await server.tables.sweep()  # written: the table goes on, and says so
                    after = json.loads((await ws.receive()).data)
                    assert after["type"] == "delta" and after["state"]["seq"] > turn.seq, after
                    await ws.close()

    asyncio.run(game())
