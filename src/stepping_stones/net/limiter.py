"""The one rate limiter of the servers (``host`` and ``serve``): a token bucket, and a bounded
memory of one per address.

- ``Bucket``: ``rate`` a second after a burst of ``burst``.  ``take(n)`` spends ``n`` if it has
  them (a refusal: ``host``'s allowances); ``delay(n)`` always spends them and says how long to
  hold the message back so that the rate holds (``serve``'s pacing of a tab's input), with
  ``held``, the time held back lately (it halves every ``memory`` seconds: a person is almost
  never held back, a flood always is).
- ``Limiter``: what each key (a client address) may still do, made on first sight, at most
  ``most`` keys: past them the least recently seen is forgotten first (it starts again from a
  full allowance), so a flood of new addresses costs bounded memory and forgets the quiet ones,
  never a busy one.

The clock is given, so a test needs none.  Imports nothing heavy.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["Bucket", "Limiter"]

Clock = Callable[[], float]


class Bucket:
    """A token bucket (see the module's docstring).

    >>> now = [0.0]
    >>> bucket = Bucket(rate=10, burst=10, clock=lambda: now[0])
    >>> bucket.delay(10), bucket.delay(5), bucket.take()
    (0.0, 0.5, False)
    >>> now[0] = 10.0
    >>> bucket.take(), round(bucket.held, 3)
    (True, 0.25)
    """

    def __init__(self, rate: float, burst: float, clock: Clock = time.monotonic, memory: float = 10.0) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self.memory = memory
        self.tokens = float(burst)
        self.held = 0.0
        self.at = clock()

    def _refill(self) -> None:
        now = self.clock()
        elapsed = max(0.0, now - self.at)
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        if self.held:
            self.held *= 0.5 ** (elapsed / self.memory)
        self.at = now

    def take(self, amount: float = 1) -> bool:
        """Spend ``amount`` if the bucket holds it; whether it did."""
        self._refill()
        if self.tokens < amount:
            return False
        self.tokens -= amount
        return True

    def delay(self, amount: float) -> float:
        """Spend ``amount``, and how long to hold it back (0 within the allowance)."""
        self._refill()
        self.tokens -= amount
        wait = 0.0 if self.tokens >= 0 else -self.tokens / self.rate
        self.held += wait
        return wait

    def refund(self, amount: float = 1) -> None:
        self.tokens = min(self.burst, self.tokens + amount)

    def available(self, amount: float = 1) -> bool:
        """Whether ``take(amount)`` would succeed now (nothing is spent)."""
        self._refill()
        return self.tokens >= amount


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Limiter(Generic[K, V]):
    """What each key may still do (``make()`` on first sight), for at most ``most`` keys: past them
    the least recently seen is forgotten first.

    >>> seen = Limiter(lambda: Bucket(1, 2), most=2)
    >>> seen["a"].take(), seen["b"].take(), seen["a"].take(), seen["a"].take()
    (True, True, True, False)
    >>> seen["c"].take(), "b" in seen, "a" in seen  # b was the least recently seen
    (True, False, True)
    """

    def __init__(self, make: Callable[[], V], most: int) -> None:
        self.make = make
        self.most = max(1, most)
        self.seen: OrderedDict[K, V] = OrderedDict()

    def __getitem__(self, key: K) -> V:
        found = self.seen.get(key)
        if found is None:
            while len(self.seen) >= self.most:
                self.seen.popitem(last=False)
            found = self.seen[key] = self.make()
        else:
            self.seen.move_to_end(key)
        return found

    def __contains__(self, key: object) -> bool:
        return key in self.seen

    def __len__(self) -> int:
        return len(self.seen)
