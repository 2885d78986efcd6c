"""The table server's own web page (``host`` at ``/``, ``/t/CODE``; ``net/pages.py``, ``net/web/``).

Without a browser: the pages behind the door (Host, Origin, framing, the content security policy),
and ``POST /words``, the page's sentences, against plain mode's own words.  In a real (headless)
Chromium: whole games against two computers at a phone's size and a desktop's, an invite link's
twelve cards as buttons, a trick at a table where a terminal client sits too, a reload in mid-hand
that takes the seat back, and no horizontal scrolling at 360 px.  The browser tests need
Playwright and a Chromium (Debian: ``apt-get install chromium``); without them they are skipped,
saying which.  ``STEPPING_STONES_SCREENSHOTS=DIR`` keeps the screenshots of the whole games there.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
from pathlib import Path
from random import Random

import aiohttp
import pytest

from fronts_support import Host
from net_support import WAIT, new_table, next_state, running
from stepping_stones.engine import Phase
from stepping_stones.explain import Teller
from stepping_stones.net import pages
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.net.pages import MAX_WORDS_REQUEST
from stepping_stones.net.protocol import StateMessage
from stepping_stones.net.remote import hand_events
from stepping_stones.net.viewcodec import view_from_json
from test_serve import CHROMIUM, _browser

SUIT_WORDS = {"C": "Cherry Blossoms", "K": "Koi", "L": "Stone Lanterns", "B": "Bridges"}
PAGES = (
    "/",
    "/t/ABCDE-FGHJK",
    "/t/abcdefghjk?name=Ann",
    "/web/app.js",
    "/web/cards.js",
    "/web/app.css",
    "/web/icon.svg",
)


# --- the door, without a browser --------------------------------------------------------------------


def test_the_pages_are_served_behind_the_door_and_cannot_be_framed(tmp_path):
    async def probe() -> None:
        async with running(tmp_path) as (_server, url), aiohttp.ClientSession() as session:
            host = url.removeprefix("http://")
            for path in PAGES:
                async with session.get(url + path, headers={"Origin": url}) as r:
                    assert r.status == 200, path
                    body = await r.text()
                    policy = r.headers["Content-Security-Policy"]
                    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, policy
                    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
                    assert f"ws://{host}/ws" in policy
                    assert r.headers["X-Frame-Options"] == "DENY"
                    assert r.headers["X-Content-Type-Options"] == "nosniff"
                    if path.startswith("/t/") or path == "/":
                        assert r.content_type == "text/html" and '<script type="module" src="/web/app.js">' in body
                        assert "<script>" not in body and "style=" not in body  # nothing inline: the policy holds
                for extra in (
                    {"Origin": "http://evil.example"},
                    {"Origin": "null"},
                    {"Host": "evil.example"},
                    {"Host": f"127.0.0.1.nip.io:{url.rsplit(':', 1)[1]}"},
                ):
                    async with session.get(url + path, headers=extra) as r:
                        assert r.status == 403, (path, extra)
                        assert "app.js" not in await r.text()
                        assert r.headers["X-Frame-Options"] == "DENY"  # even a refusal cannot be framed
            async with session.post(url + "/words", data=b"{}", headers={"Origin": "http://evil.example"}) as r:
                assert r.status == 403
            for path in ("/web/nothing.js", "/web/..%2Fpages.py", "/t/<script>", "/t/" + "A" * 40):
                async with session.get(url + path) as r:
                    assert r.status == 404, path

    asyncio.run(probe())


def test_the_page_ships_in_the_package():
    """``pip install .`` brings the page: its files are package data of ``net``."""
    import tomllib

    from stepping_stones.net import pages

    data = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    assert "net/web/*" in data["tool"]["setuptools"]["package-data"]["stepping_stones"]
    assert {"index.html", *pages.FILES} <= {p.name for p in pages.WEB.iterdir()}


def test_web_starts_a_server_on_this_machine_and_opens_its_page(tmp_path):
    """``stepping-stones web``: the page is opened with ``webbrowser`` (here a "browser" that says
    which address it was given), and the server answers there."""
    import subprocess
    import sys

    from test_serve import free_port

    port = free_port()
    browser = f"{sys.executable} -c \"import sys; print('browser got', sys.argv[1], flush=True)\" %s"
    proc = subprocess.Popen(
        [sys.executable, "-m", "stepping_stones", "web", "--port", str(port), "--data-dir", str(tmp_path / "server")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "BROWSER": browser},
    )
    assert proc.stdout is not None
    try:
        first = proc.stdout.readline()
        assert first == f"Stepping Stones table server at http://127.0.0.1:{port}\n", first
        lines = [proc.stdout.readline() for _ in range(4)]
        assert f"browser got http://127.0.0.1:{port}/\n" in lines, lines
        assert f"Opened the page in your web browser: http://127.0.0.1:{port}/\n" in lines, lines

        async def get() -> str:
            async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/") as r:
                return await r.text()

        assert '<script type="module" src="/web/app.js">' in asyncio.run(get())
    finally:
        proc.send_signal(2)
        out, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 0, err
    assert "has stopped" in out


# --- POST /words ------------------------------------------------------------------------------------


async def _words(session: aiohttp.ClientSession, url: str, body: object) -> tuple[int, dict]:
    async with session.post(url + "/words", data=json.dumps(body), headers={"Origin": url}) as r:
        return r.status, await r.json()


def test_words_are_plain_mode_s_sentences_for_the_seat_s_own_view(tmp_path, monkeypatch):
    monkeypatch.setattr(pages, "WORDS_RATE", (1e6, 10**6))  # a words request for every state, flat out

    async def game() -> None:
        async with running(tmp_path) as (_server, url), aiohttp.ClientSession() as session:
            opened = await open_table(url, new_table(("open", "random", "random"), level="random"))
            async with SeatClient(url, code=opened.code, name="Ann") as ann:
                await ann.join()
                rng = Random(5)
                refusals_seen = 0
                hinted = analysed = False
                while True:
                    state = await next_state(ann)
                    assert state.view is not None
                    view = view_from_json(state.view)
                    status, words = await _words(session, url, {"view": state.view.model_dump(mode="json")})
                    assert status == 200, words
                    teller = Teller(view.players, view.seat)
                    shown = view.shown_hand()
                    if view.phase in (Phase.BIDDING, Phase.PLAY) and shown is not None:
                        assert [e["text"] for e in words["events"] if e["hand"] == view.hand_number] == [
                            text for _k, text, _s, _t in hand_events(teller, shown, view)
                        ]
                    if view.phase is Phase.PLAY and state.legal:
                        illegal = set(state.view.own_cards.split()) - set(state.legal)
                        assert set(words["refusals"]) == illegal
                        for reason in words["refusals"].values():
                            assert reason.startswith("You must "), reason
                        refusals_seen += len(illegal)
                    if view.phase is Phase.BIDDING and state.legal:
                        assert [b["bid"] for b in words["bids"]] == state.legal
                    if state.legal and view.phase is Phase.PLAY and not hinted:  # the expert, for this turn
                        status, hint = await _words(
                            session, url, {"view": state.view.model_dump(mode="json"), "hint": True}
                        )
                        assert status == 200 and hint["hint"]["action"] in state.legal, hint
                        assert hint["hint"]["text"].startswith(f"Play {hint['hint']['action']}: ")
                        hinted = True
                    if view.history and not analysed:  # the first hand against perfect play
                        status, found = await _words(
                            session, url, {"view": state.view.model_dump(mode="json"), "analysis": 1}
                        )
                        assert status == 200 and found["analysis"][0] == "Hand 1 against perfect play:", found
                        analysed = True
                    if state.record is not None:
                        assert words["result"][0] == "The game is over." and words["result"][-1].startswith("Totals:")
                        break
                    if state.legal:
                        await ann.act(rng.choice(state.legal), state.seq)
                assert refusals_seen > 0

    asyncio.run(game())


def test_words_refuse_what_is_not_a_view_in_one_line_and_too_many(tmp_path, monkeypatch):
    monkeypatch.setattr(pages, "WORDS_RATE", (0.001, 7))

    async def probe() -> None:
        async with running(tmp_path) as (_server, url), aiohttp.ClientSession() as session:
            opened = await open_table(url, new_table(("open", "random", "random"), level="random"))
            async with SeatClient(url, code=opened.code, name="Ann") as ann:
                await ann.join()
                state = await next_state(ann, lambda s: s.view is not None)
                assert state.view is not None
                good = state.view.model_dump(mode="json")
            bad_card = {**good, "own_cards": "X9"}
            for body in ({}, {"view": bad_card}, {"view": good, "extra": 1}, {"view": good, "since": -1}, [1]):
                status, answer = await _words(session, url, body)
                assert status == 400 and answer["type"] == "error", body
                assert "\n" not in answer["message"] and "Traceback" not in answer["message"]
            async with session.post(url + "/words", data=b"{" + b" " * MAX_WORDS_REQUEST + b"}") as r:
                assert r.status == 413
            status, answer = await _words(session, url, {"view": good})
            assert status == 200 and answer["events"][0]["text"].startswith("Hand 1 is dealt.")
            status, answer = await _words(session, url, {"view": good})  # the eighth in a burst of seven
            assert status == 429 and answer["message"].startswith("too many requests")

    asyncio.run(probe())


# --- in a real browser ---------------------------------------------------------------------------------

MY_TURN = "#bidding:not([hidden]) button.bid, #hand button.card.legal, #summary:not([hidden]), #result:not([hidden])"


def _page(p, width: int, height: int):
    browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return browser, page, errors


def _reasons(page) -> list[str]:
    """Why each card of the hand that may not be played now is off, once the words of the state
    drawn have come."""
    seq = page.locator("body").get_attribute("data-seq")
    page.wait_for_selector(f"body[data-heard='{seq}']", timeout=WAIT * 1000)
    return page.locator("#hand button.card[aria-disabled=true] .sr-only").all_inner_texts()


def _step(page, before_card=None) -> str:
    """Do what the page asks of the person now (close a summary, bid, play the first legal card,
    calling ``before_card(page)`` first), waiting for the page to ask; what was done."""
    page.wait_for_selector(MY_TURN, timeout=WAIT * 1000)
    if page.locator("#result:not([hidden])").count():
        return "over"
    if page.locator("#summary:not([hidden])").count():
        page.click("#summary-close")
        return "summary"
    bids = page.locator("#bidding:not([hidden]) button.bid")
    if bids.count():
        pass_ = page.locator("#bidding button.bid.pass")
        (pass_ if pass_.count() else bids).first.click()
        return "bid"
    if before_card is not None:
        before_card(page)
    page.locator("#hand button.card.legal").first.click()
    return "card"


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], width


def _solo(page, url: str, name: str = "Ann") -> None:
    page.goto(url + "/")
    page.fill("#name", name)
    page.check("#short")
    page.select_option("#level", "random")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#table:not([hidden])", timeout=WAIT * 1000)


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_a_whole_game_against_two_computers_in_chromium(tmp_path, size):
    sync_playwright = _browser()
    host = Host(tmp_path / "server")
    url = host.start()
    shots = os.environ.get("STEPPING_STONES_SCREENSHOTS")
    try:
        with sync_playwright() as p:
            browser, page, errors = _page(p, *size)
            try:
                _solo(page, url)
                counts = {"card": 0, "bid": 0, "summary": 0}
                reasons: set[str] = set()
                # why the cards it could not play were off: the engine's words
                while (done := _step(page, lambda page: reasons.update(_reasons(page)))) != "over":
                    counts[done] += 1
                    if shots and counts["card"] == 30 and done == "card":
                        page.screenshot(path=f"{shots}/web-{size[0]}x{size[1]}.png")
                _no_sideways_scroll(page)
                result = page.locator("#result-lines").inner_text()
                assert "Totals:" in result and re.search(r"(win|wins) with|share the win", result), result
                told = page.locator("#live").inner_text()
                assert "The game is over." in told
                assert counts["card"] == 9 * 12 and counts["summary"] >= 8, counts
                assert any(re.fullmatch(r"You must (follow|beat) .*: you hold .*\.", r) for r in reasons), reasons
                page.click("[data-panel=sheet]")
                assert page.locator("#panel-sheet table.sheet tbody tr").count() == 3 + 2  # short: 3 contracts
                if shots:
                    page.screenshot(path=f"{shots}/web-{size[0]}x{size[1]}-over.png", full_page=True)
                first = page.url
                page.click("#again")  # a new table with the same rules and seats
                page.wait_for_selector("#hand-line:has-text('Hand 1 of 9')", timeout=WAIT * 1000)
                assert page.url != first and "/t/" in page.url
                assert not errors, errors
            finally:
                browser.close()
    finally:
        _out, err = host.stop()
    assert list((tmp_path / "server" / "games").glob("*.json")), err  # the server filed the game


def test_an_invite_link_shows_twelve_cards_as_buttons_on_a_phone(tmp_path):
    sync_playwright = _browser()
    host = Host(tmp_path / "server")
    url = host.start()
    try:
        opened = asyncio.run(open_table(url, new_table(("open", "random", "random"), level="random")))
        with sync_playwright() as p:
            browser, page, errors = _page(p, 390, 844)
            try:
                page.goto(f"{url}/t/{opened.code}?name=Bea")
                page.wait_for_selector("#hand button.card", timeout=WAIT * 1000)
                cards = page.locator("#hand button.card")
                assert cards.count() == 12
                for i in range(12):
                    card = cards.nth(i)
                    name = card.get_attribute("data-card")
                    assert name is not None and re.fullmatch(r"[CKLB][1-9]", name), name
                    assert card.get_attribute("aria-label") == f"{SUIT_WORDS[name[0]]} {name[1]}"
                    assert card.evaluate("b => b.tagName") == "BUTTON"
                    box = card.bounding_box()
                    assert box is not None and box["width"] >= 44 and box["height"] >= 44
                    # a card that may not be played now says why (the bidding, another's turn, the rules)
                    if "legal" not in str(card.get_attribute("class")):
                        assert card.get_attribute("aria-disabled") == "true"
                        why = page.locator("#" + str(card.get_attribute("aria-describedby"))).inner_text()
                        assert why.endswith(".") and len(why) > 10, why
                    else:
                        assert card.get_attribute("aria-disabled") is None
                _no_sideways_scroll(page)
                assert page.url.endswith(f"/t/{opened.code}")  # the name is not sat again on a reload
                assert not errors, errors
            finally:
                browser.close()
    finally:
        host.stop()


def test_a_reload_in_mid_hand_takes_the_seat_back(tmp_path):
    sync_playwright = _browser()
    host = Host(tmp_path / "server")
    url = host.start()
    try:
        with sync_playwright() as p:
            browser, page, errors = _page(p, 390, 844)
            try:
                _solo(page, url)
                cards = 0
                while cards < 3:
                    cards += _step(page) == "card"
                page.wait_for_selector("#hand button.card.legal", timeout=WAIT * 1000)
                held = sorted(page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.dataset.card)"))
                assert len(held) == 12 - 3
                page.reload()
                page.wait_for_selector("#hand button.card.legal", timeout=WAIT * 1000)
                again = sorted(page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.dataset.card)"))
                assert again == held
                assert page.locator("#seat-me .who").inner_text().startswith("You")
                before = page.locator("#hand button.card").count()
                page.click("#hint")  # one person at the table: hints are on, the expert's for this turn
                page.wait_for_selector("#hint-text:has-text('Play ')", timeout=WAIT * 1000)
                hinted = page.locator("#hand button.card.hinted")
                assert hinted.count() == 1
                hinted.focus()  # the seat plays on, from the keyboard
                page.keyboard.press("Enter")
                page.wait_for_selector(
                    f"#hand:has(button.card:nth-child({before}))", state="detached", timeout=WAIT * 1000
                )
                assert not errors, errors
            finally:
                browser.close()
    finally:
        _out, err = host.stop()
    assert "bad-secret" not in err


class _Terminal:
    """A terminal client (``SeatClient``, random legal moves) on an event loop of its own thread,
    while the test's thread drives the browser."""

    def __init__(self, url: str, code: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.states: list[StateMessage] = []
        self.client = SeatClient(url, code=code, name="Cal")
        asyncio.run_coroutine_threadsafe(self.client.join(), self.loop).result(timeout=WAIT)
        self.done = asyncio.run_coroutine_threadsafe(
            play_randomly(self.client, Random(2), on_state=self.states.append), self.loop
        )

    def stop(self) -> None:
        self.done.cancel()
        asyncio.run_coroutine_threadsafe(self.client.close(), self.loop).result(timeout=WAIT)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=WAIT)


