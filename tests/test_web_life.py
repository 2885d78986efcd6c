"""The page's chat and the table's life, in headless Chromium (``net/web/life.js``).

The tab's title and icon on the person's turn; the sound (off until its switch, then a generated
beep); a notification only while the tab is hidden, and permission asked only from a tap; a card
moving to the trick and the trick to its winner, and nothing moving for ``prefers-reduced-motion``;
chat lines from a terminal client with HTML and script in them drawn as text, the quick phrases,
the field, mute and the opener's switch.  The browser and the page's notifications and visibility
are real but for two stand-ins set before the page loads: ``Notification`` (recording what it is
asked and shows) and ``document.hidden`` (a headless tab is never hidden by itself)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import re
import threading

from fronts_support import Host
from net_support import WAIT, new_table
from stepping_stones.flow import presenter
from stepping_stones.net.client import SeatClient, open_table
from stepping_stones.net.protocol import ChatStatus, Said
from test_web import MS, MY_TURN, _browser, _shot, _solo, _step

WATCH = """
window.__asked = 0; window.__notices = []; window.__hidden = false; window.__titles = []; window.__moved = 0;
class StandIn {
  constructor(title) { window.__notices.push(title); }
  static requestPermission() { window.__asked += 1; StandIn.permission = "granted"; return Promise.resolve("granted"); }
}
StandIn.permission = "default";
window.Notification = StandIn;
Object.defineProperty(Document.prototype, "hidden", { get() { return window.__hidden; } });
new MutationObserver((records) => {
  for (const r of records) {
    const t = r.target;
    const moved = t instanceof Element && r.attributeName === "class";
    if (moved && (t.classList.contains("arrive") || t.classList.contains("taken"))) window.__moved += 1;
    const title = t.nodeName === "TITLE" || (t.parentNode && t.parentNode.nodeName === "TITLE");
    if (title) window.__titles.push(document.title);
  }
}).observe(document, {
  subtree: true, attributes: true, attributeFilter: ["class"], childList: true, characterData: true,
});
"""


def _context(p, **kw):
    from test_serve import CHROMIUM

    browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    context = browser.new_context(viewport={"width": 390, "height": 844}, **kw)
    context.add_init_script(WATCH)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return browser, page, errors


def _turn_again(page) -> None:
    """Do the person's step, then wait until the page asks them again (a new turn)."""
    before = page.evaluate("window.__titles.length")
    _step(page)
    page.wait_for_function(
        "([n, t]) => window.__titles.length > n && document.title === t", arg=[before, presenter.TURN_TITLE], timeout=MS
    )


def test_the_turn_changes_title_and_icon_beeps_when_asked_and_notifies_a_hidden_tab(tmp_path):
    sync_playwright = _browser()
    host = Host(tmp_path / "server")
    url = host.start()
    try:
        with sync_playwright() as p:
            browser, page, errors = _context(p)
            try:
                _solo(page, url)
                page.wait_for_selector(MY_TURN, timeout=MS)
                page.wait_for_function("(t) => document.title === t", arg=presenter.TURN_TITLE, timeout=MS)
                assert page.evaluate("document.querySelector('link[rel=icon]').href").endswith("/web/icon-turn.svg")
                _turn_again(page)
                _turn_again(page)
                titles = page.evaluate("window.__titles")
                assert "Stepping Stones" in titles[titles.index(presenter.TURN_TITLE) :]  # and back between turns
                assert page.evaluate("document.documentElement.dataset.beeps") is None  # sound off by default
                assert page.evaluate("window.__asked") == 0  # never asked without a tap
                page.click("#sound")
                assert page.evaluate("document.documentElement.dataset.beeps") == "1"  # a sample beep
                page.click("#notify")
                page.wait_for_function("() => window.__asked === 1", timeout=MS)
                assert page.get_attribute("#notify", "aria-pressed") == "true"
                _turn_again(page)  # seen: no notification
                assert page.evaluate("window.__notices") == []
                assert int(page.evaluate("document.documentElement.dataset.beeps")) == 2
                page.evaluate("window.__hidden = true")
                _turn_again(page)
                assert page.evaluate("window.__notices") == [presenter.TURN_NOTICE]
                assert page.evaluate("window.__asked") == 1
                assert page.evaluate("window.__moved") > 0  # cards moved to the trick (next test: not so)
                assert not errors, errors
            finally:
                browser.close()
    finally:
        host.stop()


