"""The first start after an install: how long the exact solver takes to compile, and what a first
card hint costs meanwhile (issue 43, item 11).

Run with the Python of an installation (the README's ``pip install .``), from anywhere:
``python scripts/measure_first_start.py [--keep-cache] [--alone]``.  It first deletes numba's
cache of the search (unless ``--keep-cache``), then, in this one process, as the app does:

* starts loading the compiled core in the background (``load_in_background``: compiling it, as
  on the first start after an install);
* asks at once for a hint at the first card of a seeded deal (what the first ``i`` or the
  computer players' first decision wait for), on the Python core meanwhile;
* waits for the compiling to end;
* asks for the same hint again, on the compiled core.

With ``--alone`` it only compiles (no hint beside it): the compile's own cost.  Each step prints
its wall time (``time.perf_counter``) and the process's CPU time (``time.process_time``, all
its threads: the compiling thread and the hint's share the process), and the machine's load
average before and after, since the wall times follow the load.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path


def delete_cache() -> int:
    """Remove numba's cache of the search where this installation's numba reads it, and the
    machine code saved from it (``solver/native.py``: a process that finds it compiles nothing)."""
    import stepping_stones.ai.solver as solver

    folder = Path(os.environ.get("NUMBA_CACHE_DIR") or Path(solver.__file__).parent / "__pycache__")
    removed = 0
    if folder.is_dir():
        for path in folder.rglob("*"):
            if path.suffix in (".nbi", ".nbc") or path.name.startswith("native-search-"):
                path.unlink()
                removed += 1
    return removed


def first_card_view():  # type: ignore[no-untyped-def]
    """The view of seat 0 at its first card of a seeded game of random players."""
    from stepping_stones.ai import RandomAI
    from stepping_stones.engine import Game, Phase, Rules
    from stepping_stones.game.match import Seeds, drive

    seeds = Seeds("first-start")
    game = Game(Rules(), first_forehand=seeds.first_forehand())
    drive(game, [RandomAI()] * 3, seeds, stop=lambda g: g.phase is Phase.PLAY and g.to_act == 0)
    return game.view(0)


def timed(what: str, do):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    result = do()
    print(f"{what}: {time.perf_counter() - wall:.1f} s wall, {time.process_time() - cpu:.1f} s CPU", flush=True)
    return result


def main() -> None:
    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores", flush=True)
    if "--keep-cache" not in sys.argv:
        print(f"numba cache files deleted: {delete_cache()}", flush=True)
    from stepping_stones.ai.hints import hint_for
    from stepping_stones.ai.solver import compile_needed, compiled_core_ready, load_in_background

    print(f"compile needed: {compile_needed()}", flush=True)
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    loading = load_in_background()
    if "--alone" not in sys.argv:
        view = first_card_view()
        hint = timed("first hint, while compiling", lambda: hint_for(view))
        print(f"  (ready when it ended: {compiled_core_ready()}; the hint: {hint.action_text})", flush=True)
    loading.join()
    print(
        f"compiling done: {time.perf_counter() - start_wall:.1f} s wall, "
        f"{time.process_time() - start_cpu:.1f} s CPU of the process since it began",
        flush=True,
    )
    if "--alone" not in sys.argv:
        timed("the same hint, compiled", lambda: hint_for(view))
    print(f"load average after: {os.getloadavg()[0]:.2f} (1 min)", flush=True)


if __name__ == "__main__":
    main()
