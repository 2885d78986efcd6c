"""The table server's own web page (``host`` at ``/``, an invite link at ``/t/CODE``).

The page (``web/``: plain HTML, CSS and JavaScript, no build step) speaks the table protocol over
``/ws`` as the terminal clients do (docs/protocol.md): it holds the seat's view that the server
sends and nothing else.  What it says in words comes from here: ``POST /words`` takes a seat's
view (as the server sent it) and answers with the sentences of plain mode for it (``explain``,
``remote.hand_events``), why each trick was won, the hand summaries and the result, the sheet's
points, the legal bids in words, why each card of the hand may not be played now (the engine's
own refusal, from the view: ``remote.refusal_of``) and, on request, a hint or a finished hand's
analysis.  Those are a pure function of the view posted: the answer depends on nothing the
server holds, so it can reveal nothing the seat has not seen (a hint is what ``stepping-stones hint`` works out from the
same view on any machine).

``add_pages(app, door)`` adds the routes and the headers (``door.page_headers``: the page's
content security policy, ``default-src 'self'``, and no framing) to the server's app; the
server's own middleware keeps the Host and Origin checks in front of them.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, Final, Protocol

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..ai.claims import claim_prompt, tricks_left
from ..engine import CARD_NAMES, Goal, PastHand, Phase, PlayerView, Trick
from ..explain import Teller, result_lines, sheet_lines, summary_lines
from ..flow import HINT_OUT_OF_TURN
from .door import Door, page_headers
from .protocol import MAX_HANDS, ProtocolError, ViewJSON
from .remote import HINTS_OFF, UNDO_OFF, hand_events, refusal_of
from .viewcodec import view_from_json

__all__ = ["MAX_WORDS_REQUEST", "add_pages", "words_for"]

WEB: Final = Path(__file__).with_name("web")
FILES: Final = {
    "app.js": "text/javascript",
    "cards.js": "text/javascript",
    "app.css": "text/css",
    "icon.svg": "image/svg+xml",
}
"""The page's files besides ``index.html``, by name, with their types."""
MAX_WORDS_REQUEST: Final = 64 * 1024
"""The largest ``POST /words`` (a whole game's view is some 6 to 20 KiB)."""
WORDS_RATE = (30.0, 60)
"""``POST /words`` per client address: a second, after a burst (the page asks at most ten a second)."""
HEAVY_RATE: Final = (0.5, 6)
"""Hints and analyses per client address: a second, after a burst; one at a time per server."""
MAX_ADDRESSES: Final = 10_000
_CODE: Final = re.compile(r"[A-Za-z0-9-]{1,20}")


