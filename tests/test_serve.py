"""``stepping-stones serve``: the door (Host and Origin), the limits on what a tab may cost, true
messages, and a game played by keyboard in a real (headless) Chromium.

Every hostile case is sent by a raw client on loopback, as an attacker's page or script would.
The browser tests need Playwright and a Chromium on this machine (Debian: ``apt-get install
chromium``); where either is missing they are skipped and say which.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import http.client
import http.server
import json
import os
import queue
import re
import resource
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

import aiohttp
import pytest

from stepping_stones.engine import CARD_NAMES
from stepping_stones.net.limiter import Bucket
from stepping_stones.serve import Door, DoorError, Limits, is_loopback
from stepping_stones.serve.tabs import BadMessage, parse_message
from stepping_stones.storage.records import load_game
from stepping_stones.storage.session import open_elsewhere
from stepping_stones.storage.settings import Pace, Settings

CHROMIUM = next(
    (p for p in (shutil.which("chromium"), shutil.which("chromium-browser"), shutil.which("google-chrome")) if p), None
)
LINUX = sys.platform.startswith("linux")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux: read from /proc), zombies left out."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid and fields[0] != "Z":
                    found.add(int(entry.name))
    return found


def handles(pids: set[int]) -> dict[int, int]:
    """A handle on each process (a Linux pidfd) that tells when it ends; take it while the
    process certainly runs."""
    return {pid: os.pidfd_open(pid) for pid in pids}


def ends(pid: int, handle: int) -> None:
    """Wait until the process ``pid`` has ended (its ``handle`` becomes readable); the minute is
    a safety net, not a measure: past it the test fails."""
    try:
        ended, _, _ = select.select([handle], [], [], 60)
    finally:
        os.close(handle)
    assert ended, f"the process {pid} did not end"


class Served:
    """``stepping-stones serve`` running in its own process, with its own home folder."""

    def __init__(self, home: Path, *args: str, port: int | None = None) -> None:
        self.home = home
        self.port = port or free_port()
        (home / "config").mkdir(parents=True, exist_ok=True)
        # The AI seats answer quickly, so the test waits on the game, not on the pace; not at
        # once, or the line "You play ..." could be pushed out of the log by the next cards
        # before the page is ever drawn with it.
        self.set_pace("fast")
        env = {**os.environ, "STEPPING_STONES_HOME": str(home), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "stepping_stones", "serve", "--port", str(self.port), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.origin = f"http://127.0.0.1:{self.port}"
        self.url = self.origin + "/"
        self.lines: queue.Queue[str | None] = queue.Queue()  # stdout, line by line as printed
        self.err_lines: queue.Queue[str | None] = queue.Queue()  # stderr, the same
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [
            threading.Thread(target=self._read, args=(self.proc.stdout, self.out, self.lines), daemon=True),
            threading.Thread(target=self._read, args=(self.proc.stderr, self.err, self.err_lines), daemon=True),
        ]
        for reader in self.readers:
            reader.start()
        first = self.lines.get(timeout=60)  # the server says where it is once the port is bound
        if first is None or "is served at" not in first:
            _, _, err = self.stop()
            raise AssertionError(f"the server did not start: {first!r} {err}")

    def set_pace(self, pace: Pace) -> None:
        """The computers' pace in the games the server's tabs start from now on (no trick pause)."""
        (self.home / "config" / "settings.json").write_text(json.dumps(asdict(Settings(pace=pace, trick_pause=False))))

    def _read(self, stream, lines: list[str], tell: queue.Queue[str | None]) -> None:
        for line in stream:
            lines.append(line)
            tell.put(line)
        tell.put(None)

    def stop(self, sig: int = signal.SIGINT) -> tuple[int, str, str]:
        """Ctrl+C, as a person at the terminal would; the exit status and what was printed."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"Ctrl+C did not stop the server: {''.join(self.err)}") from None
        for reader in self.readers:
            reader.join(timeout=30)
        return self.proc.returncode, "".join(self.out), "".join(self.err)

    def request(self, path: str = "/", headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
        """A raw HTTP request, headers exactly as given (no Host unless given or defaulted); its
        body is in ``response.body``."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = dict(headers or {})
        connection.putrequest("GET", path, skip_host="Host" in headers or bool(headers.pop("_no_host", "")))
        for name, value in headers.items():
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        response.body = response.read().decode("utf-8", "replace")  # type: ignore[attr-defined]
        connection.close()
        return response


@pytest.fixture
def served(tmp_path):
    server = Served(tmp_path / "home")
    yield server
    server.stop()


class _Marks:
    """What a shared server logged for one test's requests, and nothing of another test's::

        with marks() as logged:
            ...  # the test's requests
        assert logged == [...]

    The server writes (and flushes) its line for a refusal before it answers, and a test sends
    its requests one after the other, so its stderr holds the lines in the order of the
    requests.  A refused request with a Host of its own (``mark-N``) is a mark: on entry the
    block waits for a first mark's line (every line before it is an earlier test's); on exit it
    sends a second mark and gives the lines between the two, read as they arrive."""

    def __init__(self, server: Served) -> None:
        self.server = server
        self.count = 0

    def _mark(self) -> str:
        self.count += 1
        host = f"mark-{self.count}"
        assert self.server.request("/", {"Host": host}).status == 403
        return f"serve: refused a request for {host!r}: not a name of this server\n"

    def _until(self, mark: str) -> list[str]:
        lines = []
        while (line := self.server.err_lines.get(timeout=60)) != mark:  # a safety net: never reached when all is well
            assert line is not None, f"the server's stderr ended: {self.server.err}"
            lines.append(line)
        return lines

    @contextlib.contextmanager
    def __call__(self) -> Iterator[list[str]]:
        self._until(self._mark())
        logged: list[str] = []
        yield logged
        logged.extend(self._until(self._mark()))


@pytest.fixture(scope="module")
def door(tmp_path_factory):
    """One server for the tests that only send requests it refuses or answers with a page (no
    tab is opened on it, nothing is killed): its stderr is read per test through ``_Marks``,
    and whole at the end, where it must hold no traceback.  These tests keep to one process
    (``SHARED``), so the server starts once."""
    server = Served(tmp_path_factory.mktemp("door") / "home")
    try:
        yield server, _Marks(server)
    finally:
        status, out, err = server.stop()
    assert status == 0, err
    assert "Traceback" not in out + err


SHARED = pytest.mark.xdist_group("serve-door")  # the tests of the shared server ``door``, in one process


def upgrade_headers(origin: str | None, host: str) -> dict[str, str]:
    headers = {
        "Host": host,
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
    }
    if origin is not None:
        headers["Origin"] = origin
    return headers


async def _first_frame(ws: aiohttp.ClientWebSocketResponse, timeout: float = 60) -> bytes:
    """The first bytes the tab's app draws (it has started); b"" if the tab was closed first."""
    async with asyncio.timeout(timeout):
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                return bytes(message.data)
    return b""