def _first_card(terminal: _Terminal, seat: int | None = None) -> str | None:
    """The first card that ``seat`` (the terminal client's own by default) played, as the terminal
    client last saw the table."""
    seat = terminal.client.seat if seat is None else seat
    view = terminal.states[-1].view if terminal.states else None
    if view is None:
        return None
    hand = view.history[0] if view.history else view
    return next((c for c, s in zip(hand.plays.split(), hand.play_seats, strict=True) if s == seat), None)


def test_one_trick_at_a_table_where_a_terminal_client_sits_too(tmp_path):
    sync_playwright = _browser()
    host = Host(tmp_path / "server")
    url = host.start()
    terminal: _Terminal | None = None
    try:
        opened = asyncio.run(open_table(url, new_table(("open", "open", "random"), level="random")))
        with sync_playwright() as p:
            browser, page, errors = _page(p, 1280, 800)
            try:
                page.goto(f"{url}/t/{opened.code}")
                page.fill("#join-name", "Bea")
                page.click("#join-form button[type=submit]")
                page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT * 1000)
                assert opened.code in page.locator("#invite").inner_text()
                terminal = _Terminal(url, opened.code)
                page.wait_for_selector("#table:not([hidden])", timeout=WAIT * 1000)
                assert "person" in page.locator(".opponents").inner_text()  # Cal, a person
                page.click("[data-panel=log]")  # everything the page has told, in order
                bea = next(s for s, f in enumerate(terminal.states[-1].seats) if f.name == "Bea")
                while True:  # until the page has told Cal's first card, and Cal has seen the page's
                    cal = _first_card(terminal)
                    told = "\n".join(page.locator("#panel-log li").all_inner_texts())
                    if (
                        cal is not None
                        and (f"Cal plays {cal}." in told or f"Cal leads {cal}." in told)
                        and _first_card(terminal, bea) is not None
                    ):
                        break
                    _step(page)
                assert not page.locator("#hint").is_visible()  # two people: hints are off
                assert not errors, errors
            finally:
                browser.close()
    finally:
        if terminal is not None:
            terminal.stop()
        host.stop()


