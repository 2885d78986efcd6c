"""Hidden information at the table server: what a seat is sent never depends on where the cards it
has not seen lie.  Each position is stored twice, the second time with the other seats' unseen
cards dealt again in another way that agrees with everything played; a client at the seat then
gets every kind of message (welcome, state, each error, pong, version, the state after its own
action, the delta after it, a refused and a good resync, the whole state resent; a page's seat what
it is shown after each of its requests), and every byte must be the same at both tables: at a
server in this process (with either store), and through nginx at two processes on PostgreSQL
(``shards_support.proxied``)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from random import Random
from secrets import token_hex
from typing import Any

import pytest

from net_support import Raw, running
from pg_support import Stores
from stepping_stones.ai import make_ai
from stepping_stones.ai.knowledge import Knowledge
from stepping_stones.engine import FULL_DECK, Phase, Rules, cards_of, mask_of, record_cards
from stepping_stones.game.match import Match, Seeds, Step
from stepping_stones.net.codes import digest, new_code, new_secret
from stepping_stones.net.journal import TABLE_FORMAT, SeatFile, TableFile
from stepping_stones.storage.records import RecordRules, game_from_record, record_from_game

SECRETS = ("secret-of-seat-0-" + "a" * 30, "secret-of-seat-1-" + "b" * 30, "secret-of-seat-2-" + "c" * 30)
NAMES = ("Ann", "Bo", "Cy")
WATCH = "WQRST-XYZ23"
TABLE = "00000000000000aa"


def _position(seed: str, steps: int):
    match = Match.new(Rules("standard", short_game=True), [make_ai("random")] * 3, Seeds(seed), players=NAMES)
    for _ in range(steps):
        if match.step() is Step.OVER:
            break
    return match.game


def _redealt(game, seat: int, rng: Random):
    """The same record with the cards ``seat`` has not seen dealt again to the other two seats in
    another way that agrees with every card played (None when there is no other way)."""
    record = record_from_game(game)
    hand = game.hand
    view = game.view(seat)
    others = [s for s in range(3) if s != seat]
    played = [mask_of(c for s2, c in zip(view.play_seats, view.plays, strict=True) if s2 == s) for s in range(3)]
    for _ in range(50):
        if view.phase is Phase.PLAY:
            layout = Knowledge(view).sample_layout(rng)
        else:
            unseen = sorted(cards_of(FULL_DECK & ~view.dealt_cards))
            rng.shuffle(unseen)
            layout = {others[0]: mask_of(unseen[:12]), others[1]: mask_of(unseen[12:])}
        deal = list(hand.deal)
        for s in others:
            deal[s] = layout[s] | played[s]
        if deal == list(hand.deal):
            continue
        hands = list(record.hands)
        hands[-1] = hands[-1].model_copy(update={"deal": [record_cards(cards_of(m)) for m in deal]})
        other = record.model_copy(update={"hands": hands})
        replayed = game_from_record(other)  # every card played is still legal
        assert replayed.view(seat) == view
        return other
    return None


def _file(table_id: str, record, code: str = "ABCDE-FGHJK", watch: str = WATCH, secrets=SECRETS) -> str:
    return TableFile(
        format=TABLE_FORMAT,
        id=table_id,
        code=code,
        rules=RecordRules.of(Rules("standard", short_game=True)),
        level="random",
        seed="hidden",
        opener=0,
        seats=[
            SeatFile(kind="human", name=n, level=None, digest=digest(s)) for n, s in zip(NAMES, secrets, strict=True)
        ],
        record=record,
        watch=watch,
    ).model_dump_json()


async def _page_sent(raw: Raw, sent: list[str]) -> None:
    """A page's seat: what it is shown, after each of its requests (a refused card, a bid, the
    summary closed, an analysis), and after its first legal move.  (A claim is not among them: one
    that holds plays the hand out, which shows every card, as it should.)"""
    shown = json.loads(sent[-1])["shown"]
    probes = [
        {"type": "do", "what": "play", "card": "K9"},
        {"type": "do", "what": "play", "card": "B1"},
        {"type": "do", "what": "bid", "bid": "pass"},
        {"type": "do", "what": "seen"},
        {"type": "do", "what": "analysis", "count": 1},
        {"type": "do", "what": "back"},
        {"type": "ping", "nonce": 3},
    ]
    for probe in probes:
        await raw.send(probe)
        await raw.send({"type": "ping", "nonce": 7})  # whatever the probe sent, then this pong
        while (text := await raw.text()) and json.loads(text).get("type") != "pong":
            sent.append(text)
        sent.append(text)
    if shown is not None and shown["my_turn"]:
        move = shown["bids"][0]["bid"] if shown["bids"] else next(c["card"] for c in shown["hand"] if c["legal"])
        kind = "bid" if shown["bids"] else "play"
        await raw.send({"type": "do", "what": kind, ("bid" if kind == "bid" else "card"): move})
        sent.append(await raw.text())


async def _everything_sent(url: str, secret: str, page: bool) -> list[str]:
    sent: list[str] = []
    async with Raw.to(url) as raw:
        await raw.send({"type": "hello", "version": 4, "secret": secret, "page": page})
        sent += [await raw.text(), await raw.text()]  # welcome, state (or what a page is shown)
        if page:
            await _page_sent(raw, sent)
            return sent
        state = json.loads(sent[-1])
        seq = state["seq"]
        probes = [
            {"type": "action", "seq": seq, "card": "K9"},
            {"type": "action", "seq": seq, "card": "B1"},
            {"type": "action", "seq": seq, "card": "C5"},
            {"type": "action", "seq": seq, "bid": "pass"},
            {"type": "action", "seq": seq, "bid": "lose-no-trump 9"},
            {"type": "action", "seq": max(seq - 1, 0), "card": "L3"},
            {"type": "start"},
            {"type": "ping", "nonce": 3},
            "junk",
            {"type": "resync"},
            {"type": "resync", "n": 1},
        ]
        for probe in probes:
            await raw.send(probe)
            sent.append(await raw.text())
        if state["legal"]:  # its own action, and the state after it (a delta in version 2)
            move = state["legal"][0]
            kind = "bid" if state["view"]["phase"] == "bidding" else "card"
            await raw.send({"type": "action", "seq": seq, kind: move})
            sent.append(await raw.text())
            await raw.send({"type": "resync"})  # and the whole state again, and the next delta
            sent.append(await raw.text())
            await raw.send({"type": "action", "seq": seq, kind: move})  # stale now
            sent.append(await raw.text())
        await raw.send({"type": "hello", "version": 9})
        sent.append(await raw.text())
    return sent


def _unclocked(text: str | None, names: dict[str, str]) -> str | None:
    """``text`` with each of ``names`` written as it says, and every number of seconds the clock
    shows written "N": what a table behind the proxy sends, where the clock is the processes' own
    and runs, and each world is a table of its own, with its own id, codes and secrets."""

    def same(value: Any, key: str = "") -> Any:
        if isinstance(value, dict):
            return {k: same(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [same(v) for v in value]
        if key == "seconds" and isinstance(value, int | float):
            return "N"
        return re.sub(r"\b\d+ s left", "N s left", value) if isinstance(value, str) else value

    if text is None:
        return None
    for name, written in names.items():
        text = text.replace(name, written)
    return json.dumps(same(json.loads(text)))


Sent = Callable[[str, list[str], str], Awaitable[list[str]]]
"""What a test's clients are sent at a table, given its URL, its seats' secrets and its watch code."""


def _sent_in(where: str, request: pytest.FixtureRequest, folder: Path, record, sent: Sent) -> list:
    """What ``sent`` collects at a table of ``record``: on a server in this process that keeps it in
    its data folder (``file``) or in PostgreSQL (``postgresql``), its clock stopped; or through
    nginx, on the two processes of ``shards_support.proxied`` (``proxied``), the table put in their
    store and taken up by the process its path reaches."""
    if where == "proxied":
        from stepping_stones.net.pgstore import PostgresTableStore

        shards = request.getfixturevalue("proxied")
        table, code, watch, keys = token_hex(8), new_code(), new_code(), [new_secret() for _ in range(3)]
        store = PostgresTableStore(shards.dsn, lease_seconds=1)
        try:
            store.save(table, _file(table, record, code, watch, keys))
            store.release([table])  # no process holds it: the first hello for it takes it up
        finally:
            store.close()
        texts = asyncio.run(sent(f"{shards.public}/t/{table}", keys, watch))
        names = {table: TABLE, code: "ABCDE-FGHJK", watch: WATCH} | dict(zip(keys, SECRETS, strict=True))
        return [_unclocked(text, names) for text in texts]
    stores = Stores(where, request.getfixturevalue("postgres_server") if where == "postgresql" else None)
    try:
        store = stores(folder)  # the data folder's, or PostgreSQL's
        store.save(TABLE, _file(TABLE, record))

        async def collect() -> list[str]:
            async with running(folder, clock=lambda: 1000.0, store=store) as (_server, url):  # the clock's seconds too
                return await sent(url, list(SECRETS), WATCH)

        return asyncio.run(collect())
    finally:
        stores.close()


@pytest.mark.parametrize("page", [False, True])
# every position with the data folder's store, and three of them with PostgreSQL's (the store only
# gives the table back: what a seat is sent is made from it the same way), and two through nginx to
# two processes on PostgreSQL (what reaches a seat through the proxy, whichever process holds it)
@pytest.mark.parametrize(
    "seed,steps,where",
    [
        ("h1", 2, "file"),
        ("h2", 6, "file"),
        ("h3", 12, "file"),
        ("h4", 25, "file"),
        ("h5", 40, "file"),
        ("h6", 70, "file"),
        ("h1", 2, "postgresql"),
        ("h3", 12, "postgresql"),
        ("h6", 70, "postgresql"),
        ("h2", 6, "proxied"),
        ("h5", 40, "proxied"),
    ],
)
def test_every_byte_sent_to_a_seat_is_the_same_whoever_holds_the_cards_it_has_not_seen(
    tmp_path, seed, steps, page, where, request
):
    game = _position(seed, steps)
    rng = Random(seed)
    checked = 0
    for seat in range(3):
        other = _redealt(game, seat, rng)
        if other is None:
            continue
        worlds = [
            _sent_in(
                where,
                request,
                tmp_path / f"{seat}-{n}",
                record,
                lambda url, keys, _watch, seat=seat: _everything_sent(url, keys[seat], page),
            )
            for n, record in enumerate((record_from_game(game), other))
        ]
        assert worlds[0] == worlds[1]
        kinds = {json.loads(t)["type"] for t in worlds[0] if t}
        if page:
            assert {"welcome", "shown", "pong"} <= kinds
        else:
            assert {"welcome", "state", "error", "pong", "version"} <= kinds
            if json.loads(worlds[0][1])["legal"]:
                assert "delta" in kinds
        checked += 1
    assert checked >= 2


async def _watcher_sent(url: str, secret: str, watch: str, page: bool) -> list[str]:
    """Everything a watcher (a page, or not) and a lobby's follower are sent: the table when they
    come, their refused requests, and the table again after the move of ``seat`` (whose own cards
    are the same in both worlds), and after a seat's connection comes and goes."""
    sent: list[str] = []
    async with Raw.to(url) as watcher, Raw.to(url) as follower:
        await follower.send({"type": "lobby", "version": 4})
        sent.append(await follower.text())
        await watcher.send({"type": "watch", "version": 4, "code": watch, "page": page})
        sent.append(await watcher.text())
        for probe in (
            {"type": "action", "seq": 0, "card": "K9"},
            {"type": "resync"},
            {"type": "do", "what": "analysis", "count": 1},
            {"type": "ping", "nonce": 3},
        ):
            await watcher.send(probe)
            sent.append(await watcher.text())
        async with Raw.to(url) as player:
            await player.send({"type": "hello", "version": 4, "secret": secret})
            await player.text()
            state = json.loads(await player.text())
            sent.append(await watcher.text())  # the seat is connected now
            if state["legal"]:
                kind = "bid" if state["view"]["phase"] == "bidding" else "card"
                await player.send({"type": "action", "seq": state["seq"], kind: state["legal"][0]})
                sent.append(await watcher.text())
        sent.append(await watcher.text())  # the seat's connection is gone
    return sent


