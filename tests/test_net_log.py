"""The servers' one log (``net/log.py``, for ``host`` and ``serve``): one escaped line per event,
never a traceback, and a flood said once."""

from __future__ import annotations

import io
import logging

from net_support import Clock
from stepping_stones.net.log import ServerLog


def test_a_line_is_one_escaped_line_and_a_flood_is_said_once():
    clock = Clock()
    err = io.StringIO()
    log = ServerLog("host", err, clock)
    log("refused a request for 'evil\x1b[2J\nexample'")
    for _ in range(1000):
        log("socket.accept() out of system resource")
    log("x" * 1000)
    clock.now += 60
    log("socket.accept() out of system resource")
    lines = err.getvalue().splitlines()
    assert lines[0] == "host: refused a request for 'evil\\x1b[2J example'"
    assert lines[1:4] == ["host: socket.accept() out of system resource"] * 3
    assert len(lines[4]) == 300
    assert lines[5] == "host: socket.accept() out of system resource (and 997 more like it in the 60 s before)"
    assert len(lines) == 6


def test_a_library_s_record_is_its_first_line_and_the_name_of_its_exception():
    err = io.StringIO()
    log = ServerLog("serve", err)
    record = logging.LogRecord(
        "aiohttp.server",
        logging.ERROR,
        __file__,
        1,
        "Error handling request\nmore",
        (),
        (ValueError, ValueError("boom"), None),
    )
    log.handler.handle(record)
    assert err.getvalue() == "serve: Error handling request (ValueError)\n"