async def _until_closed(ws: aiohttp.ClientWebSocketResponse, timeout: float = 60) -> bytes:
    """Everything drawn until the server closes the tab."""
    drawn = b""
    async with asyncio.timeout(timeout):
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                drawn += message.data
    return drawn


# --- the door ---------------------------------------------------------------------------------


def test_the_page_answers_on_127_0_0_1_with_the_game_as_its_title(served):
    response = served.request("/")
    assert response.status == 200
    page = response.body
    assert "<title>Stepping Stones</title>" in page
    assert f"ws://127.0.0.1:{served.port}/ws" in page
    # bound to this machine only: nothing listens on the other addresses
    other = socket.gethostbyname(socket.gethostname())
    if other != "127.0.0.1" and not other.startswith("127."):
        with pytest.raises(OSError), socket.create_connection((other, served.port), timeout=2):
            pass
    status, out, err = served.stop()
    assert status == 0, err
    assert f"Stepping Stones is served at http://127.0.0.1:{served.port}/" in out
    assert "The server has stopped." in out
    assert "open game" not in out  # no tab was open
    assert "Traceback" not in out + err and "Warning" not in err


@SHARED
def test_the_page_loads_nothing_from_elsewhere_and_cannot_be_framed(door):
    served, marks = door
    with marks() as logged:
        response = served.request("/")
        page = response.body
        policy = response.getheader("Content-Security-Policy") or ""
        assert "frame-ancestors 'none'" in policy and "default-src 'none'" in policy
        assert response.getheader("X-Frame-Options") == "DENY"
        # every URL in the page is this server's own
        urls = [
            u for u in re.findall(r"""(?:https?|wss?)://[^\s"')]+""", page) if not u.startswith("http://www.w3.org/")
        ]  # an SVG namespace, not a request
        assert urls and all(re.match(rf"(?:http|ws)://127\.0\.0\.1:{served.port}/", u) for u in urls), urls
        assert "googleapis" not in page
        fonts = re.findall(r'url\("([^"]+\.ttf)"\)', page)
        assert fonts, "the page names its bundled font"
        for font in fonts:
            assert served.request(font.split(str(served.port), 1)[1]).status == 200
        # no folder listings
        for folder in ("/static/", "/static/js/", "/static/fonts/"):
            assert served.request(folder).status in (403, 404)
    assert logged == []  # a page, its font and folders refused: nothing to log


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:{port}", "127.0.0.1:1", "localhost.evil:{port}", "127.0.0.1:{port}@evil", ""]
)
@SHARED
def test_a_request_that_names_another_host_is_refused(door, host):
    """DNS rebinding: a name that resolves to 127.0.0.1 is not one of the server's names."""
    served, marks = door
    host = host.format(port=served.port)
    with marks() as logged:
        for path in ("/", "/static/js/textual.js"):
            assert served.request(path, {"Host": host}).status == 403
        assert served.request("/ws", upgrade_headers(served.origin, host)).status == 403
    assert logged == [f"serve: refused a request for {host or 'no host'!r}: not a name of this server\n"] * 3


