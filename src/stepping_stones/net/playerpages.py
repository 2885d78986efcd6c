"""The players' requests of a table server (docs/protocol.md, "Players and ratings"):

- ``GET /players/ratings``: the rated players, the highest first (``RatingsJSON``);
- ``POST /players/me``: a key's player and the games they finished here (``MeJSON``);
- ``POST /players/record``: one of those games, its record as ``replay`` reads it;
- ``POST /players/review``: one of those games hand by hand and trick by trick, in their words,
  with the hand analysis (worked out off the event loop once, then kept: ``reviews.py``);
- ``POST /players/export``: a transfer code for the key's player, shown once (``TransferCode``);
- ``POST /players/import``: a new key of the code's player, for this device (``NewKey``).

A key travels in a request's body, never in its address (which logs and histories keep).  Every
request is held to the address's allowance (``guard.Addresses.read``; transfers to a slower one of
their own, and a wrong code counts as a wrong guess, as a wrong invite code does), its body to
4 KiB (the server's ``client_max_size``), and the door's Host and Origin checks stand in front.
"""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web
from pydantic import BaseModel

from ..engine import SteppingStonesError
from .codes import digest
from .guard import Addresses
from .players import MAX_LISTED, PlayerStore, TransferCodes, key_problem, new_key
from .protocol import (
    ErrorMessage,
    GameJSON,
    ImportRequest,
    KeyRequest,
    MeJSON,
    NewKey,
    ProtocolError,
    RatedJSON,
    RatingsJSON,
    RecordRequest,
    ReviewJSON,
    TransferCode,
    dump,
    parse_body,
)
from .reviews import Reviews

__all__ = ["PlayerPages"]


