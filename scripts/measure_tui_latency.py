"""Key latency while an AI seat is thinking (the seat is slowed to think for 2 s of pure CPU)."""
import asyncio, os, sys, tempfile, time
os.environ["STEPPING_STONES_HOME"] = tempfile.mkdtemp()
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from textual import events
from stepping_stones.settings import Settings
from stepping_stones.tui.seats import make_seat
from stepping_stones.engine import Phase
import tui_support

class Slow:
    def __init__(self, inner): self.inner = inner
    def _spin(self):
        end = time.perf_counter() + 2.0
        x = 0
        while time.perf_counter() < end:
            x += sum(range(200))
    def choose_bid(self, v, r): self._spin(); return self.inner.choose_bid(v, r)
    def choose_card(self, v, r): self._spin(); return self.inner.choose_card(v, r)

async def main():
    app = tui_support.make_app(settings=Settings(pace="instant", colour="colour"), levels=("heuristic", "heuristic"), seed="lat")
    lat = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(); await tui_support.press(pilot, "enter"); await pilot.pause()
        table = app.table
        table.seats = {s: Slow(make_seat("heuristic")) for s in (1, 2)}
        while len(lat) < 12:
            if table.thinking:
                before = app.settings.pace
                ev = events.Key("f", "f"); ev.set_sender(app)
                t = time.perf_counter(); app._driver.send_message(ev)
                while app.settings.pace == before:
                    await asyncio.sleep(0.001)
                lat.append(time.perf_counter() - t)
                await asyncio.sleep(0.05)
                continue
            screen = await tui_support.wait_for_person(pilot)
            if table.game.phase is Phase.BIDDING:
                await tui_support.press(pilot, "p")
            elif screen is table:
                cards = table.my_cards(); legal = [i for i, c in enumerate(cards) if table.game.legal_cards_mask() >> c & 1]
                await tui_support.press(pilot, tui_support.CARD_KEYS[legal[0]], "enter")
            else:
                await tui_support.press(pilot, "enter")
    lat.sort()
    print(f"key answered while an AI thinks: n={len(lat)} median {lat[len(lat)//2]*1000:.1f} ms, max {lat[-1]*1000:.1f} ms")
asyncio.run(main())