@SHARED
def test_a_request_without_a_host_is_refused(door):
    served, marks = door
    with marks() as logged:
        assert served.request("/", {"_no_host": "yes"}).status in (400, 403)
    assert len(logged) == 1 and "Traceback" not in logged[0], logged  # one line, as for every refusal


@SHARED
def test_the_server_answers_to_its_loopback_names(door):
    served, marks = door
    with marks() as logged:
        for host in (f"127.0.0.1:{served.port}", f"localhost:{served.port}", f"LOCALHOST:{served.port}"):
            assert served.request("/", {"Host": host}).status == 200
    assert logged == []


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "null",
        None,
        "http://127.0.0.1:1",
        "https://127.0.0.1:{port}",
        "http://127.0.0.1:{port}.evil.example",
        "file://",
        "http://user@127.0.0.1:{port}",
    ],
)
@SHARED
def test_a_websocket_from_another_origin_is_refused(door, origin):
    """Cross-site websocket hijacking: only the page's own origin may open a game."""
    served, marks = door
    origin = origin.format(port=served.port) if origin else origin
    with marks() as logged:
        response = served.request("/ws", upgrade_headers(origin, f"127.0.0.1:{served.port}"))
        assert response.status == 403
        assert children(served.proc.pid) == set() if LINUX else True  # no app was started
    assert logged == [f"serve: refused a websocket from {origin or 'no origin'!r}: not a page of this server\n"]


def test_the_pages_own_origin_opens_a_game(served):
    async def main() -> bytes:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(served.origin + "/ws", origin=served.origin)
            drawn = await _first_frame(ws)
            await ws.close()
            return drawn

    assert asyncio.run(main())


@SHARED
def test_a_plain_get_of_the_websocket_is_one_line_not_a_traceback(door):
    served, marks = door
    with marks() as logged:
        assert served.request("/ws", {"Origin": served.origin}).status == 400
        assert served.request("/ws").status == 403
    assert "Traceback" not in "".join(logged) and len(logged) <= 2, logged


