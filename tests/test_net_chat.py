"""Chat at a table (docs/protocol.md, "Chat"): lines said reach every seat that has not muted the
speaker, cleaned of every control, format and bidirectional character; the opener may turn chat
off; each connection and each address is held to a rate; and nothing said is ever written to a
journal, a game record or the server's log."""

from __future__ import annotations

import asyncio
import dataclasses
from random import Random

import pytest

from net_support import WAIT, Raw, new_table, running
from stepping_stones.net.chat import ChatRefused, said_text
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.net.limits import Limits
from stepping_stones.net.protocol import ChatStatus, ErrorMessage, Pong, ProtocolError, Said, parse_client
from stepping_stones.net.server import TableServer
from stepping_stones.storage.safety import CHAT_LENGTH, chat_text

HOSTILE = "gg \x1b]0;owned\x07 \x1b[2J\x9b31m \u202eevil\u202c <script>alert(1)</script>\u200b\u2066x"


async def _next(client: SeatClient, *kinds: type) -> object:
    """The client's next message of one of ``kinds`` (states and the rest passed over)."""
    async with asyncio.timeout(WAIT):
        while True:
            message = await client.receive()
            if isinstance(message, kinds):
                return message


async def _nothing_more_of(client: SeatClient, kind: type) -> None:
    """Nothing of ``kind`` comes before the answer to a ping sent now (the server answers in order)."""
    await client.send({"type": "ping", "nonce": 7})
    message = await _next(client, kind, Pong)
    assert isinstance(message, Pong), message


def test_chat_text_takes_out_controls_format_and_bidirectional_characters():
    clean = chat_text(HOSTILE)
    assert clean == "gg ]0;owned [2J31m evil <script>alert(1)</script>x"
    assert all(ch.isprintable() for ch in clean)
    assert chat_text("e\u0301\u0301\u0301\u0301\u0301") == "\u00e9\u0301\u0301\u0301"  # marks piled: three kept
    assert chat_text("👩\u200d💻") == "👩\u200d💻"  # the joiner of an emoji stays
    with pytest.raises(ChatRefused, match="empty"):
        said_text("\x1b\u202e\u200b  ")


def test_a_chat_message_is_checked_at_the_boundary():
    assert parse_client('{"type":"chat","text":"Thanks"}').type == "chat"
    with pytest.raises(ProtocolError, match="at most 200"):
        parse_client('{"type":"chat","text":"' + "x" * (CHAT_LENGTH + 1) + '"}')
    with pytest.raises(ProtocolError):
        parse_client('{"type":"chat","text":""}')
    with pytest.raises(ProtocolError):
        parse_client('{"type":"mute","seat":3,"on":true}')
    with pytest.raises(ProtocolError):
        parse_client('{"type":"chat-switch","on":"off"}')


def test_a_line_reaches_every_seat_cleaned_and_muting_stops_it(tmp_path):
    async def scenario() -> None:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table(("open", "open", "random")))
            async with (
                SeatClient(url, code=opened.code, name="Ann") as ann,
                SeatClient(url, code=opened.code, name="Bo") as bo,
            ):
                await ann.join()
                await bo.join()
                await ann.say(HOSTILE)
                heard = [await _next(c, Said) for c in (ann, bo)]
                assert heard[0] == heard[1] == Said(seat=0, name="Ann", text=chat_text(HOSTILE))
                await bo.mute(0, True)
                assert await _next(bo, ChatStatus) == ChatStatus(on=True, muted=[0])
                await ann.say("Well played")
                assert await _next(ann, Said) == Said(seat=0, name="Ann", text="Well played")
                await _nothing_more_of(bo, Said)  # Bo muted Ann: not told
                await bo.mute(0, False)
                assert await _next(bo, ChatStatus) == ChatStatus(on=True, muted=[])
                await ann.say("Thanks")
                assert (await _next(bo, Said)) == Said(seat=0, name="Ann", text="Thanks")
                await bo.mute(1, True)  # oneself
                refusal = await _next(bo, ErrorMessage)
                assert isinstance(refusal, ErrorMessage) and refusal.code == "chat-refused"

    asyncio.run(scenario())