def test_reduced_motion_moves_nothing(tmp_path):
    sync_playwright = _browser()
    host = Host(tmp_path / "server")
    url = host.start()
    try:
        with sync_playwright() as p:
            browser, page, errors = _context(p, reduced_motion="reduce")
            try:
                _solo(page, url)
                for _ in range(12):
                    _step(page)
                assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
                assert page.locator("#trick .played").count() or page.locator("#bidding:not([hidden])").count()
                assert page.evaluate("window.__moved") == 0
                assert page.evaluate("document.getAnimations().length") == 0
                assert not errors, errors
            finally:
                browser.close()
    finally:
        host.stop()


class _Talker:
    """A terminal client that says what it is told and keeps what it hears (it plays no card), on
    an event loop of its own thread while the test's thread drives the browser."""

    def __init__(self, url: str, code: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.heard: queue.Queue[Said | ChatStatus] = queue.Queue()
        self.client = SeatClient(url, code=code, name="Cal")
        self._run(self.client.join())
        self.reader = asyncio.run_coroutine_threadsafe(self._read(), self.loop)

    def _run(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=WAIT)

    async def _read(self) -> None:
        while True:
            message = await self.client.receive()
            if isinstance(message, Said | ChatStatus):
                self.heard.put(message)

    def say(self, text: str) -> None:
        self._run(self.client.say(text))

    def next(self, kind: type) -> Said | ChatStatus:
        """The next message of ``kind`` heard (its own lines, said back to it, passed over)."""
        while True:
            message = self.heard.get(timeout=WAIT)
            if isinstance(message, kind) and not (isinstance(message, Said) and message.name == "Cal"):
                return message

    def stop(self) -> None:
        self.reader.cancel()
        with contextlib.suppress(Exception):
            self._run(self.client.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=WAIT)


HOSTILE = ('<img src=x onerror="window.__xss=1">', "<script>window.__xss=2</script>", "\u202eevil\x1b[2J")


def test_chat_on_the_page_is_text_and_has_phrases_a_field_mute_and_the_opener_s_switch(tmp_path):
    sync_playwright = _browser()
    host = Host(tmp_path / "server")
    url = host.start()
    talker: _Talker | None = None
    try:
        opened = asyncio.run(open_table(url, new_table(("open", "open", "open"), level="random")))
        with sync_playwright() as p:
            browser, page, errors = _context(p)
            try:
                page.goto(f"{url}/t/{opened.code}?name=Bea")  # Bea sits first: the opener
                page.wait_for_selector("#lobby:not([hidden])", timeout=MS)
                talker = _Talker(url, opened.code)
                talker.say(HOSTILE[0])  # before the start: the lobby has the chat too
                page.wait_for_selector("#lobby:not([hidden]) ~ aside #chat:not([hidden]) li", timeout=MS)
                assert page.locator("#lobby").is_visible()
                page.click("#start")  # a computer takes the seat still open
                page.wait_for_selector("#table:not([hidden])", timeout=MS)
                for line in HOSTILE[1:]:  # five lines in all: the connection's burst
                    talker.say(line)
                page.wait_for_function("() => document.querySelectorAll('#chat-lines li').length === 3", timeout=MS)
                lines = page.locator("#chat-lines li").all_inner_texts()
                assert lines[:2] == [f"Cal says: {HOSTILE[0]}", f"Cal says: {HOSTILE[1]}"]
                assert lines[2] == "Cal says: evil[2J"
                assert page.locator("#chat img, #chat script, #panel-log img").count() == 0
                assert page.evaluate("window.__xss") is None
                page.click("#chat-quick button:has-text('Thanks')")
                assert talker.next(Said) == Said(seat=0, name="Bea", text="Thanks")
                page.fill("#chat-text", "  see <b>you</b>  ")
                page.click("#chat-send")
                assert talker.next(Said) == Said(seat=0, name="Bea", text="see <b>you</b>")
                page.click("#chat-mutes button[data-seat='1']")
                page.wait_for_selector("#chat-mutes button[aria-pressed=true]", timeout=MS)
                talker.say("while muted")
                page.click("#chat-mutes button[data-seat='1']")  # heard again
                page.wait_for_selector("#chat-mutes button[aria-pressed=false]", timeout=MS)
                talker.say("heard again")
                page.wait_for_selector("#chat-lines li:has-text('Cal says: heard again')", timeout=MS)
                assert "while muted" not in page.locator("#chat-lines").inner_text()
                page.click("#chat-switch")  # Bea opened the table: she may turn chat off
                assert talker.next(ChatStatus) == ChatStatus(on=False, muted=[])
                page.wait_for_selector("#chat-quick button[disabled]", timeout=MS)
                assert page.locator("#chat-note").inner_text() == presenter.CHAT_OFF
                assert not errors, errors
            finally:
                browser.close()
    finally:
        if talker is not None:
            talker.stop()
        host.stop()


def test_a_club_s_logo_chosen_on_the_home_page_is_on_the_felt_and_a_bad_one_is_refused(tmp_path):
    import io

    from PIL import Image

    good, bad = tmp_path / "club.png", tmp_path / "club.gif"
    for path, kind in ((good, "PNG"), (bad, "GIF")):
        out = io.BytesIO()
        Image.new("RGB", (400, 200), (10, 120, 200)).save(out, format=kind)
        path.write_bytes(out.getvalue())
    sync_playwright = _browser()
    host = Host(tmp_path / "server")
    url = host.start()
    try:
        with sync_playwright() as p:
            browser, page, errors = _context(p)
            try:
                page.goto(url + "/")
                page.fill("#name", "Ann")
                page.click("details.club summary")
                page.fill("#club", "Koi <b>Club</b>")
                page.set_input_files("#logo", str(bad))
                page.click("#new-table button[type=submit]")
                page.wait_for_selector("#new-error:has-text('PNG, JPEG or WebP')", timeout=MS)
                page.set_input_files("#logo", str(good))
                welcomes: list[dict] = []  # the table's watch code comes in the seat's welcome
                page.on(
                    "websocket",
                    lambda ws: ws.on(
                        "framereceived",
                        lambda frame: welcomes.append(json.loads(frame)) if '"welcome"' in str(frame) else None,
                    ),
                )
                page.click("#new-table button[type=submit]")
                page.wait_for_selector("#table:not([hidden]) #felt-logo:not([hidden])", timeout=MS)
                assert page.locator("#felt-club").inner_text() == "Koi <b>Club</b>"
                assert re.fullmatch(r"/logo/[0-9a-f]{32}\.png", page.get_attribute("#felt-logo", "src") or "")
                page.wait_for_function("() => document.getElementById('felt-logo').naturalWidth === 256", timeout=MS)
                # spectators included: the watch link's page has the logo and the club on its felt
                (watch,) = {m["watch"] for m in welcomes}
                page.goto(url + "/w/" + watch)
                page.wait_for_selector("#watch:not([hidden]) #watch-logo:not([hidden])", timeout=MS)
                assert page.locator("#watch-club").inner_text() == "Koi <b>Club</b>"
                page.wait_for_function("() => document.getElementById('watch-logo').naturalWidth === 256", timeout=MS)
                _shot(page, "watch-logo-390x844")
                assert not errors, errors
            finally:
                browser.close()
    finally:
        host.stop()
