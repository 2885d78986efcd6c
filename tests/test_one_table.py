"""The story of one table, told by the three front ends side by side (``story_support``): plain
mode through its pipes, the app under Pilot and the web page in Chromium at phone size, at one
table of a real server whose clock the test holds.  At every turn each front end must say the same
facts: whose turn it is and its seconds, a computer standing in and the seat taken back, a summary
open while the next hand waits, a renamed player and a long name.  And a server killed in the middle
of a trick: one process started again, or (``proxied``) the one of two behind nginx that holds the
table, the other taking it up."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from fronts_support import Host, Plain
from net_support import WAIT, Clock, new_table, running
from stepping_stones.engine import Phase, card_name
from story_support import (
    STATUS,
    AppFront,
    PageFront,
    PlainFront,
    Watcher,
    all_show,
    turn_pattern,
    waited_name,
    watched_move,
    watched_turn,
)
from test_serve import CHROMIUM, _browser

LONG = "Maximiliana-Wolkenstein-Rodenegg-Trostbe"  # 40 characters, the longest name a seat takes
TIMEOUT = 120
SLACK = WAIT  # a front end counts the seconds down itself from those the server sent


def test_three_front_ends_tell_one_story_at_one_table(tmp_path, monkeypatch):
    """Ann in plain mode sits first; a second Ann, on the page at 390x844, becomes "Ann 2"; a
    player with a 40-character name sits in the app at 120x40, and the table starts.  Through the
    first hand, at every turn, the front end of the person waited for says "Your turn: N s left"
    and the two others "Waiting for <that person>: N s left", each with the server's seconds.  At
    one person's turn the clock runs out: a computer plays for them, every front end says so, and
    they take the seat back from their own.  The declarer claims from their own front end what
    holds whatever is played; each front end tells it accepted, with the same count.  When the
    hand is over the next hand's first bidder is told their clock waits on the summary, and the
    others whom they wait for."""
    async_playwright = _browser(asynchronous=True)
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "app-home"))
    asyncio.run(_story(tmp_path, async_playwright))


async def _story(folder: Path, async_playwright) -> None:
    from stepping_stones.storage.settings import Settings
    from stepping_stones.tui.app import SteppingStonesApp
    from stepping_stones.tui.online import RemoteTableScreen

    clock = Clock()
    async with running(folder / "server", clock=clock, timeout=TIMEOUT) as (server, url), async_playwright() as p:
        from stepping_stones.net.client import open_table

        opened = await open_table(url, new_table(level="random"))
        code = opened.code
        plain = PlainFront(await Plain.start(url, code, folder / "plain-home", "Ann", lambda _actions: None))
        await plain.line(lambda line: line.startswith("You sit in seat 1"))
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = await PageFront.sit(browser, url, code, "Ann")
        await plain.line(lambda line: "seat 2: Ann 2 (person)" in line)  # the second Ann is told apart
        app = SteppingStonesApp(settings=Settings(pace="instant", trick_pause=False), join=(url, code, LONG))
        try:
            async with app.run_test(size=(120, 40)) as pilot:
                while not isinstance(app.screen, RemoteTableScreen):
                    await pilot.pause()
                front = AppFront(app, pilot)
                front.hear()
                await _first_hand(server, code, clock, (plain, page, front))
                # the renamed player and the long name, as each front end names them
                assert "You play as Ann against Ann 2 (person) and " + LONG in "\n".join(plain.lines)
                assert await page.page.locator("#seat-me .who").get_attribute("title") == "Ann 2"
                width = await page.page.evaluate("document.documentElement.scrollWidth")
                assert width <= 390, width  # the long name does not widen the phone's page
                assert page.errors == [], page.errors
        finally:
            await browser.close()
            status, err = await plain.quit()  # the end of its input: it leaves, keeping the seat
            assert status == 0 and "Traceback" not in err, err


async def _first_hand(server, code: str, clock: Clock, fronts: tuple) -> None:
    """Play the first hand from the three front ends, checking at each turn that all three tell
    it alike (see the test's docstring)."""
    table = server.tables.by_code[code]
    names = [s.name for s in table.seats]
    assert names[1] == "Ann 2" and names[2] == LONG, names
    stood_in = claimed = False
    turns = 0
    while True:
        game = table.game
        assert game is not None
        if len(game.log) > 1 or len(game.log[-1].plays) >= 33:  # the last trick: each last card plays itself
            await _until(lambda: len(table.game.log) > 1)  # in every front end, and the second hand is dealt
            break
        seat = await _turn_told(table, clock, fronts, names)
        turns += 1
        if not stood_in and turns == 4:  # the clock runs out on the fourth turn
            stood_in = True
            await _stand_in(server, table, clock, fronts, seat, names)
            continue
        view = game.view(seat)
        if stood_in and not claimed and game.phase is Phase.PLAY and view.declarer == seat:
            claimed = True  # the declarer claims what holds whatever is played: the hand ends
            assert view.declaration is not None
            await _after(table, fronts[seat].claim("none" if view.declaration.contract.is_win else "all"))
            await _claim_told(fronts)
            continue
        await _after(table, fronts[seat].act())
    assert claimed, "the declarer claimed in the first hand"
    # the second hand: its first bidder's clock waits on the summary they have open
    game = table.game
    seat = game.to_act
    if seat == 0:  # plain mode has no summary to close: it tells the server it has read it once it is said
        await _until(lambda: not table.reading(0))
    reading = table.reading(seat)
    assert reading == (seat != 0), "the page and the app show the summary until it is closed"
    await all_show(fronts, [turn_pattern(waited_name(seat, own, names), reading) for own in range(3)])
    if reading:  # the reader closes it: their clock starts, and every front end says so
        assert await fronts[seat].act() == "summary"
        await _until(lambda: not table.reading(seat))
        await all_show(fronts, [turn_pattern(waited_name(seat, own, names)) for own in range(3)])


async def _claim_told(fronts: tuple) -> None:
    """Each front end tells the claim's verdict, and the tricks the hand ends with alike."""
    ends = []
    for front in fronts:
        await front.told("Claim accepted: ")
        ends += [line for line in await front.told_lines() if "Claim accepted: " in line]
    counts = {re.search(r"The hand ends: .*?(\d+) tricks?", line).group(1) for line in ends if "The hand ends:" in line}
    assert len(counts) == 1, ends


async def _turn_told(table, clock: Clock, fronts: tuple, names: list[str]) -> int:
    """The seat the table waits for, once each front end says so with the server's seconds."""
    seat = table.game.to_act
    deadline = table.deadline()
    assert seat is not None and deadline is not None, "the table waits for a person"
    seconds = deadline - clock()
    patterns = [turn_pattern(waited_name(seat, own, names)) for own in range(3)]
    for front, pattern, text in zip(fronts, patterns, await all_show(fronts, patterns), strict=True):
        shown = int(pattern.fullmatch(text).group(1))
        assert seconds - SLACK <= shown <= seconds, (front.kind, shown, seconds)
    return int(seat)


async def _stand_in(server, table, clock: Clock, fronts: tuple, seat: int, names: list[str]) -> None:
    """The clock of ``seat`` runs out: each front end says a computer plays for that person, who
    takes the seat back from their own front end, and each says so."""
    clock.now += TIMEOUT + 1
    await server.sweep()
    assert table.seats[seat].stand_in
    for own, front in enumerate(fronts):
        if own != seat:
            await front.told(f"A computer plays for {names[seat]} until they come back.")
        elif front.kind == "plain mode":  # plain mode tells it once, as it happens
            await front.told("a computer plays your seat until you take it back (type back).")
        else:  # the app and the page keep it in their status line, and their log
            await front.shows(re.compile(r"A computer plays for you: .+ to come back\."))
            await front.told("a computer plays your seat until you take it back")
    # the computer plays the seat (its random level answers at once) before the person is back
    await _until(lambda: table.game.to_act != seat)
    await fronts[seat].take_back()
    await _until(lambda: not table.seats[seat].stand_in)
    for own, front in enumerate(fronts):
        if own != seat:
            await front.told(f"{names[seat]} plays their own seat again.")


async def _until(holds) -> None:
    """Wait for the server (in this process) to get where ``holds`` says."""
    async with asyncio.timeout(WAIT):
        while not holds():
            await asyncio.sleep(0.01)


async def _after(table, doing, front=None) -> None:
    """Do ``doing`` from a front end and wait until the server has taken it: the table is read
    again only then."""
    before = _position(table)
    done = await doing
    try:
        await _until(lambda: _position(table) != before)
    except TimeoutError:
        raise AssertionError(f"the server never took {done!r} at {before}:\n{front.now() if front else ''}") from None


def _position(table) -> tuple[int, int, int]:
    """Where the game is: its hands dealt, and the bids and cards of the last (a table's seq moves
    for more than a move: a seat that comes or goes, a summary read)."""
    game = table.game
    hand = game.log[-1]
    return len(game.log), len(hand.bids), len(hand.plays)


def test_each_front_end_started_again_tells_the_same_turn(tmp_path, monkeypatch):
    """Ann (plain mode), Bea (the page) and Cy (the app) play two turns; then each front end is
    started again as a person would: plain mode quits and joins again, the tab is reloaded, the
    app is closed and opened again and takes its seat back.  Each tells the turn as before, with
    the server's seconds, and the table plays on from all three."""
    async_playwright = _browser(asynchronous=True)
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "app-home"))
    asyncio.run(_restarts(tmp_path, async_playwright))