def test_another_host_needs_a_public_url(tmp_path):
    env = {**os.environ, "STEPPING_STONES_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-m", "stepping_stones", "serve", "--host", "0.0.0.0", "--port", str(free_port())],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("serve: listening on 0.0.0.0 needs --public-url URL")
    assert len(done.stderr.strip().splitlines()) == 1 and done.stdout == ""


def test_the_public_url_is_the_pages_address_and_its_only_name(tmp_path):
    port = free_port()
    public = f"http://games.example:{port}"
    server = Served(tmp_path / "home", "--host", "0.0.0.0", "--public-url", public, port=port)
    try:
        assert server.request("/", {"Host": f"127.0.0.1:{port}"}).status == 403
        assert server.request("/", {"Host": f"0.0.0.0:{port}"}).status == 403
        page = server.request("/", {"Host": f"games.example:{port}"}).body
        assert f"ws://games.example:{port}/ws" in page and "0.0.0.0" not in page
        assert server.request("/ws", upgrade_headers(f"http://127.0.0.1:{port}", f"games.example:{port}")).status == 403
    finally:
        status, out, err = server.stop()
    assert status == 0
    assert f"is served at {public}/" in out
    assert "Warning: serving on 0.0.0.0" in err and "anyone who can reach port" in err


def test_doors():
    door = Door.open("127.0.0.1", 8000)
    assert door.host_allowed("[::1]:8000") and not door.host_allowed("[::1]:80")
    assert door.origin_allowed("http://[::1]:8000") and not door.origin_allowed("http://[::2]:8000")
    public = Door.open("0.0.0.0", 8000, "https://cards.example")
    assert public.host_allowed("cards.example") and public.host_allowed("cards.example:443")
    assert public.origin_allowed("https://cards.example") and not public.origin_allowed("http://cards.example")
    assert not public.host_allowed("127.0.0.1:8000")
    for bad in ("ftp://x", "http://", "http://x/path", "not a url", "http://x?q=1"):
        with pytest.raises(DoorError):
            Door.open("0.0.0.0", 8000, bad)
    with pytest.raises(DoorError):
        Door.open("192.168.1.5", 8000)


def test_loopback_addresses():
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert is_loopback("127.0.0.2")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5") and not is_loopback("example.org")


# --- what a tab may send ------------------------------------------------------------------------


def test_messages_are_checked_and_sizes_clamped():
    limits = Limits()
    assert parse_message('["resize", {"width": -5, "height": 0}]', limits).width == 1
    big = parse_message('["resize", {"width": 5000, "height": 2000}]', limits)
    assert (big.width, big.height) == (limits.max_width, limits.max_height)
    assert parse_message('["future-kind", 1]', limits).kind == "ignored"
    for bad in (
        '["resize", {"width": "80", "height": 24}]',
        '["resize", {"width": true, "height": 24}]',
        '["resize", {"width": 1.5, "height": 24}]',
        '["resize"]',
        '["stdin"]',
        '["stdin", ["a"]]',
        '"stdin"',
        "[]",
        "[1]",
        "{",
        "[" * 5000,
        '["ping", "' + "9" * 100 + '"]',
        json.dumps(["stdin", "a" * (limits.max_input + 1)]),
        " " * (limits.max_message + 1),
    ):
        with pytest.raises(BadMessage):
            parse_message(bad, limits)


def test_the_allowance_holds_a_flood_back_and_lets_a_person_through():
    now = [0.0]
    person = Bucket(rate=1024, burst=8192, clock=lambda: now[0])
    for _ in range(600):  # a minute of brisk typing and mouse moves: 100 bytes a second
        now[0] += 0.1
        assert person.delay(10) == 0.0
    flood = Bucket(rate=1024, burst=8192, clock=lambda: now[0])
    waits = [flood.delay(4000) for _ in range(6)]
    assert waits[:2] == [0.0, 0.0] and waits[-1] > 0 and flood.held > 5