def test_the_opener_turns_chat_off_and_nobody_else_may(tmp_path):
    async def scenario() -> None:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table(("open", "open", "random")))
            async with (
                SeatClient(url, code=opened.code, name="Ann") as ann,
                SeatClient(url, code=opened.code, name="Bo") as bo,
            ):
                await ann.join()
                await bo.join()
                await bo.chat_switch(False)
                refusal = await _next(bo, ErrorMessage)
                assert isinstance(refusal, ErrorMessage) and refusal.code == "chat-refused"
                assert "opener" in refusal.message
                await ann.chat_switch(False)
                for client in (ann, bo):
                    assert await _next(client, ChatStatus) == ChatStatus(on=False, muted=[])
                await bo.say("hello?")
                refusal = await _next(bo, ErrorMessage)
                assert isinstance(refusal, ErrorMessage) and refusal.message == "Chat is off at this table."
                async with SeatClient(url, secret=bo.secret) as again:  # a newcomer is told at once
                    await again.join()
                    assert await _next(again, ChatStatus) == ChatStatus(on=False, muted=[])

    asyncio.run(scenario())


def test_each_connection_and_each_address_is_held_to_a_rate(tmp_path):
    limits = dataclasses.replace(Limits(), chat_rate=1e-6, chat_burst=2, chat_address_rate=1e-6, chat_address_burst=3)

    async def scenario() -> None:
        async with running(tmp_path / "server", limits=limits) as (_server, url):
            opened = await open_table(url, new_table(("open", "open", "random")))
            async with (
                SeatClient(url, code=opened.code, name="Ann") as ann,
                SeatClient(url, code=opened.code, name="Bo") as bo,
            ):
                await ann.join()
                await bo.join()
                for _ in range(2):
                    await ann.say("hi")
                    assert isinstance(await _next(ann, Said), Said)
                await ann.say("hi")
                refusal = await _next(ann, ErrorMessage)
                assert isinstance(refusal, ErrorMessage) and refusal.code == "chat-refused"
                assert "lines a minute" in refusal.message
                await bo.say("hi")  # the address's third line (Ann's refused one was spent too)
                refusal = await _next(bo, ErrorMessage)
                assert isinstance(refusal, ErrorMessage) and "your address" in refusal.message

    asyncio.run(scenario())


def test_a_raw_client_without_a_seat_cannot_chat(tmp_path):
    async def scenario() -> None:
        async with running(tmp_path / "server") as (_server, url), Raw.to(url) as raw:
            await raw.send({"type": "chat", "text": "anyone?"})
            reply = await raw.reply()
            assert isinstance(reply, ErrorMessage) and reply.code == "no-seat"
            await raw.send({"type": "chat", "text": "x" * 5000})
            reply = await raw.reply()
            assert isinstance(reply, ErrorMessage) and reply.code == "bad-message"

    asyncio.run(scenario())


def test_nothing_said_is_written_to_a_journal_a_record_or_the_log(tmp_path):
    marker = "Zanzibar-secret-line"

    async def scenario() -> tuple[str, TableServer]:
        async with running(tmp_path / "server") as (server, url):
            opened = await open_table(url, new_table(("open", "open", "random")))
            bots = [SeatClient(url, code=opened.code, name=n) for n in ("Ann", "Bo")]
            for bot in bots:
                await bot.join()
            await bots[0].say(marker)
            assert isinstance(await _next(bots[1], Said), Said)
            async with asyncio.timeout(WAIT):
                await asyncio.gather(*(play_randomly(b, Random(i)) for i, b in enumerate(bots)))
            for bot in bots:
                await bot.close()
        return server.log.err.getvalue(), server  # stopped: every change, the filing too, is done

    log, server = asyncio.run(scenario())
    assert not server.tables.chat.allowances  # forgotten with the connections
    assert ("opened table" in log and "filed" in log) or "table " in log  # the log was written, without the line
    files = [p for p in (tmp_path / "server").rglob("*") if p.is_file()]
    assert any(p.suffix == ".json" for p in files)  # the game was filed
    for path in files:
        assert marker.encode() not in path.read_bytes(), path
    assert marker not in log