async def _restarts(folder: Path, async_playwright) -> None:
    from stepping_stones.net.client import open_table
    from stepping_stones.storage.settings import Settings
    from stepping_stones.tui.app import SteppingStonesApp
    from stepping_stones.tui.dialogs import ConfirmScreen
    from stepping_stones.tui.online import RemoteTableScreen

    settings = Settings(pace="instant", trick_pause=False)
    clock = Clock()
    async with running(folder / "server", clock=clock, timeout=TIMEOUT) as (server, url), async_playwright() as p:
        opened = await open_table(url, new_table(level="random"))
        code = opened.code

        async def plain_mode() -> PlainFront:
            return PlainFront(await Plain.start(url, code, folder / "plain-home", "Ann", lambda _actions: None))

        plain = await plain_mode()
        await plain.line(lambda line: line.startswith("You sit in seat 1"))
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = await PageFront.sit(browser, url, code, "Bea")
            await plain.line(lambda line: "seat 2: Bea (person)" in line)
            app = SteppingStonesApp(settings=settings, join=(url, code, "Cy"))
            table = None
            async with app.run_test(size=(120, 40)) as pilot:
                while not isinstance(app.screen, RemoteTableScreen):
                    await pilot.pause()
                first = AppFront(app, pilot)
                first.hear()
                table = server.tables.by_code[code]
                names = [s.name for s in table.seats]
                for _ in range(2):
                    seat = await _turn_told(table, clock, (plain, page, first), names)
                    await _after(table, (plain, page, first)[seat].act())
            # the app has closed (its seat is kept); plain mode quits and joins again; the tab reloads
            status, err = await plain.quit()
            assert status == 0 and "Traceback" not in err, err
            plain = await plain_mode()
            await page.page.reload()
            again = SteppingStonesApp(settings=settings)
            async with again.run_test(size=(120, 40)) as pilot:
                while not isinstance(again.screen, ConfirmScreen | RemoteTableScreen):
                    await pilot.pause()
                assert isinstance(again.screen, ConfirmScreen) and code in again.screen.question
                await pilot.press("y")  # take the seat back
                while not isinstance(again.screen, RemoteTableScreen):
                    await pilot.pause()
                second = AppFront(again, pilot)
                second.hear()
                fronts = (plain, page, second)
                for _ in range(2):
                    seat = await _turn_told(table, clock, fronts, names)
                    await _after(table, fronts[seat].act(), fronts[seat])
                await _turn_told(table, clock, fronts, names)
            assert page.errors == [], page.errors
        finally:
            await browser.close()
            status, err = await plain.quit()
            assert status == 0 and "Traceback" not in err, err


