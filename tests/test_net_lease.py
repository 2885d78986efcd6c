"""How long a hello waits for a table another live process holds (``net/lease.py``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from stepping_stones.net import lease


class _HeldElsewhere:
    """A shared store where every table is held by another live process, which never hands it over."""

    def __init__(self, lease_seconds: float) -> None:
        self.lease_seconds = lease_seconds

    def find_seats(self, digests: list[str]) -> dict[str, tuple[str, int]]:
        return {}

    def take_each(self, table_ids: list[str]) -> dict[str, str | None]:
        return dict.fromkeys(table_ids, "the other process")


@pytest.mark.parametrize(("lease_seconds", "waited"), [(1.0, 3.0), (2.0, 3.0), (5.0, 6.0), (30.0, lease.MOST_WAIT)])
def test_a_hello_waits_for_two_sweeps_however_short_the_lease(monkeypatch, lease_seconds, waited):
    """A live holder hands a table over at its next sweep and this process takes it at its own
    next, a second each: with a 1 s lease a hello waited 2 s, and a handover that took both sweeps
    closed the hello (a watcher behind the proxy saw it once under load).  It waits a little longer
    than two sweeps or than the lease, at most ``MOST_WAIT``, and is then sent elsewhere."""
    timeouts: list[float] = []

    async def wait_for(awaited: Any, timeout: float) -> None:
        timeouts.append(timeout)
        awaited.cancel()
        raise TimeoutError

    monkeypatch.setattr(lease.asyncio, "wait_for", wait_for)
    leases = lease.Leases(_HeldElsewhere(lease_seconds))  # type: ignore[arg-type]
    with pytest.raises(lease.Elsewhere):
        asyncio.run(leases.take("t1"))
    assert timeouts == [waited]