@pytest.mark.parametrize("size", [(360, 640), (640, 360)], ids=["upright", "sideways"])
def test_no_horizontal_scrolling_at_360_px(tmp_path, size):
    sync_playwright = _browser()
    host = Host(tmp_path / "server")
    url = host.start()
    try:
        with sync_playwright() as p:
            browser, page, errors = _page(p, *size)
            try:
                page.goto(url + "/")
                _no_sideways_scroll(page)
                for button in page.locator("#home button").all():
                    if button.is_visible():
                        box = button.bounding_box()
                        assert box is not None and box["height"] >= 44
                _solo(page, url)
                for _ in range(6):
                    _step(page)
                    _no_sideways_scroll(page)
                for panel in ("sheet", "tricks", "log", "help"):
                    page.click(f"[data-panel={panel}]")
                    _no_sideways_scroll(page)
                assert not errors, errors
            finally:
                browser.close()
    finally:
        host.stop()


def test_the_page_s_traffic_is_the_same_whoever_holds_the_cards_it_has_not_seen(tmp_path):
    """The re-deal test of ``test_net_hidden`` on the page's own traffic: one position stored
    twice, the second time with the cards seat 0 has not seen dealt again another way; the page
    takes the seat back with its secret (as after a reload), and every websocket frame and every
    ``/words`` answer it gets, and the table it draws, are the same at both tables, before and
    after it plays a card."""
    from stepping_stones.net.journal import FileTableStore
    from stepping_stones.storage.records import record_from_game
    from test_net_hidden import SECRETS, _file, _position, _redealt

    sync_playwright = _browser()
    rng = Random(7)
    for steps in range(20, 60):
        game = _position("page", steps)
        if game.phase is Phase.PLAY and game.to_act == 0 and len(game.hand.plays) % 3:
            other = _redealt(game, 0, rng)
            if other is not None:
                break
    else:
        raise AssertionError("no position to deal again")
    seat = json.dumps({"secret": SECRETS[0], "code": "ABCDE-FGHJK", "table": "00000000000000aa", "name": "Ann"})
    worlds = []
    with sync_playwright() as p:
        for n, record in enumerate((record_from_game(game), other)):
            folder = tmp_path / f"world-{n}"
            FileTableStore(folder / "tables").save("00000000000000aa", _file("00000000000000aa", record))
            host = Host(folder)
            url = host.start()
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                context = browser.new_context(viewport={"width": 390, "height": 844})
                context.add_init_script(f"localStorage.setItem('stepping-stones.seat', {json.dumps(seat)})")
                page = context.new_page()
                frames: list[str] = []
                answers = []
                page.on("websocket", lambda ws, frames=frames: ws.on("framereceived", lambda f: frames.append(f)))
                page.on("response", lambda r, answers=answers: answers.append(r) if r.url.endswith("/words") else None)
                page.goto(f"{url}/t/ABCDE-FGHJK")
                page.wait_for_selector("body[data-heard] #hand button.card.legal", timeout=WAIT * 1000)
                drawn = [page.locator("#table").inner_text()]
                before = page.locator("body").get_attribute("data-heard")
                page.locator("#hand button.card.legal").first.click()
                page.wait_for_selector(f"body:not([data-heard='{before}'])", timeout=WAIT * 1000)
                drawn.append(page.locator("#table").inner_text())
                worlds.append((frames, [a.text() for a in answers], drawn, page.locator("#live").inner_text()))
            finally:
                browser.close()
                host.stop()
    assert worlds[0] == worlds[1]
    frames, answers, _drawn, _told = worlds[0]
    assert [json.loads(f)["type"] for f in frames][:2] == ["welcome", "state"] and "delta" in frames[-1]
    assert len(answers) >= 2


