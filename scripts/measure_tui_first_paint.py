"""Time from starting Python to the setup screen drawn (headless, 80x24): import, init, first paint.

The app looks for saved games right after the setup screen's first refresh; here that is where
the clock stops.  Like ``tui.app.run``, the objects imported so far are frozen for the garbage
collector before the app runs.  A fresh home folder, so there is no settings file to check.
"""

import gc
import os
import tempfile
import time

t0 = time.perf_counter()
os.environ["STEPPING_STONES_HOME"] = tempfile.mkdtemp()
from stepping_stones.tui.app import SteppingStonesApp  # noqa: E402

t1 = time.perf_counter()


class FirstPaint(SteppingStonesApp):
    def _look_for_saved(self) -> None:  # called once the setup screen has been drawn
        self.exit(time.perf_counter())


app = FirstPaint()
t2 = time.perf_counter()
gc.freeze()
end = app.run(headless=True, size=(80, 24))
print(f"import {t1 - t0:.3f}  init {t2 - t1:.3f}  run->painted {end - t2:.3f}  total {end - t0:.3f}")
