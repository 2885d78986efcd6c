"""Key latency while an AI seat is thinking (the seat is slowed to think for 2 s of pure CPU).

Run from the repository: ``python scripts/measure_tui_latency.py [--spin SECONDS] [--keys N]``.
"""

import argparse
import asyncio
import os
import sys
import tempfile
import time

os.environ["STEPPING_STONES_HOME"] = tempfile.mkdtemp()
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from textual import events

import tui_support
from stepping_stones.ai import make_ai
from stepping_stones.engine import Phase
from stepping_stones.storage.settings import Settings


class Slow:
    """An AI seat that spins the CPU for ``spin`` seconds (two by default) before each answer."""

    def __init__(self, inner, spin=2.0):
        self.inner = inner
        self.name = inner.name
        self.spin = spin

    def _spin(self):
        end = time.perf_counter() + self.spin
        x = 0
        while time.perf_counter() < end:
            x += sum(range(200))

    def choose_bid(self, view, rng):
        self._spin()
        return self.inner.choose_bid(view, rng)

    def choose_card(self, view, rng):
        self._spin()
        return self.inner.choose_card(view, rng)


async def main(spin, keys):
    settings = Settings(pace="instant", colour="colour")
    app = tui_support.make_app(settings=settings, levels=("heuristic", "heuristic"), seed="lat")
    lat = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await tui_support.press(pilot, "enter")
        await pilot.pause()
        table = app.table
        table.flow.seats[1:] = [Slow(make_ai("heuristic"), spin), Slow(make_ai("heuristic"), spin)]
        table.flow.match = table.flow._match(table.game)
        while len(lat) < keys:
            if table.state.thinking is not None:
                before = app.settings.pace
                key = events.Key("f", "f")
                key.set_sender(app)
                start = time.perf_counter()
                app._driver.send_message(key)
                while app.settings.pace == before:
                    await asyncio.sleep(0.001)
                lat.append(time.perf_counter() - start)
                await asyncio.sleep(0.05)
                continue
            screen = await tui_support.wait_for_person(pilot)
            if table.game.phase is Phase.BIDDING:
                await tui_support.press(pilot, "p")
            elif screen is table:
                cards = table.state.my_cards
                legal = [i for i, c in enumerate(cards) if table.game.legal_cards_mask() >> c & 1]
                await tui_support.press(pilot, tui_support.CARD_KEYS[legal[0]], "enter")
            else:
                await tui_support.press(pilot, "enter")
    lat.sort()
    median, worst = lat[len(lat) // 2] * 1000, lat[-1] * 1000
    print(f"key answered while an AI thinks: n={len(lat)} median {median:.1f} ms, max {worst:.1f} ms")


parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--spin", type=float, default=2.0, help="seconds each AI answer spins the CPU (default 2)")
parser.add_argument("--keys", type=int, default=12, help="keys timed (default 12)")
args = parser.parse_args()
asyncio.run(main(args.spin, args.keys))