def test_a_killed_server_is_told_lost_and_back_by_each_front_end_and_play_goes_on(tmp_path, monkeypatch):
    """``kill -9`` of a real ``host`` in the first hand, in the middle of a trick, with plain mode,
    the page and the app at its table: each says the connection was lost, each is back at the table
    by itself once the server is started again on its folder and port, showing what it showed
    before (the same hand, the same cards played, the same turn), and each tells the next turns as
    the server does (whose, and the seconds) and plays on, a whole trick."""
    async_playwright = _browser(asynchronous=True)
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "app-home"))
    host = Host(tmp_path / "server")
    host.start()
    try:
        asyncio.run(_killed(tmp_path, host.url, async_playwright, lambda _table: host.kill(), host.start))
    finally:
        _out, err = host.stop()
    assert "Traceback" not in err, err


def test_behind_nginx_each_front_end_follows_its_table_to_the_process_that_takes_it_up(tmp_path, monkeypatch, proxied):
    """The same with two ``host`` processes on PostgreSQL behind nginx (``shards_support``): the
    three front ends sit at one table through the proxy; ``kill -9`` of the process that holds it,
    in the middle of a trick; nobody starts it again.  Each front end says the connection was lost
    and is back by itself, at the table now held by the other process, which took it up from the
    store: the same hand, the same cards played, the same turn; and the three play on, a trick."""
    async_playwright = _browser(asynchronous=True)
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "app-home"))
    killed: dict[str, int] = {}

    def kill(table: str) -> None:
        killed[table] = proxied.holder(table)
        proxied.kill(killed[table])

    try:
        asyncio.run(_killed(tmp_path, proxied.public, async_playwright, kill, None))
        ((table, port),) = killed.items()
        assert proxied.holder(table) != port  # the other process holds it now
        assert "Traceback" not in proxied.said[-1], proxied.said[-1]
    finally:
        for port in killed.values():
            proxied.start(port)  # the shared set-up, as it was