class _Refusal(SteppingStonesError):
    """A players' request refused: its HTTP status, the protocol's error code, one line."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def _error(status: int, code: str, message: str) -> web.Response:
    error = ErrorMessage.model_validate({"code": code, "message": message})
    return web.Response(status=status, text=dump(error), content_type="application/json")


class PlayerPages:
    """The handlers (see the module's docstring), over the server's players' store (none: the
    server keeps no players, and says so with 503)."""

    def __init__(
        self,
        store: Callable[[], PlayerStore | None],
        transfers: TransferCodes,
        addresses: Addresses,
        records: Callable[[str], str],
        log: Callable[[str], None],
        reviews: Reviews,
    ) -> None:
        self.store = store
        self.transfers = transfers
        self.addresses = addresses
        self.records = records  # a filed record's text by its name (the server's shelf: ``Shelf.record``)
        self.log = log
        self.reviews = reviews

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/players/ratings", self._guarded(self.ratings)),
            web.post("/players/me", self._guarded(self.me)),
            web.post("/players/record", self._guarded(self.record)),
            web.post("/players/review", self._guarded(self.review)),
            web.post("/players/export", self._guarded(self.export)),
            web.post("/players/import", self._guarded(self.import_key)),
        ]

    def _guarded(
        self, handler: Callable[[web.Request, PlayerStore, str], Awaitable[web.StreamResponse]]
    ) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def guarded(request: web.Request) -> web.StreamResponse:
            remote = request.remote or "?"
            refusal = self.addresses.read(remote)
            if refusal is not None:
                self.log(f"refused a players' request from {remote}: {refusal}")
                return _error(429, "too-fast", refusal)
            store = self.store()
            if store is None:
                return _error(503, "server", "this server keeps no players now")
            try:
                return await handler(request, store, remote)
            except web.HTTPRequestEntityTooLarge:
                return _error(413, "bad-message", "a request is at most 4 KiB")
            except ProtocolError as exc:
                return _error(400, exc.code, str(exc))
            except _Refusal as exc:
                return _error(exc.status, exc.code, str(exc))
            except (OSError, sqlite3.Error) as exc:  # the players' store failed (its file, its database)
                self.log(f"a players' request failed: the players cannot be read ({exc})")
                return _error(503, "server", "the players cannot be read now; try again later")

        return guarded

    @staticmethod
    def _json(model: BaseModel, status: int = 200) -> web.Response:
        return web.Response(
            status=status, text=dump(model), content_type="application/json", headers={"Cache-Control": "no-store"}
        )

    @staticmethod
    def _key(key: str) -> str:
        problem = key_problem(key)
        if problem is not None:
            raise _Refusal(400, "bad-message", problem)
        return digest(key)

    async def ratings(self, _request: web.Request, store: PlayerStore, _remote: str) -> web.StreamResponse:
        top = await asyncio.to_thread(store.top, MAX_LISTED)
        return self._json(
            RatingsJSON(
                players=[
                    RatedJSON(name=r.name, rating=r.rating, rated=r.rated, apart=r.apart, computer=r.computer)
                    for r in top
                ]
            )
        )

    async def me(self, request: web.Request, store: PlayerStore, _remote: str) -> web.StreamResponse:
        asked = parse_body(KeyRequest, await request.read())
        player = store.player_of(self._key(asked.key))
        if player is None:
            return self._json(MeJSON(name=None, rating=None, games=[]))
        played = await asyncio.to_thread(store.games, player, MAX_LISTED)
        games = [
            GameJSON(
                table=g.table,
                when=g.when,
                seat=g.seat,
                place=g.place,
                rated=g.rated,
                rating=g.rating,
                names=list(g.names),
            )
            for g in played
        ]
        return self._json(MeJSON(name=store.name(player), rating=store.rating(player), games=games))

    async def _record(self, request: web.Request, store: PlayerStore) -> tuple[str, str, int]:
        """The record of the game asked for, if the key's player finished it here: its file name,
        its text, and the player's seat in it.  Raises ``_Refusal``."""
        asked = parse_body(RecordRequest, await request.read())
        player = store.player_of(self._key(asked.key))
        found = store.record(player, asked.table) if player is not None else None
        if player is None or found is None or Path(found[0]).name != found[0]:
            raise _Refusal(404, "unknown-code", "no game of yours was played at that table here")
        try:
            text = await asyncio.to_thread(self.records, found[0])
        except (KeyError, OSError):
            raise _Refusal(404, "unknown-code", "that game's record is no longer kept here") from None
        return found[0], text, found[1]

    async def review(self, request: web.Request, store: PlayerStore, remote: str) -> web.StreamResponse:
        from ..explain import result_lines, sheet_lines
        from ..flow.presenter import review
        from ..storage.records import RecordError, game_from_record, parse_record

        name, text, seat = await self._record(request, store)
        try:
            game = await asyncio.to_thread(lambda: game_from_record(parse_record(text)))
        except RecordError:
            raise _Refusal(404, "unknown-code", "that game's record cannot be read here") from None
        view = game.view(seat)
        analyses, missing = await self.reviews.analyses(name, view, remote)
        hands = [dataclasses.asdict(h) for h in review(view, [h.deal for h in game.log], analyses, missing)]
        reviewed = ReviewJSON(
            names=list(view.players), seat=seat, hands=hands, result=result_lines(view), sheet=sheet_lines(view)
        )
        return self._json(reviewed)

    async def record(self, request: web.Request, store: PlayerStore, _remote: str) -> web.StreamResponse:
        found, text, _seat = await self._record(request, store)
        return web.Response(
            body=text.encode("utf-8"),
            content_type="application/json",
            headers={"Cache-Control": "no-store", "Content-Disposition": f'attachment; filename="{found}"'},
        )

    async def export(self, request: web.Request, store: PlayerStore, remote: str) -> web.StreamResponse:
        asked = parse_body(KeyRequest, await request.read())
        key = self._key(asked.key)
        refusal = self.addresses.transfer(remote)
        if refusal is not None:
            raise _Refusal(429, "too-fast", refusal)
        player = await asyncio.to_thread(store.player_of, key)
        if player is None:  # a key met first here: its player is made now, under the name given
            player = await asyncio.to_thread(store.join, key, asked.name or "Player")
        code = await asyncio.to_thread(self.transfers.new, player)
        return self._json(TransferCode(code=code, seconds=int(self.transfers.seconds)))

    async def import_key(self, request: web.Request, store: PlayerStore, remote: str) -> web.StreamResponse:
        asked = parse_body(ImportRequest, await request.read())
        refusal = self.addresses.transfer(remote)
        if refusal is not None:
            raise _Refusal(429, "too-fast", refusal)
        player = await asyncio.to_thread(self.transfers.use, asked.code)
        if player is None:
            self.addresses.wrong_guess(remote)
            self.log(f"refused a key transfer from {remote}: no such code")  # the code itself is never logged
            raise _Refusal(404, "unknown-code", "no live transfer code is that: make a new one on the other device")
        key = new_key()
        await asyncio.to_thread(store.add_key, player, digest(key))
        return self._json(NewKey(key=key))
