"""What one change of a table costs the server for those who watch it, in CPU time a message
(``time.process_time``): the public state made and written for a terminal watcher
(``Table.watched``, ``watched_text``) and for a page (the presenter's ``watch``), beside a seat's
whole state for the same change, and the lobby of 50 listed tables written once; with the sizes.
Each is made once per change and table, whatever the number of watchers (they are sent the same
text).  ``python scripts/measure_watch_cost.py [--repeat N]``."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from stepping_stones.ai import make_ai
from stepping_stones.engine import Rules
from stepping_stones.game.match import Match, Seeds, Step
from stepping_stones.net.protocol import NewTable, state_text
from stepping_stones.net.table import Table
from stepping_stones.net.watching import lobby_text, watched_text
from stepping_stones.storage.records import RecordRules

RULES = RecordRules.of(Rules("standard"))


def table_at(steps: int) -> Table:
    """A table of one person and two random computers, ``steps`` actions into its game."""
    table = Table.new(NewTable(rules=RULES, seats=["open", "random", "random"]), seed="cost")
    table.claim("Ann")  # the last open seat: the table starts
    assert table.game is not None
    match = Match(table.game, [make_ai("random")] * 3, Seeds("cost"))
    for _ in range(steps):
        if match.step() is Step.OVER:
            break
    return table


def cpu_ms(work: Callable[[], object], repeat: int) -> float:
    start = time.process_time()
    for _ in range(repeat):
        work()
    return (time.process_time() - start) / repeat * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="messages made for each figure (default 200)")
    repeat = parser.parse_args().repeat
    listed = [Table.new(NewTable(rules=RULES, listed=True), seed=str(i)) for i in range(50)]
    lobby = cpu_ms(lambda: lobby_text(listed), repeat)
    for steps in (10, 200, 10_000):
        table = table_at(steps)
        assert table.game is not None
        seat = cpu_ms(lambda table=table: state_text(table.states([0])[0]), repeat)
        raw = cpu_ms(lambda table=table: watched_text(table.watched(), False), repeat)
        page = cpu_ms(lambda table=table: watched_text(table.watched(), True), repeat)
        raw_size, page_size = len(watched_text(table.watched(), False)), len(watched_text(table.watched(), True))
        print(
            f"hands {len(table.game.log):>2}: seat state {seat:.2f} ms; watcher raw {raw:.2f} ms ({raw_size} B), "
            f"page {page:.2f} ms ({page_size} B); lobby of 50 tables {lobby:.2f} ms ({len(lobby_text(listed))} B)"
        )


if __name__ == "__main__":
    main()