@pytest.mark.parametrize(
    "payload",
    [
        "not json",
        '{"a": 1}',
        '["resize", {"width": "x", "height": 3}]',
        '["stdin", 5]',
        "[" * 20000,
        json.dumps(["stdin", "a" * 3_000_000]),
    ],
    ids=["not-json", "not-a-list", "resize-text", "stdin-number", "deep", "3-MB"],
)
def test_a_malformed_message_closes_its_tab_with_one_line(served, payload):
    async def main() -> int | None:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(served.origin + "/ws", origin=served.origin, max_msg_size=0)
            assert await _first_frame(ws)
            with contextlib.suppress(ConnectionError):
                await ws.send_str(payload)
            await _until_closed(ws)
            return ws.close_code

    code = asyncio.run(main())
    assert code in (1008, 1009, 1006)
    status, out, err = served.stop()
    assert status == 0
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("serve: closed a tab from 127.0.0.1: it sent "), err
    assert "Traceback" not in out + err


def test_input_faster_than_a_person_closes_the_tab_and_its_app(served):
    async def main() -> int | None:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(served.origin + "/ws", origin=served.origin)
            assert await _first_frame(ws)
            message = json.dumps(["stdin", "x" * 4000])
            with contextlib.suppress(ConnectionError):
                for _ in range(200):
                    await ws.send_str(message)
            await _until_closed(ws)
            return ws.close_code

    assert asyncio.run(main()) == 1008
    status, _, err = served.stop()
    assert status == 0
    assert "it sent input faster than a person types" in err


def test_a_tab_that_goes_ends_its_app_even_after_an_absurd_size(served):
    """5000×2000 then F1: the size is clamped, the app draws, and when the tab goes the app is
    ended (it is not left blocked on a pipe nobody reads) while the server runs on."""

    async def main() -> dict[int, int]:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(served.origin + "/ws?width=99999&height=-3", origin=served.origin)
            assert await _first_frame(ws)
            apps = handles(children(served.proc.pid)) if LINUX else {}
            await ws.send_str(json.dumps(["resize", {"width": 5000, "height": 2000}]))
            await ws.send_str(json.dumps(["stdin", "\x1bOP"]))  # F1: the rules, a tall screen
            await ws.close()
            return apps

    apps = asyncio.run(main())
    if LINUX:
        assert len(apps) == 1
        for app, handle in apps.items():
            ends(app, handle)  # the tab went: the server ends its app (quit, SIGTERM, SIGKILL)
    assert served.proc.poll() is None
    status, out, err = served.stop()
    assert status == 0 and "Traceback" not in out + err


def test_tabs_past_the_limit_are_told_why_and_start_no_app(tmp_path):
    server = Served(tmp_path / "home", "--max-tabs", "1")

    async def main() -> bytes:
        async with aiohttp.ClientSession() as session:
            first = await session.ws_connect(server.origin + "/ws", origin=server.origin)
            assert await _first_frame(first)
            second = await session.ws_connect(server.origin + "/ws", origin=server.origin)
            told = await _first_frame(second)
            if LINUX:
                assert len(children(server.proc.pid)) == 1
            await second.close()
            await first.close()
            return told

    try:
        told = asyncio.run(main()).decode()
    finally:
        _, _, err = server.stop()
    assert "1 tab is already playing on this server" in told and "Close one of them" in told
    assert "turned a tab away" in err