def test_the_page_says_when_the_server_is_gone_and_comes_back_by_itself(tmp_path):
    """``kill -9`` of the server in mid-hand: the page says the connection was lost, and once the
    server is started again (the same port and folder) it is back at the table and plays on."""
    sync_playwright = _browser()
    host = Host(tmp_path / "server")
    url = host.start()
    try:
        with sync_playwright() as p:
            browser, page, errors = _page(p, 390, 844)
            try:
                _solo(page, url)
                cards = 0
                while cards < 2:
                    cards += _step(page) == "card"
                page.wait_for_selector("#hand button.card.legal", timeout=WAIT * 1000)
                held = page.locator("#hand button.card").count()
                host.kill()
                page.wait_for_selector(
                    "#banner:has-text('The connection to the server was lost; trying again.')", timeout=WAIT * 1000
                )
                host.start()
                page.wait_for_selector("#live p:has-text('Back at the table.')", timeout=WAIT * 1000)
                assert page.locator("#banner").is_hidden()
                page.wait_for_selector("#hand button.card.legal", timeout=WAIT * 1000)
                assert page.locator("#hand button.card").count() == held
                page.locator("#hand button.card.legal").first.click()  # and plays on
                page.wait_for_selector(
                    f"#hand:has(button.card:nth-child({held}))", state="detached", timeout=WAIT * 1000
                )
                assert not errors, errors
            finally:
                browser.close()
    finally:
        host.stop()


