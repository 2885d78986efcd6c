"""The first usable screen of the app against a minimal Textual app, side by side in tmux.

Each run starts a program in a fresh tmux pane (80x24) and polls the pane until its first
screen is drawn: the minimal app's one line of text, or the setup screen whole: "Start game"
(in its line of keys) and the last of its fields, the name of seat 2 ("Kenji", drawn by an
input, which Textual paints a frame after the rest of a new screen).
The two are alternated, so a busy machine slows both alike; the medians and their ratio are
printed.  The issue's target is a ratio of at most 1.5.

Run from the repository, with the app installed: ``python scripts/measure_first_screen.py
[RUNS] [STEPPING_STONES_COMMAND] [--settings]``.  The app starts in a new home folder, as on
its first start; with ``--settings`` that folder holds a settings file, as it does from the
first game on (the file is then read and checked by pydantic before the first screen).
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

MINIMAL = (
    "from textual.app import App\n"
    "from textual.widgets import Static\n"
    "class Minimal(App):\n"
    "    def compose(self):\n"
    "        yield Static('minimal app ready')\n"
    "Minimal().run()\n"
)


# A tmux server of this run's own, so that other tmux users (or another measurement) are not disturbed.
SOCKET = f"first-screen-{os.getpid()}"
TMUX = ["tmux", "-L", SOCKET]


def first_screen(command: str, ready: tuple[str, ...], env: dict[str, str]) -> float:
    for _ in range(5):  # a server still exiting after the last run refuses the new session: again
        start = time.perf_counter()
        started = subprocess.run(
            [*TMUX, "new-session", "-d", "-s", "first", "-x", "80", "-y", "24", command], env=env, capture_output=True
        )
        if started.returncode == 0:
            break
        time.sleep(0.2)
    else:
        raise SystemExit(f"tmux could not start {command!r}: {started.stderr.decode().strip()}")
    while True:
        pane = subprocess.run([*TMUX, "capture-pane", "-p", "-t", "first"], capture_output=True, text=True)
        if all(text in pane.stdout for text in ready):
            elapsed = time.perf_counter() - start
            break
        if time.perf_counter() - start > 30:
            raise SystemExit(f"{command!r} did not show {ready!r} within 30 s")
        time.sleep(0.005)
    subprocess.run([*TMUX, "kill-server"], capture_output=True)
    return elapsed


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--settings"]
    runs = int(args[0]) if args else 7
    app = args[1] if len(args) > 1 else shutil.which("stepping-stones") or "stepping-stones"
    folder = tempfile.mkdtemp()
    minimal = os.path.join(folder, "minimal.py")
    with open(minimal, "w") as f:
        f.write(MINIMAL)
    home = os.path.join(folder, "home")
    if "--settings" in sys.argv:
        os.makedirs(os.path.join(home, "config"))
        with open(os.path.join(home, "config", "settings.json"), "w") as f:
            json.dump(
                {"pace": "normal", "colour": "auto", "ascii": False, "auto_last_card": True, "trick_pause": True},
                f,
                indent=2,
            )
    env = dict(os.environ, STEPPING_STONES_HOME=home)
    ours, theirs = [], []
    for _ in range(runs):
        theirs.append(first_screen(f"{sys.executable} {minimal}", ("minimal app ready",), env))
        ours.append(first_screen(app, ("Start game", "Kenji"), env))
    socket = os.path.join(os.environ.get("TMUX_TMPDIR", "/tmp"), f"tmux-{os.getuid()}", SOCKET)
    if os.path.exists(socket):
        os.remove(socket)  # the server has gone; tmux leaves its socket behind
    a, b = statistics.median(ours), statistics.median(theirs)
    print(
        f"stepping-stones {a:.3f} s, minimal Textual app {b:.3f} s (medians of {runs}"
        f"{', with a settings file' if '--settings' in sys.argv else ''}), ratio {a / b:.2f}"
    )


if __name__ == "__main__":
    main()
