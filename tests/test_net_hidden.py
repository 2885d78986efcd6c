"""Hidden information at the table server: what a seat is sent never depends on where the cards it
has not seen lie.  Each position is stored twice, the second time with the other seats' unseen
cards dealt again in another way that agrees with everything played; a client at the seat then
gets every kind of message (welcome, state, each error, pong, version, the state after its own
action, the delta after it, a refused and a good resync, the whole state resent; a page's seat what
it is shown after each of its requests), and every byte must be the same at both tables."""

from __future__ import annotations

import asyncio
import json
from random import Random

import pytest

from net_support import Raw, running
from stepping_stones.ai import make_ai
from stepping_stones.ai.knowledge import Knowledge
from stepping_stones.engine import FULL_DECK, Phase, Rules, cards_of, mask_of, record_cards
from stepping_stones.game.match import Match, Seeds, Step
from stepping_stones.net.codes import digest
from stepping_stones.net.journal import TABLE_FORMAT, FileTableStore, SeatFile, TableFile
from stepping_stones.storage.records import RecordRules, game_from_record, record_from_game

SECRETS = ("secret-of-seat-0-" + "a" * 30, "secret-of-seat-1-" + "b" * 30, "secret-of-seat-2-" + "c" * 30)
NAMES = ("Ann", "Bo", "Cy")
WATCH = "WQRST-XYZ23"


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


def _file(table_id: str, record) -> str:
    return TableFile(
        format=TABLE_FORMAT,
        id=table_id,
        code="ABCDE-FGHJK",
        rules=RecordRules.of(Rules("standard", short_game=True)),
        level="random",
        seed="hidden",
        opener=0,
        seats=[
            SeatFile(kind="human", name=n, level=None, digest=digest(s)) for n, s in zip(NAMES, SECRETS, strict=True)
        ],
        record=record,
        watch=WATCH,
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


async def _everything_sent(url: str, seat: int, page: bool) -> list[str]:
    sent: list[str] = []
    async with Raw.to(url) as raw:
        await raw.send({"type": "hello", "version": 4, "secret": SECRETS[seat], "page": page})
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


@pytest.mark.parametrize("page", [False, True])
# every position with the data folder's store, and three of them with PostgreSQL's (the store only
# gives the table back: what a seat is sent is made from it the same way)
@pytest.mark.parametrize(
    "seed,steps,stores",
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
    ],
    indirect=["stores"],
)
def test_every_byte_sent_to_a_seat_is_the_same_whoever_holds_the_cards_it_has_not_seen(
    tmp_path, seed, steps, page, stores
):
    game = _position(seed, steps)
    rng = Random(seed)
    checked = 0
    for seat in range(3):
        other = _redealt(game, seat, rng)
        if other is None:
            continue
        worlds = []
        for n, record in enumerate((record_from_game(game), other)):
            folder = tmp_path / f"{seat}-{n}"
            store = stores(folder)  # the data folder's, or PostgreSQL's
            store.save("00000000000000aa", _file("00000000000000aa", record))

            async def collect(folder=folder, seat=seat, store=store) -> list[str]:
                # the clock's seconds too
                async with running(folder, clock=lambda: 1000.0, store=store) as (_server, url):
                    return await _everything_sent(url, seat, page)

            worlds.append(asyncio.run(collect()))
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


async def _watcher_sent(url: str, seat: int, page: bool) -> list[str]:
    """Everything a watcher (a page, or not) and a lobby's follower are sent: the table when they
    come, their refused requests, and the table again after the move of ``seat`` (whose own cards
    are the same in both worlds), and after a seat's connection comes and goes."""
    sent: list[str] = []
    async with Raw.to(url) as watcher, Raw.to(url) as follower:
        await follower.send({"type": "lobby", "version": 4})
        sent.append(await follower.text())
        await watcher.send({"type": "watch", "version": 4, "code": WATCH, "page": page})
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
            await player.send({"type": "hello", "version": 4, "secret": SECRETS[seat]})
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
@pytest.mark.parametrize("seed,steps", [("w1", 2), ("w2", 9), ("w3", 25), ("w4", 70)])
def test_every_byte_sent_to_a_watcher_is_the_same_whoever_holds_the_cards_not_played(tmp_path, seed, steps, page):
    """A watcher has seen no card of the hand in play but those played: any other deal of the rest
    that agrees with the play sends it the very same bytes (the lobby's follower too)."""
    game = _position(seed, steps)
    rng = Random(seed)
    checked = 0
    for seat in range(3):
        other = _redealt(game, seat, rng)
        if other is None:
            continue
        worlds = []
        for n, record in enumerate((record_from_game(game), other)):
            folder = tmp_path / f"w{seat}-{n}"
            FileTableStore(folder / "tables").save("00000000000000aa", _file("00000000000000aa", record))

            async def collect(folder=folder, seat=seat) -> list[str]:
                async with running(folder, clock=lambda: 1000.0) as (_server, url):
                    return await _watcher_sent(url, seat, page)

            worlds.append(asyncio.run(collect()))
        assert worlds[0] == worlds[1]
        kinds = [json.loads(t)["type"] for t in worlds[0] if t]
        assert {"lobby", "watched", "error", "pong"} <= set(kinds)
        assert kinds.count("watched") >= 3
        checked += 1
    assert checked >= 2