def test_another_site_cannot_frame_the_page_or_use_the_server(tmp_path):
    """In Chromium, a page of another origin (here a server on another port) frames the table
    server's page and posts to it: the frame stays empty and the post is refused (403)."""
    import functools
    import http.server

    sync_playwright = _browser()
    host = Host(tmp_path / "server")
    url = host.start()
    site = tmp_path / "site"
    site.mkdir()
    (site / "evil.html").write_text(f'<!doctype html><iframe id="f" src="{url}/"></iframe>')
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    evil = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as p:
            browser, page, _errors = _page(p, 1280, 800)
            try:
                with page.expect_response(lambda r: r.url.startswith(url), timeout=WAIT * 1000) as answer:
                    page.goto(f"http://127.0.0.1:{evil.server_address[1]}/evil.html")  # waits for the frame too
                assert answer.value.headers["x-frame-options"] == "DENY"
                frame = next(f for f in page.frames if f != page.main_frame)
                assert not frame.url.startswith(url), frame.url  # the browser put an error page in its place
                assert frame.locator("#home").count() == 0  # nothing of the page was drawn in the frame
                status = page.evaluate(
                    f"fetch('{url}/tables', {{method: 'POST', body: '{{}}'}}).then(r => r.status, () => 'blocked')"
                )
                assert status in (403, "blocked"), status
            finally:
                browser.close()
    finally:
        evil.shutdown()
        host.stop()