CARD_TOLD = re.compile(r"(?:Trick \d+\. )?.+ (?:leads?|plays?) ([CKLB][1-9])\.")
"""A card as plain mode tells it: "Trick 2. Cy leads C8.", "You play C7.", "Bea plays C6."."""


def _status(lines: list[str]) -> str:
    """Plain mode's last words of whose turn it is, without the seconds."""
    last = next(line for line in reversed(lines) if STATUS.match(line))
    return re.sub(r"\d+ s left", "N s left", last)


def _mid_trick(watched) -> bool:
    view = watched.view
    return view is not None and view.phase is Phase.PLAY and len(view.plays) % 3 == 1


async def _seen(watcher: Watcher, fronts: tuple) -> tuple:
    """What the table shows now, once each front end says whose turn it is: the hand, its cards
    played and the seat to act as the server has them (the watcher's), as the app has them, and
    the page's hand, trick and tricks as it was last sent them."""
    seat = await watched_turn(watcher, fronts)
    view = watcher.last.view
    server = (view.hand_number, view.plays, seat)
    app = fronts[2].table.state.view  # its seats counted from its own
    assert (app.hand_number, app.plays) == server[:2], "the app shows what the server has"
    shown = fronts[1].shown[-1]
    page = tuple(json.dumps(shown[k], sort_keys=True) for k in ("title", "contract", "hand", "trick", "tricks"))
    return server, app.to_act, page


