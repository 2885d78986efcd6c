"""The server's CPU per change for writing every seat's message (three seats: a whole state for a
connection's first, a delta after), on whole games of random moves at one table of three people.

Runs on this checkout, and on an older one whose ``Table`` still wrote states with the hand-written
writers (``Table.parts``, ``net/writers.py``, before the one wire schema of ``net/wire.py``), so the
two can be run side by side::

    python scripts/measure_state_writing.py --games 8
    PYTHONPATH=OLD/src python scripts/measure_state_writing.py --games 8 --tests OLD/tests

CPU time (``time.process_time``) of the writing alone: the moves are made outside the timing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from random import Random
from typing import Any


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--tests", type=Path, default=Path(__file__).parent.parent / "tests")
    args = parser.parse_args()
    sys.path.insert(0, str(args.tests))
    from net_support import new_table  # type: ignore[import-not-found]
    from stepping_stones.engine import Phase, parse_bid, parse_card
    from stepping_stones.net.table import Table

    write: Any
    if hasattr(Table, "parts"):  # the hand-written writers
        from stepping_stones.net.viewcodec import legal_actions  # type: ignore[import-not-found]
        from stepping_stones.net.writers import delta_text, full_text  # type: ignore[import-not-found]

        def write(table: Table) -> list[Any]:
            return table.parts([0, 1, 2])  # type: ignore[attr-defined]

        whole = full_text
    else:
        from stepping_stones.net.protocol import delta_text, state_text
        from stepping_stones.net.wire import legal_actions

        def write(table: Table) -> list[Any]:
            return table.states([0, 1, 2])

        whole = state_text
    spent, changes, size = 0.0, 0, 0
    for seed in range(args.games):
        rng = Random(seed)
        table = Table.new(new_table(("open", "open", "open")), seed=str(seed))
        for name in ("A", "B", "C"):
            table.claim(name)
        last: list[Any] = [None] * 3
        sent = 0
        while not table.over:
            game = table.game
            assert game is not None and game.to_act is not None
            move = rng.choice(legal_actions(game.view(game.to_act)))
            table.act(game.to_act, table.seq, parse_bid(move) if game.phase is Phase.BIDDING else parse_card(move))
            start = time.process_time()
            sent += 1
            states = write(table)
            texts = [whole(s, sent) if last[i] is None else delta_text(sent, last[i], s) for i, s in enumerate(states)]
            spent += time.process_time() - start
            last = states
            changes += 1
            size += sum(map(len, texts))
    kind = "hand-written writers" if hasattr(Table, "parts") else "one wire schema"
    per_change = spent / changes * 1e6
    print(f"{kind}: {per_change:.1f} us of CPU per change (three seats), {size / changes:.0f} bytes, {changes} changes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
