"""The ratings page of the table server (``/ratings``: ``net/web/ratings.html``, ``ratings.js``) in
a real (headless) Chromium: a person whose browser keeps a player key finishes a game, then sees
the ratings (their own and the computers'), their game listed, reviews it trick by trick,
downloads its record (which ``replay`` accepts), and carries the key to a second browser with a
code shown once; and the table's page shows the ratings beside the names.  Skipped, saying why,
without Playwright or a Chromium (``tests/test_web.py``)."""

from __future__ import annotations

import asyncio
import json
import re
from random import Random

from fronts_support import Host
from net_support import WAIT, new_table
from stepping_stones.cli import main
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.net.players import new_key
from test_serve import CHROMIUM, _browser
from test_web import _no_sideways_scroll, _shot

MS = WAIT * 1000


def _with_key(p, key: str | None):
    browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    context = browser.new_context(viewport={"width": 390, "height": 844}, accept_downloads=True)
    if key is not None:
        kept = json.dumps(json.dumps({"key": key}))
        context.add_init_script(f"localStorage.setItem('stepping-stones.player', {kept})")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return browser, page, errors


async def _a_game(url: str, key: str) -> str:
    opened = await open_table(url, new_table(("open", "random", "random")))
    async with SeatClient(url, code=opened.code, name="Ann", key=key) as client:
        await client.join()
        async with asyncio.timeout(WAIT):
            await play_randomly(client, Random(7))
    return opened.code


def test_the_ratings_page_lists_reviews_and_downloads_a_game_and_carries_the_key(tmp_path, capsys):
    sync_playwright = _browser()
    host = Host(tmp_path / "server")
    url = host.start()
    key = new_key()
    try:
        asyncio.run(_a_game(url, key))
        with sync_playwright() as p:
            browser, page, errors = _with_key(p, key)
            try:
                page.goto(url + "/ratings")
                page.wait_for_selector("#games li", timeout=MS)
                rows = page.locator("#ratings-rows tr").all_inner_texts()
                assert any("Ann" in r for r in rows) and any("Computer (random)" in r for r in rows), rows
                you = page.locator("#you-line").inner_text()
                assert re.match(r"Ann, rated -?\d+: 1 game finished here\.", you), you
                page.click("#games li button:has-text('Review')")
                page.wait_for_selector("#review:not([hidden])", timeout=MS)
                assert page.locator("#hand-shown").inner_text() == "Hand 1 of 9"
                assert page.locator("#review-deal li").count() == 3
                first = page.locator("#review-trick").inner_text()
                page.click("#trick-next")
                assert page.locator("#trick-shown").inner_text() == "Trick 2 of 12"
                assert page.locator("#review-trick").inner_text() != first
                assert re.search(r"wins? trick 2 \(", page.locator("#review-trick").inner_text())
                # the hand analysis, in the server's words: the hand against perfect play, and
                # after each trick what perfect play would make from there
                assert page.locator("#review-analysis li").first.inner_text() == "Hand 1 against perfect play:"
                assert "par, with perfect play by all from the deal" in page.locator("#review-analysis").inner_text()
                assert "With perfect play from here" in page.locator("#review-position").inner_text()
                _shot(page, "ratings-390x844", full_page=True)
                page.click("#hand-next")
                assert page.locator("#hand-shown").inner_text() == "Hand 2 of 9"
                assert page.locator("#review-result li").count() >= 1
                with page.expect_download() as caught:
                    page.click("#games li button:has-text('Download')")
                path = tmp_path / "downloaded.json"
                caught.value.save_as(path)
                page.click("#export")
                page.wait_for_selector("#export-code:not(:empty)", timeout=MS)
                code = page.locator("#export-code").inner_text()
                assert re.fullmatch(r"[A-Z2-9]{5}-[A-Z2-9]{5}", code), code
                for size in ((360, 640), (640, 360)):  # a phone either way up: nothing wider than it
                    page.set_viewport_size({"width": size[0], "height": size[1]})
                    _no_sideways_scroll(page)
                assert not errors, errors
            finally:
                browser.close()
            other, page2, errors2 = _with_key(p, None)  # another device: no key yet
            try:
                page2.goto(url + "/ratings")
                page2.wait_for_selector("#you-line:has-text('has not played')", timeout=MS)
                page2.fill("#import-code", code)
                page2.click("#import button[type=submit]")
                page2.wait_for_selector("#games li", timeout=MS)  # Ann's games, on the other device
                assert page2.locator("#you-line").inner_text().startswith("Ann, rated ")
                new = page2.evaluate("JSON.parse(localStorage.getItem('stepping-stones.player')).key")
                assert new != key and len(new) == 43
                page2.fill("#import-code", code)  # once only
                page2.click("#import button[type=submit]")
                page2.wait_for_selector("#ratings-error:has-text('no live transfer code')", timeout=MS)
                assert not errors2, errors2
            finally:
                other.close()
    finally:
        _out, err = host.stop()
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0, err
    assert json.loads(capsys.readouterr().out)["complete"]


def test_the_table_s_page_shows_the_ratings_beside_the_names(tmp_path):
    sync_playwright = _browser()
    host = Host(tmp_path / "server")
    url = host.start()
    key = new_key()
    try:
        asyncio.run(_a_game(url, key))  # the computers and Ann are rated now
        code = asyncio.run(open_table(url, new_table(("open", "random", "random")))).code
        with sync_playwright() as p:
            browser, page, errors = _with_key(p, key)
            try:
                page.goto(f"{url}/t/{code}?name=Ann")
                page.wait_for_selector("#seat-left .rating", timeout=MS)
                left = page.locator("#seat-left .rating").inner_text()
                mine = page.locator("#seat-me .rating").inner_text()
                assert re.fullmatch(r"Rated -?\d+", left) and re.fullmatch(r"Rated -?\d+", mine), (left, mine)
                assert not errors, errors
            finally:
                browser.close()
    finally:
        host.stop()