class WordsRequest(BaseModel):
    """``POST /words``: a seat's view, the first hand to tell, and whether a hint (the seat's turn)
    or a finished hand's analysis is wanted too."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    view: ViewJSON
    since: Annotated[int, Field(ge=0, le=MAX_HANDS)] = 0
    hint: bool = False
    analysis: Annotated[int, Field(ge=1, le=MAX_HANDS)] | None = None


def _trick(teller: Teller, trick: Trick, hand: PastHand) -> dict[str, Any]:
    declaration = hand.declaration
    reason = None
    if trick.finished and declaration is not None:
        reason = teller.trick_reason(trick, declaration.contract, declaration.ranking, declaration.trump)
    return {
        "number": trick.number,
        "cards": [[seat, CARD_NAMES[card]] for seat, card in trick.cards],
        "winner": trick.winner,
        "finished": trick.finished,
        "reason": reason,
        "text": teller.trick_won(trick, reason) if reason is not None else None,
    }


def _refusals(view: PlayerView, teller: Teller) -> dict[str, str]:
    """Why each card of the hand that is not legal now may not be played: the engine's refusal
    from what the seat has seen (``remote.refusal_of``)."""
    if view.phase is not Phase.PLAY or view.to_act != view.seat:
        return {}
    out = {}
    for card in range(len(CARD_NAMES)):
        if view.own_cards >> card & 1 and not view.legal_cards >> card & 1:
            refusal = refusal_of(view, card)
            if refusal is not None:
                out[CARD_NAMES[card]] = teller.refusal(refusal)
    return out


def words_for(view: PlayerView, since: int = 0) -> dict[str, Any]:
    """What the page says about a seat's ``view``, in plain mode's words, telling the finished
    hands from number ``since`` on.  Raises ``ProtocolError`` for a view whose sheet is not its
    rules' own."""
    teller = Teller(view.players, view.seat)
    live = view.phase in (Phase.BIDDING, Phase.PLAY)
    shown = view.shown_hand()
    events: list[dict[str, Any]] = []
    hands: list[tuple[PastHand, PlayerView | None]] = [(h, None) for h in view.history if h.number >= since]
    if live and shown is not None:
        hands.append((shown, view))
    for hand, seen in hands:
        for kind, text, seat, _won in hand_events(teller, hand, seen):
            events.append({"hand": hand.number, "kind": kind, "text": text, "seat": seat})
    try:
        summaries = {str(h.number): summary_lines(view, h.number, "to") for h in view.history if h.number >= since}
        points = {c.id: view.points(c.id) for c in view.rules.contracts}
        sheet = sheet_lines(view)
        result = ["The game is over.", *result_lines(view)] if view.phase is Phase.OVER else []
        totals, firsts, winners = view.totals(), view.firsts(), view.winners()
    except (KeyError, IndexError, ValueError) as exc:  # a sheet that is not the rules' own
        raise ProtocolError(f"the view does not describe a game: {exc}") from None
    return {
        "events": events,
        "tricks": [_trick(teller, t, shown) for t in shown.tricks()] if shown is not None else [],
        "shown": shown.number if shown is not None else None,
        "summaries": summaries,
        "result": result,
        "sheet": sheet,
        "points": points,
        "totals": totals,
        "firsts": firsts,
        "winners": winners,
        "contracts": [
            {"id": c.id, "name": c.name, "label": c.label or c.name, "goal": "win" if c.goal is Goal.WIN else "lose"}
            for c in view.rules.contracts
        ],
        "declaration": shown.declaration.describe() if shown is not None and shown.declaration else None,
        "bids": [
            {
                "bid": str(b),
                "text": b.describe()[:1].upper() + b.describe()[1:],
                "contract": None if b.is_pass else b.contract.id,
            }
            for b in view.legal_bids
        ],
        "refusals": _refusals(view, teller),
        "claim": _claim(view),
        "seat": view.seat,
        "notes": {"hints_off": HINTS_OFF, "undo_off": UNDO_OFF, "hint_out_of_turn": HINT_OUT_OF_TURN},
    }


def _claim(view: PlayerView) -> dict[str, Any] | None:
    """What a claim of the rest is about now (the seat's turn to play): how many of the tricks left
    count, and the prompt in words (``ai/claims.py``); None when the seat may not claim."""
    contract = view.contract
    if view.phase is not Phase.PLAY or view.to_act != view.seat or contract is None:
        return None
    done = len(view.trick_winners)
    side = "you" if view.declarer == view.seat else "you and your partner"
    return {
        "left": tricks_left(contract, done),
        "prompt": claim_prompt(contract, done),
        "text": f"Claim the rest: how many of the tricks left do {side} take?",
    }


def _hint(view: PlayerView) -> dict[str, str] | None:
    from ..ai.hints import hint_for  # the expert is loaded by the first hint

    if view.to_act != view.seat or view.phase not in (Phase.BIDDING, Phase.PLAY):
        return None
    try:
        hint = hint_for(view)
    except ValueError:
        return None
    action = hint.action
    token = CARD_NAMES[action] if isinstance(action, int) else str(action)
    return {"action": token, "text": hint.text}


def _analysis(view: PlayerView, number: int) -> list[str]:
    from ..ai.analysis import analyse_past, analysis_lines

    if number > len(view.history):
        return [f"Hand {number} is not finished yet."]
    found = analyse_past(view.history[number - 1])
    if found is None:
        return [f"Hand {number} was not played out."]
    return [f"Hand {number} against perfect play:", *analysis_lines(found, view.players, view.seat)]


class Bucket(Protocol):
    """A token bucket (the server's ``TokenBucket``): ``take()`` spends one, or says there is none."""

    def take(self) -> bool: ...


