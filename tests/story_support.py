"""One table and three front ends side by side, for the scenario tests of ``test_one_table``:
plain mode through its pipes (``fronts_support.Plain``), the app under Pilot and the web page in
Chromium (Playwright's asyncio API), all on the test's one event loop with the table server.

Each front end is read as a person reads it: plain mode's lines, the rows the app drew, the page's
text.  Each is driven as a person drives it: typed lines, keys, taps.  Waits are on what each
shows (a line printed, a redraw after a message of the seat, a DOM change); the timeouts are
safety nets only."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fronts_support import Plain, within
from net_support import WAIT
from tui_support import screen_rows

MS = WAIT * 1000
CARD = re.compile(r"[CKLB][1-9]")
STATUS = re.compile(r"Your turn|Waiting for |A computer plays for you")
"""How each status sentence of the presenter begins (``flow.presenter.clock_line``)."""


def turn_pattern(waited: str | None, reading: bool = False) -> re.Pattern[str]:
    """The status sentence of the presenter (``flow.presenter.clock_line``) for a table that waits
    for ``waited`` as a front end names them (None: the front end's own person), seconds left."""
    if waited is None:
        head = r"Your turn: close the summary to start your clock \(" if reading else r"Your turn: "
        return re.compile(head + r"(\d+) s left")
    middle = ", who is reading the summary" if reading else ""
    return re.compile(rf"Waiting for {re.escape(waited)}{middle}: (\d+) s left")


class PlainFront:
    """``join CODE --plain``: each ``legal:`` line is answered by the test (``act``)."""

    kind = "plain mode"

    def __init__(self, plain: Plain) -> None:
        self.plain = plain
        self.reading = asyncio.ensure_future(plain.run())
        self.mark = 0  # the lines before the scenario's last step: what is shown now comes after
        self.start = 0  # the lines before it sat at the table it is at

    @property
    def lines(self) -> list[str]:
        return self.plain.lines

    async def line(self, holds: Callable[[str], bool]) -> str:
        """The first line since ``mark`` for which ``holds`` is true, waited for if need be."""
        for line in self.lines[self.mark :]:
            if holds(line):
                return line
        return str(await within(self.plain.expect(holds)))

    async def shows(self, pattern: re.Pattern[str]) -> str:
        """Plain mode says where the table is when that changes: its last such line, or the next."""
        last = next((line for line in reversed(self.lines) if STATUS.match(line)), "")
        if found := pattern.search(last):
            return found.group(0)
        line = str(await within(self.plain.expect(lambda text: pattern.search(text) is not None)))
        found = pattern.search(line)
        assert found is not None
        return found.group(0)

    async def told(self, sentence: str) -> None:
        await self.line(lambda text: sentence in text)

    async def act(self) -> str:
        """Answer the prompt: pass when it may, else its first card, else its first action."""
        # the prompt after the turn's status line; its actions are those of the last list in full
        # (or after the connection came back: the prompt before it may never be answered)
        turn = max(i for i, line in enumerate(self.lines) if line.startswith(("Your turn", "Back at the table")))
        self.mark = max(self.mark, turn)
        await self.line(lambda text: text.startswith("legal: "))
        legal = next(
            line
            for line in reversed(self.lines)
            if line.startswith("legal: ") and not line.startswith("legal: as before")
        )
        actions = legal[len("legal: ") :].split(", ")
        choice = "pass" if "pass" in actions else next((a for a in actions if CARD.fullmatch(a)), actions[0])
        self.mark = len(self.lines)
        await self.plain.type(choice)
        return choice

    async def take_back(self) -> None:
        self.mark = len(self.lines)
        await self.plain.type("back")

    async def claim(self, word: str) -> None:
        """Claim the rest (``all`` or ``none``) at the prompt of a turn to play."""
        await self.line(lambda text: text.startswith("legal: "))
        self.mark = len(self.lines)
        await self.plain.type(f"claim {word}")

    def now(self) -> str:
        return "\n".join(self.lines[-12:])

    async def told_lines(self) -> list[str]:
        return self.lines[self.start :]

    async def finished(self) -> None:
        """The end of the game: what it says ends with the offer to play again."""
        await self.line(lambda text: text == "legal: again, quit")

    async def again(self) -> None:
        self.mark = len(self.lines)
        await self.plain.type("again")

    async def seated(self, code: str) -> None:
        """At the table ``code``: what it says from there on is that table's."""
        await self.line(lambda text: f"of table {code}" in text)
        self.start = self.mark = len(self.lines)

    async def quit(self) -> tuple[int, str]:
        self.plain.end_input()
        return await within(asyncio.ensure_future(self.reading))  # type: ignore[return-value]


@dataclass
class AppFront:
    """The app under Pilot at a table: read from the rows it drew after each of its seat's changes."""

    app: Any
    pilot: Any
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    kind: str = "the app"
    mark: int = 0

    def hear(self) -> None:
        from stepping_stones.tui.online import RemoteTableScreen

        screen = self.app.screen
        assert isinstance(screen, RemoteTableScreen), screen
        screen.seat.listeners.append(self.changed.set)
        self.table = screen

    def rows(self) -> str:
        return "\n".join(screen_rows(self.app))

    async def until(self, holds: Callable[[str], Any]) -> Any:
        """What ``holds`` makes of the drawn rows once it is something, redrawn after each change."""
        try:
            async with asyncio.timeout(WAIT):
                while True:
                    self.changed.clear()
                    await self.pilot.pause()
                    if found := holds(self.rows()):
                        return found
                    try:  # the seat's next message; the countdown's redraw, once a second, wakes it too
                        await asyncio.wait_for(self.changed.wait(), 1.0)
                    except TimeoutError:
                        pass
        except TimeoutError:
            where = type(self.app.screen).__name__
            raise AssertionError(f"the app never got there; on {where}:\n{self.rows()}") from None

    async def shows(self, pattern: re.Pattern[str]) -> str:
        found = await self.until(pattern.search)
        return str(found.group(0))

    async def told(self, sentence: str) -> None:
        """Told in the table's log, or on the screen shown (the final one, a question)."""
        await self.until(lambda rows: sentence in rows or any(sentence in e.text for e in self.table.state.log))

    async def act(self) -> str:
        from stepping_stones.tui.dialogs import HandSummaryScreen

        if isinstance(self.app.screen, HandSummaryScreen):
            await self.pilot.press("enter")
            return "summary"
        state = self.table.state
        assert state.my_turn, self.rows()
        if state.bidding:
            keys = ["enter"] if state.view.in_puddle else ["p"]
        else:
            keys = ["enter"]  # the cursor starts on a legal card
        await self.pilot.press(*keys)
        await self.pilot.pause()
        if "needs a trump suit" in self.rows():  # the puddle's contract picks a trump: Cherry Blossoms
            keys += ["c", "enter"]
            await self.pilot.press("c", "enter")
        return " ".join(keys)

    async def take_back(self) -> None:
        await self.pilot.press("b")

    async def claim(self, word: str) -> None:
        """c, the claim's dialog, the word and Enter."""
        from stepping_stones.tui.claim import ClaimScreen

        await self.pilot.press("c")
        await self.until(lambda _rows: isinstance(self.app.screen, ClaimScreen))
        await self.pilot.press(*word, "enter")

    def now(self) -> str:
        return self.rows()

    async def told_lines(self) -> list[str]:
        return [event.text for event in self.table.state.log]

    async def finished(self) -> None:
        """The last hand's summary closed, the final screen."""
        from stepping_stones.tui.dialogs import HandSummaryScreen
        from stepping_stones.tui.online import RemoteGameOverScreen

        def ending(_rows: str) -> Any:
            screen = self.app.screen
            return isinstance(screen, HandSummaryScreen | RemoteGameOverScreen) and screen

        while isinstance(await self.until(ending), HandSummaryScreen):
            await self.pilot.press("enter")

    async def again(self) -> None:
        """Answer the invitation (y), or ask for the new table (n)."""
        from stepping_stones.tui.dialogs import ConfirmScreen

        await self.pilot.press("y" if isinstance(self.app.screen, ConfirmScreen) else "n")

    async def seated(self, code: str) -> None:
        """At the table ``code``, its screen heard."""
        from stepping_stones.tui.online import RemoteTableScreen

        def there(_rows: str) -> bool:
            screen = self.app.screen
            return isinstance(screen, RemoteTableScreen) and screen.seat.welcome.code == code

        await self.until(there)
        self.hear()


BIDS_GONE = """(before) => {
    const box = document.getElementById("bidding");
    return box.hidden || box.dataset.key !== before;
}"""
STATUS_IS = """(pattern) => {
    const text = document.getElementById("status").innerText;
    return new RegExp(pattern).test(text) && text;
}"""


@dataclass
class PageFront:
    """The web page in Chromium (Playwright's asyncio API)."""

    page: Any
    errors: list[str] = field(default_factory=list)
    kind: str = "the page"
    mark: int = 0
    shown: list[dict[str, Any]] = field(default_factory=list)  # what its websockets were sent to show, in order
    came: asyncio.Event = field(default_factory=asyncio.Event)  # set at each of them

    @classmethod
    async def sit(cls, browser: Any, url: str, code: str, name: str) -> PageFront:
        """A phone's page (390x844) at the table ``code`` under ``name``, its script errors kept."""
        front = cls(await (await browser.new_context(viewport={"width": 390, "height": 844})).new_page())
        front.page.on("pageerror", lambda exc: front.errors.append(str(exc)))
        front.page.on("websocket", lambda ws: ws.on("framereceived", front._frame))
        await front.page.goto(f"{url}/t/{code}?name={name}")
        return front

    def _frame(self, payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "shown" and message.get("shown") is not None:
            self.shown.append(message["shown"])
            self.came.set()

    async def shown_since(self, n: int) -> dict[str, Any]:
        """The last presentation it was sent, once it was sent more than ``n``."""
        async with asyncio.timeout(WAIT):
            while len(self.shown) <= n:
                self.came.clear()
                await self.came.wait()
        return self.shown[-1]

    async def shows(self, pattern: re.Pattern[str]) -> str:
        handle = await self.page.wait_for_function(STATUS_IS, arg=pattern.pattern, timeout=MS)
        found = pattern.search(str(await handle.json_value()))  # the status line as it matched
        assert found is not None
        return found.group(0)

    async def told(self, sentence: str) -> None:
        """Told in its log, its banner or its live region (what a screen reader says)."""
        await self.page.wait_for_function(
            "(s) => document.body.textContent.includes(s)",
            arg=sentence,
            timeout=MS,
        )

    async def act(self) -> str:
        page = self.page
        if await page.locator("#summary:not([hidden])").count():
            await page.click("#summary-close")
            return "summary"
        bids = page.locator("#bidding:not([hidden]) button.bid")
        if await bids.count():
            pass_ = page.locator("#bidding button.bid.pass")
            await (pass_ if await pass_.count() else bids).first.click()
            return "bid"
        await page.locator("#hand button.card.legal").first.click()
        return "card"

    async def take_back(self) -> None:
        await self.page.click("#take-back")

    async def claim(self, word: str) -> None:
        """The claim's box: all (its first choice) or none, then its button."""
        page = self.page
        await page.wait_for_selector("#claim-box:not([hidden])", timeout=MS)
        left = await page.locator("#claim-count option").first.get_attribute("value")
        await page.select_option("#claim-count", left if word == "all" else "0")
        await page.click("#claim")

    def now(self) -> str:
        return "(the page: see its status line)"

    async def told_lines(self) -> list[str]:
        return list(await self.page.locator("#log-list li").all_text_contents())

    async def finished(self) -> None:
        """The last hand's summary closed, the result."""
        if await self.page.locator("#summary:not([hidden])").count():
            await self.page.click("#summary-close")
        await self.page.wait_for_selector("#result:not([hidden])", timeout=MS)

    async def again(self) -> None:
        """The new table's link once another asked for it, else "Play again"."""
        link = self.page.locator("#again-link:not([hidden])")
        await (link if await link.count() else self.page.locator("#again")).click()

    async def seated(self, code: str) -> None:
        """At the table ``code``."""
        await self.page.wait_for_url(re.compile(rf"/t/{code}\b"), timeout=MS)


async def all_show(fronts: tuple[Any, ...], patterns: list[re.Pattern[str]]) -> list[str]:
    """What each front end shows that matches its pattern, waited for; on a timeout, what each
    showed instead."""
    shown = []
    for front, pattern in zip(fronts, patterns, strict=True):
        try:
            shown.append(await front.shows(pattern))
        except TimeoutError:
            raise AssertionError(
                f"{front.kind} never showed {pattern.pattern!r}; the three showed:\n"
                + "\n---\n".join(f.now() for f in fronts)
            ) from None
    return shown


class Watcher:
    """The table as a watcher is sent it (``/w/CODE``'s messages, ``protocol.Watched``): whose
    turn, their seconds and the table's seq, as the server says, for a server in a process of its
    own.  ``connect`` again after the server is back."""

    def __init__(self, url: str, watch: str) -> None:
        self.url = url
        self.watch = watch
        self.last: Any = None
        self.changed = asyncio.Event()
        self.reading: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        import aiohttp

        from stepping_stones.net.protocol import Watched, parse_server

        session = aiohttp.ClientSession()
        ws = await session.ws_connect(self.url.replace("http", "ws", 1) + "/ws")
        await ws.send_json({"type": "watch", "version": 4, "code": self.watch})

        async def read() -> None:
            try:
                async for message in ws:
                    if message.type != aiohttp.WSMsgType.TEXT:
                        break
                    reply = parse_server(message.data)
                    if isinstance(reply, Watched):
                        self.last = reply
                        self.changed.set()
            finally:
                await session.close()

        self.reading = asyncio.ensure_future(read())

    async def until(self, holds: Callable[[Any], bool]) -> Any:
        async with asyncio.timeout(WAIT):
            while self.last is None or not holds(self.last):
                self.changed.clear()
                await self.changed.wait()
        return self.last

    async def close(self) -> None:
        if self.reading is not None:
            self.reading.cancel()


def waited_name(seat: int, front_seat: int, names: list[str]) -> str | None:
    """How the front end of ``front_seat`` names ``seat`` when the table waits for it (None: its own)."""
    return None if seat == front_seat else names[seat]


async def watched_turn(watcher: Watcher, fronts: tuple[Any, ...], slack: float = WAIT) -> int:
    """The seat the server waits for, as a watcher is told, once each front end says so with the
    server's seconds (within ``slack``: the server's clock is real, and a line printed before the
    watcher's message may say more)."""
    watched = await watcher.until(lambda w: w.waiting is not None and w.waiting.seconds is not None)
    seat, seconds = watched.waiting.seat, watched.waiting.seconds
    names = [f.name for f in watched.seats]
    patterns = [turn_pattern(waited_name(seat, own, names)) for own in range(3)]
    for front, pattern, text in zip(fronts, patterns, await all_show(fronts, patterns), strict=True):
        found = pattern.fullmatch(text)
        assert found is not None
        assert abs(int(found.group(1)) - seconds) <= slack, (front.kind, text, seconds)
    return int(seat)


async def watched_move(watcher: Watcher, fronts: tuple[Any, ...]) -> None:
    """The front end of the seat waited for acts, once each says whose turn it is; then the server
    has taken it (the watcher is told the next state)."""
    seat = await watched_turn(watcher, fronts)
    before = watcher.last.seq
    await fronts[seat].act()
    await watcher.until(lambda w: w.seq != before)