@pytest.mark.parametrize("page", [False, True])
# every position in this process, and two through nginx to two processes on PostgreSQL
@pytest.mark.parametrize(
    "seed,steps,where",
    [
        ("w1", 2, "file"),
        ("w2", 9, "file"),
        ("w3", 25, "file"),
        ("w4", 70, "file"),
        ("w2", 9, "proxied"),
        ("w3", 25, "proxied"),
    ],
)
def test_every_byte_sent_to_a_watcher_is_the_same_whoever_holds_the_cards_not_played(
    tmp_path, seed, steps, page, where, request
):
    """A watcher has seen no card of the hand in play but those played: any other deal of the rest
    that agrees with the play sends it the very same bytes (the lobby's follower too)."""
    game = _position(seed, steps)
    rng = Random(seed)
    checked = 0
    for seat in range(3):
        other = _redealt(game, seat, rng)
        if other is None:
            continue
        worlds = [
            _sent_in(
                where,
                request,
                tmp_path / f"w{seat}-{n}",
                record,
                lambda url, keys, watch, seat=seat: _watcher_sent(url, keys[seat], watch, page),
            )
            for n, record in enumerate((record_from_game(game), other))
        ]
        assert worlds[0] == worlds[1]
        kinds = [json.loads(t)["type"] for t in worlds[0] if t]
        assert {"lobby", "watched", "error", "pong"} <= set(kinds)
        assert kinds.count("watched") >= 3
        checked += 1
    assert checked >= 2