@pytest.mark.skipif(not LINUX, reason="counts open files and processes through /proc")
def test_a_pile_of_idle_connections_does_not_keep_a_real_client_out(served):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1300:
        pytest.skip(f"this process may open only {hard} files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1300), hard))
    idle = []
    try:
        for n in range(1100):
            connection = socket.create_connection(("127.0.0.1", served.port), timeout=30)
            if n % 2:
                connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # half a request
            idle.append(connection)
        assert served.request("/").status == 200
    finally:
        for connection in idle:
            connection.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_port_in_use_is_one_sentence(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        env = {**os.environ, "STEPPING_STONES_HOME": str(tmp_path / "home")}
        done = subprocess.run(
            [sys.executable, "-m", "stepping_stones", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stdout == ""  # never "is served at" for a server that is not
    assert done.stderr.startswith(f"serve: cannot listen on 127.0.0.1 port {port}: ")
    assert len(done.stderr.strip().splitlines()) == 1


def refused(args: list[str], capsys, monkeypatch) -> str:
    """What ``stepping-stones ARGS`` in this process says on stderr; it must exit with status 2
    (returned, or argparse's SystemExit) and print nothing on stdout.  Arguments that were let
    through fail the test at once instead of starting a server in the test's process."""
    from stepping_stones import serve as serve_package
    from stepping_stones.cli import main

    def served(*args, **kwargs):
        raise AssertionError("the arguments were taken: the server would have started")

    monkeypatch.setattr(serve_package, "serve", served)
    try:
        code = main(args)
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (code, out, err)
    return err


def test_bad_arguments_are_refused(tmp_path, capsys, monkeypatch):
    """One in its own process (the exit status and stderr as a person sees them); one that the
    command line refuses, in this one; a public URL that the server refuses before it binds,
    in its own process again (in this one a slip would start a server)."""
    for args, words in (
        (["--port", "99999"], "99999 is not a port number"),
        (["--public-url", "ftp://x"], "must be an http:// or https:// address"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "stepping_stones", "serve", *args],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "STEPPING_STONES_HOME": str(tmp_path / "home")},
        )
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    err = refused(["serve", "--max-tabs", "0"], capsys, monkeypatch)
    assert "choose 1 to 64" in err and "Traceback" not in err, err


def test_ctrl_c_ends_every_app_and_counts_only_games_in_progress(served):
    """Two tabs on the setup screen: Ctrl+C ends both apps, and says no game was saved."""

    async def main() -> dict[int, int]:
        async with aiohttp.ClientSession() as session:
            tabs = [await session.ws_connect(served.origin + "/ws", origin=served.origin) for _ in range(2)]
            for tab in tabs:
                assert await _first_frame(tab)
            apps = handles(children(served.proc.pid)) if LINUX else {}
            stopped = served.stop()
            for tab in tabs:
                await _until_closed(tab)
            assert stopped[0] == 0
            assert "The server has stopped." in stopped[1] and "open game" not in stopped[1], stopped[1]
            return apps

    apps = asyncio.run(main())
    assert len(apps) == (2 if LINUX else 0)
    for app, handle in apps.items():
        ends(app, handle)


@pytest.mark.skipif(not LINUX, reason="the apps die with the server through a Linux prctl; pidfds are Linux's")
def test_no_app_outlives_the_server(served):
    async def main() -> dict[int, int]:
        async with aiohttp.ClientSession() as session:
            tabs = [await session.ws_connect(served.origin + "/ws", origin=served.origin) for _ in range(2)]
            for tab in tabs:
                assert await _first_frame(tab)
            apps = handles(children(served.proc.pid))
            served.proc.kill()  # kill -9: no chance to end them
            served.proc.wait()
            for tab in tabs:
                await _until_closed(tab)
            return apps

    apps = asyncio.run(main())
    assert len(apps) == 2
    for app, handle in apps.items():
        ends(app, handle)  # or it outlived its server


# --- in a real browser ------------------------------------------------------------------------

SAFETY_MS = 120_000  # how long a browser test waits for an event before it fails: never reached when all is well
ANSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[\]P^_].*?(?:\x07|\x1b\\)|\x1b[()][0-9A-B]|\x1b[=>78]")


def _browser(asynchronous: bool = False):
    """Playwright's ``sync_playwright`` (or with ``asynchronous``, ``async_playwright``), or the
    test skipped, saying why."""
    if CHROMIUM is None:
        pytest.skip("no Chromium on this machine (Debian: apt-get install chromium)")
    try:
        from playwright.async_api import async_playwright
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright is not installed (pip install -e '.[test]')")
    return async_playwright if asynchronous else sync_playwright


class Screen:
    """What the app in the page has drawn: the terminal output the page received, as text.

    Waiting is on the frames themselves (Playwright's events): the timeouts are safety nets."""

    def __init__(self, page) -> None:
        self.page = page
        self.chunks: list[bytes] = []
        self.sockets: list = []
        page.on("websocket", self._opened)

    def _opened(self, ws) -> None:
        self.sockets.append(ws)
        ws.on("framereceived", self._frame)  # before any waiter below: it sees every frame first

    def _frame(self, payload) -> None:
        if isinstance(payload, bytes):
            self.chunks.append(payload)

    def text(self) -> str:
        return ANSI.sub("", b"".join(self.chunks).decode("utf-8", "replace"))

    def _socket(self):
        if not self.sockets:
            self.page.wait_for_event("websocket", timeout=SAFETY_MS)
        return self.sockets[-1]

    def next_frame(self) -> None:
        """Wait until the app draws again."""
        self._socket().wait_for_event("framereceived", timeout=SAFETY_MS)

    def wait_for(self, *words: str) -> None:
        """Wait until one of ``words`` has been drawn."""

        def drawn(_=None) -> bool:
            text = self.text()
            return any(w in text for w in words)

        if not drawn():
            self._socket().wait_for_event("framereceived", predicate=drawn, timeout=SAFETY_MS)


def _saved(home: Path):
    path = home / "data" / "current.json"
    try:
        return load_game(path)
    except Exception:  # not written yet, or between writes
        return None


def test_a_game_in_chromium_by_keyboard(served, monkeypatch):
    sync_playwright = _browser()
    # The computers take the slow pace here (1.2 s a card, not 0.25 s), so that the line that
    # tells the person's card is drawn before the cards after it push it out of the log's six
    # lines, even on a loaded machine.  (The tab's app reads the settings when it starts.)
    served.set_pace("slow")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 820})
            requests: list[str] = []
            problems: list[str] = []
            page.on("request", lambda request: requests.append(request.url))
            page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
            screen = Screen(page)
            page.goto(served.url)
            assert page.title() == "Stepping Stones"
            screen.wait_for("Start game")
            page.locator(".xterm-screen").click()
            page.keyboard.press("Enter")  # the setup screen's Start game
            played = None
            acted: tuple[tuple[int, int, int], int] | None = None  # (position, frames seen) at the last keys
            while played is None:
                # Every move is saved before the frame that shows it is drawn, so the save is read
                # again after each frame.  The person acts when the save says it is their turn, in a
                # position not yet acted on or with frames drawn since (a refusal): a turn that came
                # before the wait is acted on at once, never waited for a frame that will not come.
                game = _saved(served.home)
                frames = len(screen.chunks)
                if game is not None:
                    hand = game.log[-1] if game.log else None
                    mine = [c for k, c in enumerate(hand.plays) if hand.play_seat(k) == 0] if hand else []
                    if mine:
                        played = mine[0]
                        break
                    position = (len(game.log), len(hand.bids) if hand else 0, len(hand.plays) if hand else 0)
                    if game.to_act == 0 and (acted is None or acted[0] != position or acted[1] < frames):
                        if game.phase.name == "BIDDING":
                            page.keyboard.press("Enter" if game.in_puddle else "p")  # declare, or pass
                        else:
                            page.keyboard.press("ArrowRight")  # the next card, then play it (or be told no)
                            page.keyboard.press("Enter")
                        # the frames counted are those before the keys: a frame drawn while they
                        # travel (the turn's own, say, if the keys beat the app to it and were lost)
                        # lets the person act again in the same position rather than wait forever
                        acted = (position, frames)
                        continue
                screen.next_frame()
            # "You lead ..." where the person opens the trick: as the declarer, when the puddle
            # made them declare (the deal is random, so some runs do).
            screen.wait_for(*(f"You {verb} {CARD_NAMES[played]}." for verb in ("play", "lead")))
            # the bundled font is the one in use, and nothing was asked of another machine
            assert page.evaluate("document.fonts.check('16px \"Roboto Mono\"')")
            assert all(url.startswith((served.origin, f"ws://127.0.0.1:{served.port}")) for url in requests), requests
            assert not [p for p in problems if "Content Security Policy" in p], problems
            if os.environ.get("STEPPING_STONES_SCREENSHOT"):
                page.screenshot(path=os.environ["STEPPING_STONES_SCREENSHOT"])
            # Ctrl+C with the tab still open: its app is told to quit, and the page says so
            status, out, err = served.stop()
            page.wait_for_function("document.body.innerText.includes('Session ended')", timeout=SAFETY_MS)
        finally:
            browser.close()
    assert status == 0, err
    assert "(1 open game saved)" in out
    assert "Traceback" not in out + err
    # the game is saved where the app saves, with the card the page played, and no copy holds it
    game = _saved(served.home)
    assert game is not None and any(played in hand.plays for hand in game.log)
    monkeypatch.setenv("STEPPING_STONES_HOME", str(served.home))
    assert not open_elsewhere(served.home / "data" / "current.json")


