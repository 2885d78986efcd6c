"""Time from starting Python to the setup screen painted (headless, 80x24): import, init, first paint."""

import os
import tempfile
import time

t0 = time.perf_counter()
os.environ["STEPPING_STONES_HOME"] = tempfile.mkdtemp()
from stepping_stones.tui.app import SteppingStonesApp  # noqa: E402

t1 = time.perf_counter()


class FirstPaint(SteppingStonesApp):
    def on_mount(self):
        super().on_mount()
        self.call_after_refresh(self.done)

    def done(self):
        self.call_after_refresh(lambda: self.exit(time.perf_counter()))


app = FirstPaint()
t2 = time.perf_counter()
end = app.run(headless=True, size=(80, 24))
print(f"import {t1 - t0:.3f}  init {t2 - t1:.3f}  run->painted {end - t2:.3f}  total {end - t0:.3f}")