def test_plain_mode_says_each_line_and_lets_the_person_chat_and_mute(tmp_path):
    """``join --plain`` through pipes: ``say`` lists the quick phrases, ``say 2`` says one, a line
    with terminal escapes comes out as ``Bot says: ...`` without a control character, and ``mute``
    is said back from the server's answer."""
    import os
    import sys

    async def person(url: str, code: str) -> list[str]:
        env = {**os.environ, "STEPPING_STONES_HOME": str(tmp_path / "home"), "PYTHONIOENCODING": "utf-8"}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "stepping_stones", "join", code, "--server", url, "--name", "Ann", "--plain",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env,
        )  # fmt: skip
        assert proc.stdin is not None and proc.stdout is not None
        lines: list[str] = []
        answers = {
            "You play as Ann": "say\nsay 2\nsay " + "y" * 201 + "\n",
            "Bot says: ": "mute bot\n",
            "You no longer hear Bot.": "quit\n",
        }
        while raw := await proc.stdout.readline():
            line = raw.decode("utf-8")
            lines.append(line)
            for start, answer in list(answers.items()):
                if line.startswith(start):
                    del answers[start]
                    proc.stdin.write(answer.encode())
                    await proc.stdin.drain()
        await proc.wait()
        return lines

    async def scenario() -> list[str]:
        async with running(tmp_path / "server", logo=(b"", "Koi Club")) as (_server, url):  # host --club
            opened = await open_table(url, new_table(("open", "open", "random")))
            async with SeatClient(url, code=opened.code, name="Bot") as bot:
                await bot.join()
                async with asyncio.timeout(WAIT):
                    plain = asyncio.ensure_future(person(url, opened.code))
                    heard = await _next(bot, Said)
                    assert heard == Said(seat=1, name="Ann", text="Well played")
                    await bot.say(HOSTILE)
                    return await plain

    lines = asyncio.run(scenario())
    text = "".join(lines)
    assert "Quick phrases: 1 Hello!, 2 Well played, 3 Thanks" in text
    assert "You say: Well played\n" in lines
    assert "That is 201 characters: a line said is at most 200. Nothing was said.\n" in lines
    assert f"Bot says: {chat_text(HOSTILE)}\n" in lines
    assert not any(ch in text for ch in "\x1b\x07\x9b\u202e\u202c\u2066\u200b")
    assert "You no longer hear Bot.\n" in lines
    assert "At the table of Koi Club.\n" in lines  # the club's name line, where the page shows its logo


def test_a_mute_is_kept_with_the_seat_through_a_restart(tmp_path):
    """Bo mutes Ann; the server stops and starts again on the same folder; Bo takes his seat back
    and is told at once that he does not hear Ann, and her lines do not reach him.  The mute is
    kept in the table's journal with Bo's seat (no line said is)."""

    async def scenario() -> None:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table(("open", "open", "open")))
            ann = SeatClient(url, code=opened.code, name="Ann")
            bo = SeatClient(url, code=opened.code, name="Bo")
            await ann.join()
            await bo.join()
            await bo.mute(0, True)
            assert await _next(bo, ChatStatus) == ChatStatus(on=True, muted=[0])
            await ann.close()
            await bo.close()
        async with (
            running(tmp_path / "server") as (_server, url),
            SeatClient(url, secret=bo.secret) as bo_again,
            SeatClient(url, secret=ann.secret) as ann_again,
        ):
            await bo_again.join()
            assert await _next(bo_again, ChatStatus) == ChatStatus(on=True, muted=[0])
            await ann_again.join()
            await ann_again.say("Can you hear me?")
            assert await _next(ann_again, Said) == Said(seat=0, name="Ann", text="Can you hear me?")
            await _nothing_more_of(bo_again, Said)
            await bo_again.mute(0, False)
            assert await _next(bo_again, ChatStatus) == ChatStatus(on=True, muted=[])

    asyncio.run(scenario())


def test_the_opener_s_switch_is_kept_with_the_table_through_a_restart(tmp_path):
    async def scenario() -> None:
        async with running(tmp_path / "server") as (_server, url):
            opened = await open_table(url, new_table(("open", "open", "open")))
            ann = SeatClient(url, code=opened.code, name="Ann")
            await ann.join()
            await ann.chat_switch(False)
            assert await _next(ann, ChatStatus) == ChatStatus(on=False, muted=[])
            await ann.close()
        async with running(tmp_path / "server") as (_server, url), SeatClient(url, secret=ann.secret) as again:
            await again.join()
            assert await _next(again, ChatStatus) == ChatStatus(on=False, muted=[])
            await again.say("hello?")
            refusal = await _next(again, ErrorMessage)
            assert isinstance(refusal, ErrorMessage) and refusal.message == "Chat is off at this table."

    asyncio.run(scenario())
