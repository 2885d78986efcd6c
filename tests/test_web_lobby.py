"""The lobby and the watch link on the server's web page (docs/online.md, "The lobby", "Watching").

Without a browser: ``watch.js`` declares what a watcher is shown as the presenter makes it.  In
Chromium (skipped, saying why, without Playwright and a Chromium): Ann opens a listed table on the
home page; Bea's home page shows it under Open tables, and one tap sits her down; Cy opens the
watch link that Ann's waiting table shows, sees the table and nobody's cards and the clock of the
person waited for counting down, and the players' pages say that one person is watching.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from stepping_stones.flow import presenter
from test_web import CLOCK_BELOW, MS, _browser, _clock, _page, _Served, _shot

WATCH_JS = Path(presenter.__file__).parents[1] / "net" / "web" / "watch.js"


def test_the_watch_page_declares_what_a_watcher_is_shown_as_the_presenter_makes_it():
    declared = {
        name: re.findall(r"(\w+)\??: ", body)
        for body, name in re.findall(r"@typedef \{\{(.*?)\}\} (\w+)", WATCH_JS.read_text(encoding="utf-8"))
    }
    assert declared["WatchPresentation"] == [f.name for f in dataclasses.fields(presenter.WatchPresentation)]


def test_a_listed_table_from_the_home_page_one_tap_to_sit_and_a_watcher(tmp_path):
    sync_playwright = _browser()
    served = _Served(tmp_path / "server")
    try:
        with sync_playwright() as p:
            browser, ann, errors = _page(p, 390, 844)
            bea_browser, bea, bea_errors = _page(p, 390, 844)
            cy_browser, cy, cy_errors = _page(p, 390, 844)
            try:
                bea.goto(served.url + "/")
                bea.wait_for_selector("#open-none:not([hidden])", timeout=MS)  # nothing listed yet
                ann.goto(served.url + "/")
                ann.fill("#name", "Ann")
                ann.check("input[name=who][value=one]")
                ann.check("#short")
                ann.check("#listed")
                ann.select_option("#level", "random")
                ann.click("#new-table button[type=submit]")
                ann.wait_for_selector("#lobby:not([hidden])", timeout=MS)
                code = ann.locator("#invite-code").inner_text()
                watch = ann.locator("#watch-link").inner_text()
                assert re.fullmatch(r".*/w/[A-Z0-9]{5}-[A-Z0-9]{5}", watch) and code not in watch
                # Bea's home page follows the lobby: the table comes, with Ann in the presenter's words
                bea.wait_for_selector(f"#open-list button[data-code='{code}']", timeout=MS)
                line = bea.locator("#open-list li").first.inner_text()
                assert "Ann (person" in line and "1 seat free." in line, line
                _shot(bea, "lobby-390x844")
                bea.fill("#name", "Bea")
                bea.click(f"#open-list button[data-code='{code}']")
                for page in (ann, bea):  # the table is full, so it starts
                    page.wait_for_selector("#table:not([hidden])", timeout=MS)
                cy.goto(watch)
                cy.wait_for_selector("#watch:not([hidden])", timeout=MS)
                cy.wait_for_function("() => document.getElementById('watch-seats').childElementCount === 3", timeout=MS)
                assert "Ann" in cy.locator("#watch-seats").inner_text()
                assert cy.locator("#hand button").count() == 0  # nobody's cards
                assert cy.locator("#watch-watching").inner_text() == "1 person is watching."
                # the clock of the person waited for, as the players' pages show it: the server's
                # seconds on that seat, counted down by the page, the status line's too
                where = "#watch-seats .seat.acting .clock"
                cy.wait_for_selector(where, timeout=MS)
                start = _clock(cy, where)
                cy.wait_for_function(CLOCK_BELOW, arg=[where, start], timeout=MS)
                said = int(re.findall(r"(\d+) s left", cy.locator("#watch-status").inner_text())[0])
                assert said < start
                assert cy.locator("#watch-seats .clock").count() == 1
                _shot(cy, "watch-390x844")
                for page in (ann, bea):
                    page.wait_for_function(
                        "() => document.getElementById('watching').textContent === '1 person is watching.'",
                        timeout=MS,
                    )
                assert not errors and not bea_errors and not cy_errors, errors + bea_errors + cy_errors
            finally:
                browser.close()
                bea_browser.close()
                cy_browser.close()
    finally:
        served.stop()


def test_a_watcher_sees_the_bids_on_the_felt_while_they_are_said(tmp_path):
    """While a hand is bid, the felt of the watch page was empty and the bids were a list under the
    seats: now they are on the felt, as they are said, and go once the hand is played (the
    contract line says the declaration)."""

    from net_support import new_table, next_state
    from stepping_stones.engine import Phase
    from stepping_stones.net.client import SeatClient, open_table

    sync_playwright = _browser()
    served = _Served(tmp_path / "server")
    seats: list[SeatClient] = []

    async def first_passes() -> None:
        """The first bidder passes, once every seat sees the hand dealt; the bid said, in words."""
        for seat in seats:
            state = seat.state
            if state is None or state.view is None or state.view.phase is not Phase.BIDDING:
                await next_state(seat, lambda s: s.view is not None and s.view.phase is Phase.BIDDING)
        (bidder,) = [seat for seat in seats if seat.state is not None and seat.state.legal]
        assert bidder.state is not None
        await bidder.act("pass", bidder.state.seq)

    try:
        opened = served.call(open_table(served.url, new_table(("open", "open", "open"))))
        for name in ("Ann", "Bo", "Cy"):
            seats.append(SeatClient(served.url, code=opened.code, name=name))
            served.call(seats[-1].join())
        served.call(first_passes())
        with sync_playwright() as p:
            browser, page, errors = _page(p, 390, 844)
            try:
                page.goto(f"{served.url}/w/{opened.watch}")
                page.wait_for_selector(".felt #watch-bids:not([hidden]) li", timeout=MS)
                said = page.locator("#watch-bids li").all_inner_texts()
                assert len(said) == 1 and said[0].endswith(" passes."), said
                assert page.locator("#watch-bids").is_visible()
                _shot(page, "watch-bidding-390x844")
                assert not errors, errors
            finally:
                browser.close()
    finally:
        for seat in seats:
            served.call(seat.close())
        served.stop()