async def _killed(folder: Path, url: str, async_playwright, kill, revive) -> None:
    """Plain mode, the page and the app at a table of ``url``; in the middle of a trick of the
    first hand ``kill(table)``, then ``revive()`` (unless None) once each said it lost the server."""
    from stepping_stones.net.client import open_table
    from stepping_stones.storage.settings import Settings
    from stepping_stones.tui.app import SteppingStonesApp
    from stepping_stones.tui.online import RemoteTableScreen

    async with async_playwright() as p:
        opened = await open_table(url, new_table(level="random"))
        code = opened.code
        assert opened.watch is not None
        plain = PlainFront(await Plain.start(url, code, folder / "plain-home", "Ann", lambda _actions: None))
        await plain.line(lambda line: line.startswith("You sit in seat 1"))
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        # on the table's own path: behind a proxy, that reaches the process that holds it
        watcher = Watcher(f"{url}/t/{opened.table}", opened.watch)
        try:
            page = await PageFront.sit(browser, url, code, "Bea")
            await plain.line(lambda line: "seat 2: Bea (person)" in line)
            app = SteppingStonesApp(settings=Settings(pace="instant", trick_pause=False), join=(url, code, "Cy"))
            async with app.run_test(size=(120, 40)) as pilot:
                while not isinstance(app.screen, RemoteTableScreen):
                    await pilot.pause()
                front = AppFront(app, pilot)
                front.hear()
                fronts = (plain, page, front)
                await watcher.connect()
                await watched_move(watcher, fronts)
                while not _mid_trick(await watcher.until(lambda _w: True)):
                    await watched_move(watcher, fronts)
                before = await _seen(watcher, fronts)
                said = _status(plain.lines)
                marks = (len(plain.lines), len(page.shown), front.table.state.view)
                await watcher.close()
                await asyncio.to_thread(kill, opened.table)
                for each in fronts:
                    await each.told("connection to the server was lost")
                if revive is not None:
                    await asyncio.to_thread(revive)
                for each in fronts:
                    await each.told("Back at the table")
                # what the page and the app show now came after they were back (their presentation,
                # their view); plain mode says whose turn it is when that changes: it has not
                await page.shown_since(marks[1])
                await front.until(lambda _rows: front.table.state.view is not marks[2])
                assert _status(plain.lines) == said, plain.lines[marks[0] :]
                watcher = Watcher(f"{url}/t/{opened.table}", opened.watch)
                await watcher.connect()
                assert await _seen(watcher, fronts) == before  # nothing any of them saw is lost
                (hand, plays, _seat), _app, _page = before
                while len(watcher.last.view.plays) < len(plays) + 3:  # a whole trick more
                    await watched_move(watcher, fronts)
                after = watcher.last.view
                assert after.hand_number == hand and after.plays[: len(plays)] == plays
                # and plain mode told each card of the hand once, in order, those before the kill
                # and after it (the last one may be on its way still)
                told = [found.group(1) for line in plain.lines if (found := CARD_TOLD.fullmatch(line))]
                played = [card_name(card) for card in after.plays]
                assert len(plays) < len(told) and told == played[: len(told)], (told, played)
            assert page.errors == [], page.errors
        finally:
            await watcher.close()
            await browser.close()
            status, err = await plain.quit()
            assert status == 0 and "Traceback" not in err, err


class Gate:
    """The computers' decisions in a game's last hand wait until the test lets them go: the people
    take their seats back there, and play it themselves."""

    def __init__(self, thinkers) -> None:
        self.last = 0  # the hand held (0: none)
        self.held = asyncio.Event()  # a decision of that hand waits
        self.go = asyncio.Event()
        decide = thinkers.decision

        async def decision(request, *args):
            if request.view.hand_number == self.last and not self.go.is_set():
                self.held.set()
                await self.go.wait()
            return await decide(request, *args)

        thinkers.decision = decision

    def hold(self, last: int) -> None:
        self.last = last
        self.held.clear()
        self.go.clear()


def test_two_whole_games_with_again_at_one_table(tmp_path, monkeypatch):
    """Ann (plain mode at a terminal), Bea (the page at 390x844) and Cy (the app at 120x40) play
    two whole short games at one table, and "again" between them.  In each game every clock runs
    out in turn and computers play for all three until the last hand, where each person takes
    their seat back and plays it, the declarer claiming.  Each front end's final screen says which
    hands a computer played for whom.  Bea asks again after the first game and Cy after the
    second: the asker's front end sits at the new table by itself, the two others are told who
    asks and sit with one word, key or tap, and all three tell the new table's first turn alike."""
    async_playwright = _browser(asynchronous=True)
    monkeypatch.setenv("STEPPING_STONES_HOME", str(tmp_path / "app-home"))
    asyncio.run(_two_games(tmp_path, async_playwright))


async def _two_games(folder: Path, async_playwright) -> None:
    from stepping_stones.net.client import open_table
    from stepping_stones.storage.settings import Settings
    from stepping_stones.tui.app import SteppingStonesApp

    clock = Clock()
    async with running(folder / "server", clock=clock, timeout=TIMEOUT) as (server, url), async_playwright() as p:
        gate = Gate(server.tables.thinkers)
        code = (await open_table(url, new_table(level="random"))).code
        plain = PlainFront(await Plain.start(url, code, folder / "plain-home", "Ann", lambda _a: None, terminal=True))
        await plain.line(lambda line: line.startswith("You sit in seat 1"))
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = await PageFront.sit(browser, url, code, "Bea")
        await plain.line(lambda line: "seat 2: Bea (person)" in line)
        app = SteppingStonesApp(settings=Settings(pace="instant", trick_pause=False), join=(url, code, "Cy"))
        try:
            async with app.run_test(size=(120, 40)) as pilot:
                cy = AppFront(app, pilot)
                await cy.seated(code)
                by_name = {"Ann": plain, "Bea": page, "Cy": cy}
                for asker, then in (("Bea", ("Ann", "Cy")), ("Cy", ("Ann", "Bea"))):
                    table = server.tables.by_code[code]
                    names = [s.name for s in table.seats]
                    fronts = tuple(by_name[name] for name in names)
                    await _whole_game(server, table, clock, gate, fronts, names)
                    code = await _again(server, table, by_name, asker, then)
                table = server.tables.by_code[code]
                names = [s.name for s in table.seats]
                assert names == ["Cy", "Ann", "Bea"], names  # the asker first, then in the order they came
                await _turn_told(table, clock, tuple(by_name[name] for name in names), names)
            assert page.errors == [], page.errors
        finally:
            gate.go.set()  # the server's stop waits for the computers' decisions
            await browser.close()
            status, err = await plain.quit()  # the end of its input: it leaves, keeping the seat
            assert status == 0 and "Traceback" not in err, err