def test_a_claim_from_the_page_ends_the_hand_or_is_refused_in_public_words(tmp_path):
    """On the person's turn to play the page offers a claim of the rest; one the others could stop
    is refused (and the hand goes on), one that holds ends the hand at once."""
    sync_playwright = _browser()
    host = Host(tmp_path / "server")
    url = host.start()
    try:
        with sync_playwright() as p:
            browser, page, errors = _page(p, 1280, 800)
            try:
                _solo(page, url)
                claims = ["all", "0"]  # all may be refused in a Win contract; none then holds there
                refusals: list[str] = []
                while claims:
                    page.wait_for_selector(MY_TURN, timeout=WAIT * 1000)
                    if page.locator("#hand button.card.legal").count():
                        _reasons(page)  # the words of this state are drawn: the claim box with them
                    if page.locator("#claim-box:not([hidden])").count():
                        word = claims.pop(0)
                        left = page.locator("#claim-count option").first.get_attribute("value")
                        page.select_option("#claim-count", left if word == "all" else word)
                        page.click("#claim")
                        page.wait_for_selector(
                            "#summary:not([hidden]), #refusal:has-text('Claim refused')", timeout=WAIT * 1000
                        )
                        if page.locator("#summary:not([hidden])").count():
                            break
                        refusals.append(page.locator("#refusal").inner_text())
                    _step(page)
                else:
                    raise AssertionError(f"no claim held: {refusals}")
                assert all(r.startswith("Claim refused: ") and r.endswith("Play on.") for r in refusals), refusals
                assert not any(re.search(r"\b[CKLB][1-9]\b", r) for r in refusals), refusals
                summary = page.locator("#summary-lines").inner_text()
                taken = re.search(r"Tricks taken: You (\d+), \S+ (\d+), \S+ (\d+)\.", summary)
                assert taken and sum(map(int, taken.groups())) == 12, summary  # the hand was played out
                assert "Claim accepted: " in page.locator("#live").inner_text()
                assert not errors, errors
            finally:
                browser.close()
    finally:
        host.stop()
