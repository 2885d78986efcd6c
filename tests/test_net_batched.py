"""``net.batched.Batched``: the lookups asked while one query of the store runs go together in the
next, each caller given its own key's answer."""

from __future__ import annotations

import asyncio
import threading

import pytest

from stepping_stones.net.batched import Batched


def test_lookups_asked_while_a_query_runs_go_together_in_the_next():
    asked: list[list[int]] = []
    first_runs = threading.Event()
    go_on = threading.Event()

    def many(keys: list[int]) -> dict[int, str]:
        asked.append(keys)
        if len(asked) == 1:
            first_runs.set()
            go_on.wait(60)  # the first query is held until the others have been asked
        return {k: f"v{k}" for k in keys if k != 7}

    async def scenario() -> list[str | None]:
        batched: Batched[int, str] = Batched(many)
        first = asyncio.ensure_future(batched.get(1))
        await asyncio.to_thread(first_runs.wait, 60)
        rest = [asyncio.ensure_future(batched.get(k)) for k in (2, 3, 7, 3)]
        await asyncio.sleep(0)  # every one asked (an event, not a wait on the clock)
        go_on.set()
        return [await first] + [await r for r in rest]

    assert asyncio.run(scenario()) == ["v1", "v2", "v3", None, "v3"]
    assert asked == [[1], [2, 3, 7]]  # 3 asked twice, asked once


def test_a_failed_query_is_each_caller_s_os_error_and_the_next_asks_again():
    calls = 0

    def many(keys: list[str]) -> dict[str, int]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise OSError("the database went away")
        return dict.fromkeys(keys, 1)

    async def scenario() -> int | None:
        batched: Batched[str, int] = Batched(many)
        with pytest.raises(OSError, match="went away"):
            await batched.get("a")
        return await batched.get("a")

    assert asyncio.run(scenario()) == 1