async def _whole_game(server, table, clock: Clock, gate: Gate, fronts: tuple, names: list[str]) -> None:
    """One whole game (see the test's docstring), to the final screen of each front end."""
    last = table.game.rules.hands
    gate.hold(last)
    while not all(s.stand_in for s in table.seats):  # each person's clock runs out in turn
        await _until(lambda: not table.seats[table.game.to_act].stand_in)
        clock.now += TIMEOUT + 1
        await server.sweep()
    await asyncio.wait_for(gate.held.wait(), WAIT)  # the computers have played to the last hand
    for seat, front in enumerate(fronts):
        await front.take_back()
        try:
            await _until(lambda: not table.seats[seat].stand_in)  # noqa: B023
        except TimeoutError:
            raise AssertionError(f"{front.kind} did not take the seat back:\n{front.now()}") from None
    gate.go.set()  # the held decision is for a seat a person plays again: the table drops it
    claimed = False
    while not table.game.over:
        game = table.game
        if len(game.log[-1].plays) >= 33:  # the last trick: each last card plays itself
            await _until(lambda: table.game.over)
            break
        seat = game.to_act
        assert seat is not None
        if fronts[seat].kind == "plain mode":  # no summary to close: it tells the server it has read it once said
            try:
                await _until(lambda: not table.reading(seat))  # noqa: B023
            except TimeoutError:
                raise AssertionError(f"plain mode never read the summary:\n{fronts[seat].now()}") from None
        if table.reading(seat):  # the summary of the hand the computers finished: its reader closes it
            await all_show(fronts, [turn_pattern(waited_name(seat, own, names), True) for own in range(3)])
            assert await fronts[seat].act() == "summary"
            await _until(lambda: not table.reading(seat))  # noqa: B023
            continue
        await _turn_told(table, clock, fronts, names)
        view = game.view(seat)
        if not claimed and game.phase is Phase.PLAY and view.declarer == seat:
            claimed = True
            assert view.declaration is not None
            await _after(table, fronts[seat].claim("none" if view.declaration.contract.is_win else "all"))
            await _claim_told(fronts)
            continue
        await _after(table, fronts[seat].act())
    assert claimed, "the declarer claimed in the last hand"
    hands = f"hands 1 to {last - 1}"
    for own, front in enumerate(fronts):
        await front.finished()
        for seat in range(3):
            whose = "you" if seat == own else names[seat]
            mine = "yours" if seat == own else "theirs"
            await front.told(f"A computer played for {whose} in {hands}: this result is not all {mine}.")


async def _again(server, table, by_name: dict, asker: str, then: tuple[str, str]) -> str:
    """``asker`` asks again at the finished ``table``; the two others are told who asks and sit at
    the new table, in turn.  The new table's code."""
    await by_name[asker].again()
    await _until(lambda: table.again is not None)
    new, by = table.again
    assert by == asker, table.again
    await _until(lambda: new in server.tables.by_code and server.tables.by_code[new].seats[0].name == asker)
    for n, name in enumerate(then, start=2):
        front = by_name[name]
        await front.told(f"{asker} asks everyone to play again, at a new table with the same setup.")
        await front.again()
        await _until(lambda: server.tables.by_code[new].seats[n - 1].name == name)  # noqa: B023
    for name in (asker, *then):
        await by_name[name].seated(new)
    return new