class _QuietFiles(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args) -> None:
        pass


def test_a_page_on_another_origin_can_neither_play_nor_frame_the_game(served, tmp_path):
    """The attack the browser door is for: a page the person visits, on another port, opens the
    game's websocket and frames the game.  Neither works, and no app is started."""
    sync_playwright = _browser()
    evil = tmp_path / "evil"
    evil.mkdir()
    (evil / "index.html").write_text(f"""<!DOCTYPE html><html><body>
<iframe id="frame" src="{served.url}"></iframe>
<script>
  window.result = "pending";
  const ws = new WebSocket("ws://127.0.0.1:{served.port}/ws?width=80&height=24");
  ws.onopen = () => {{ window.result = "opened"; ws.send(JSON.stringify(["stdin", "\\r"])); }};
  ws.onerror = () => {{ window.result = "refused"; }};
</script></body></html>""")
    # the other site, listening from the moment it is made (its socket is bound and listening)
    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietFiles, directory=str(evil)))
    evil_port = other.server_address[1]
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{evil_port}/")
                page.wait_for_function("window.result !== 'pending'", timeout=SAFETY_MS)
                assert page.evaluate("window.result") == "refused"
                framed = page.frame_locator("#frame").locator("body")
                assert framed.count() == 0 or "Stepping Stones" not in (framed.inner_text(timeout=2000) or "")
            finally:
                browser.close()
    finally:
        other.shutdown()
        other.server_close()
    if LINUX:
        assert children(served.proc.pid) == set()
    _, _, err = served.stop()
    assert "refused a websocket from 'http://127.0.0.1:" in err


def test_a_tab_that_answers_no_heartbeat_is_logged_as_gone_not_as_a_bad_message():
    import io

    from aiohttp import WSMessage, WSMsgType

    from stepping_stones.serve.server import HEARTBEAT, GameServer

    class Silent:
        """A websocket whose page stopped answering aiohttp's pings: what aiohttp hands on then."""

        timeout = TimeoutError(f"No PONG received after {HEARTBEAT} seconds")

        def exception(self) -> BaseException:
            return self.timeout

        async def __aiter__(self):
            yield WSMessage(WSMsgType.ERROR, self.timeout, None)

    err = io.StringIO()
    server = GameServer("127.0.0.1", 8000, io.StringIO(), err)
    reason = asyncio.run(server._pump(Silent(), None, "192.0.2.7"))  # type: ignore[arg-type]
    assert reason is None  # not a page that broke the rules: nothing is said to it
    assert err.getvalue() == (
        f"serve: closed a tab from 192.0.2.7: it answered no heartbeat for {HEARTBEAT:g} s "
        "(the page or its network is gone)\n"
    )