class _Pages:
    """The page's handlers, with what each client address may still ask."""

    def __init__(self, door: Callable[[], Door | None], allowance: Callable[[float, int], Bucket]) -> None:
        self.door = door
        self.allowance = allowance
        self.seen: dict[str, tuple[Bucket, Bucket]] = {}
        self.heavy = asyncio.Lock()

    def _of(self, address: str) -> tuple[Bucket, Bucket]:
        found = self.seen.get(address)
        if found is None:
            if len(self.seen) >= MAX_ADDRESSES:
                self.seen.clear()  # they start again from a full allowance
            found = self.seen[address] = (self.allowance(*WORDS_RATE), self.allowance(*HEAVY_RATE))
        return found

    async def page(self, request: web.Request) -> web.StreamResponse:
        code = request.match_info.get("code")
        if code is not None and not _CODE.fullmatch(code):
            return web.Response(status=404, text="An invite link is /t/ and the table's code.\n")
        return web.Response(
            body=(WEB / "index.html").read_bytes(),
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-cache"},
        )

    async def file(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        kind = FILES.get(name)
        if kind is None:
            return web.Response(status=404, text="No such file.\n")
        return web.Response(
            body=(WEB / name).read_bytes(),
            content_type=kind,
            charset="utf-8" if kind.startswith("text/") else None,
            headers={"Cache-Control": "no-cache"},
        )

    async def words(self, request: web.Request) -> web.StreamResponse:
        light, heavy = self._of(request.remote or "?")
        if not light.take():
            return _refused(429, "too many requests from your address: try again in a second")
        body = await request.content.read(MAX_WORDS_REQUEST + 1)
        if len(body) > MAX_WORDS_REQUEST:
            return _refused(413, f"a words request is at most {MAX_WORDS_REQUEST // 1024} KiB")
        try:
            asked = WordsRequest.model_validate_json(body, strict=True)
            view = view_from_json(asked.view)
            answer = await asyncio.to_thread(words_for, view, asked.since)
        except ValidationError as exc:
            return _refused(400, f"not a words request: {exc.errors()[0]['msg'] if exc.errors() else exc}")
        except ProtocolError as exc:
            return _refused(400, str(exc))
        if asked.hint or asked.analysis is not None:
            if not heavy.take():
                answer["heavy"] = "Too many hints or analyses at once: try again in a few seconds."
            else:
                async with self.heavy:  # one at a time: the server's tables come first
                    if asked.hint:
                        answer["hint"] = await asyncio.to_thread(_hint, view)
                    if asked.analysis is not None:
                        answer["analysis"] = await asyncio.to_thread(_analysis, view, asked.analysis)
        return web.json_response(answer)

    async def headers(self, request: web.Request, response: web.StreamResponse) -> None:
        door = self.door()
        host = request.headers.get("Host", "")
        base = door.base_url(host) if door is not None and door.host_allowed(host) else ""
        socket = base.replace("https://", "wss://", 1).replace("http://", "ws://", 1) + "/ws" if base else ""
        for key, value in page_headers(socket).items():
            response.headers.setdefault(key, value)


def _refused(status: int, message: str) -> web.Response:
    return web.json_response({"type": "error", "code": "bad-message", "message": message}, status=status)


def add_pages(app: web.Application, door: Callable[[], Door | None], allowance: Callable[[float, int], Bucket]) -> None:
    """The page's routes (``/``, ``/t/CODE``, ``/web/FILE``, ``POST /words``) and its headers on
    every answer of ``app``; ``allowance(rate, burst)`` makes the token bucket of each client
    address (the server's ``TokenBucket``)."""
    pages = _Pages(door, allowance)
    handlers: list[tuple[str, str, Callable[[web.Request], Awaitable[web.StreamResponse]]]] = [
        ("GET", "/", pages.page),
        ("GET", "/t/{code}", pages.page),
        ("GET", "/web/{name}", pages.file),
        ("POST", "/words", pages.words),
    ]
    for method, path, handler in handlers:
        app.router.add_route(method, path, handler)
    app.on_response_prepare.append(pages.headers)
