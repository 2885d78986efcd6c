"""The table server's part of an action, in one process: the CPU a server spends reading a
seat's action and making it through ``Tables.act`` (the move, the journal, every seat's state or
delta, a finished game filed), without the sockets, so that this code and an older one (commit
9411a5c, issue 41's reference) can be set side by side with far less noise than whole load tests.

N tables of three fake connections (``Tables`` on a ``FileTableStore`` in a temporary folder,
``timeout=600``, short games of the standard set, as ``scripts/load_test_tables.py`` opens them),
each seat hello'd as the load test's bots do (9411a5c's with protocol 2, deltas); then random
legal moves, each written as the bots write it and read as the server reads it (``parse_client``,
or 9411a5c's ``quick_action``), ``time.process_time`` around the reading and ``Tables.act``
alone.  The same seeds give the same games in both trees.  Runs on whichever tree ``PYTHONPATH``
names::

    PYTHONPATH=src python scripts/measure_action_cpu.py --tables 30 --runs 2
    PYTHONPATH="$OLD/src" python scripts/measure_action_cpu.py --tables 30 --runs 2

``--stages`` adds each part's share (``process_time`` around the named functions: a few µs of
wrapping each).  Instructions, which a loaded machine does not change, are counted by callgrind:
the same command with ``--tables 3`` under ``valgrind --tool=callgrind`` (``PYTHONHASHSEED=0``),
once as it is and once with ``--no-play`` (the start-up and seating alone), the difference
divided by the actions.  That count holds this script's own writing of each action, which is not
the same work in the two trees: it compares two versions of this code, not this code with
9411a5c (for that, count the server of a real load test).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

import stepping_stones.net.tables as tables_module
from stepping_stones.engine import Phase
from stepping_stones.engine.cards import card_name
from stepping_stones.net import protocol
from stepping_stones.net.protocol import Act, NewTable, dump
from stepping_stones.storage.records import RecordRules

OLD = hasattr(protocol, "quick_action")  # 9411a5c: its actions read without the models
if hasattr(tables_module, "FileTableStore"):
    Store: Any = tables_module.FileTableStore
else:
    from stepping_stones.net.journal import FileTableStore as Store

SPENT: dict[str, list[float]] = {}  # --stages: each wrapped function's CPU seconds and calls


class Fake:
    """A connection as the tables see it: what it is sent is counted, not written."""

    def __init__(self) -> None:
        self.bytes = 0

    def send(self, text: str) -> None:
        self.bytes += len(text)

    def close(self) -> None:
        pass


def _listed(value: Any) -> list[Any]:
    return list(value() if callable(value) else value)  # a method in 9411a5c's engine, a property now


async def _run(n: int, seed: int, play: bool) -> tuple[float, int, int]:
    """CPU seconds of the server's part, actions, bytes sent to the seats."""
    with tempfile.TemporaryDirectory() as folder:
        tables = tables_module.Tables(Store(Path(folder) / "tables"), Path(folder), timeout=600)
        rules = RecordRules(contract_set="standard", short_game=True, redo_tokens=False)
        seated = []
        for i in range(n):
            if OLD:
                table = await tables.open(NewTable(rules=rules, seed=f"measure-{seed}-{i}"))
            else:  # a server deals from its own seeds now
                tables.new_seed = lambda i=i: f"measure-{seed}-{i}"
                table = await tables.open(NewTable(rules=rules))
            fakes = [Fake() for _ in range(3)]
            for k, fake in enumerate(fakes):
                if OLD:
                    await tables.hello(fake, table.code, None, f"Bot {k}", version=2)
                else:
                    await tables.hello(fake, table.code, None, f"Bot {k}")
            seated.append((table, {tables.seated[fake].seat: fake for fake in fakes}))
        handle: Callable[[Fake, str], Any]
        if OLD:
            quick = protocol.quick_action

            async def handle(fake: Fake, data: str) -> None:
                await tables.act(fake, *quick(data))
        else:
            parse = protocol.parse_client

            async def handle(fake: Fake, data: str) -> None:
                message = parse(data)
                await tables.act(fake, message.seq, message.action())

        rng = Random(seed)
        spent, actions = 0.0, 0
        clock = time.process_time
        live = seated if play else []
        while live:
            for table, fakes in live:
                game = table.game
                if game.phase is Phase.BIDDING:
                    act = Act(type="action", seq=table.seq, bid=str(rng.choice(_listed(game.legal_bids))))
                else:
                    act = Act(type="action", seq=table.seq, card=card_name(rng.choice(_listed(game.legal_cards))))
                data = dump(act)
                start = clock()
                await handle(fakes[game.to_act], data)
                spent += clock() - start
                actions += 1
            live = [(table, fakes) for table, fakes in live if not table.over]
        sent = sum(fake.bytes for _, fakes in seated for fake in fakes.values())
        return spent, actions, sent


def _wrap_stages() -> None:
    """``process_time`` around the parts of an action, in whichever tree this is."""
    try:
        import stepping_stones.net.table as table_module
    except ImportError:  # 9411a5c: the table is in tables.py
        table_module = tables_module  # type: ignore[assignment]
    from stepping_stones.engine import game as game_module

    table_class = table_module.Table
    targets: list[tuple[Any, str]] = [
        (tables_module.Tables, name) for name in ("act", "_changed", "_keep", "_finish", "_kick", "_rate_seats")
    ]
    targets += [(tables_module._Seated, "message")]
    targets += [(table_class, name) for name in ("act", "states", "parts", "waiting", "keep")]
    targets += [(game_module.Game, name) for name in ("views", "view", "own")]
    targets += [(protocol, "quick_action"), (protocol, "parse_client")]
    clock = time.process_time
    for owner, name in targets:
        function = owner.__dict__.get(name) if isinstance(owner, type) else getattr(owner, name, None)
        if function is None or isinstance(function, property):
            continue
        tally = SPENT.setdefault(f"{getattr(owner, '__name__', '').rsplit('.', 1)[-1]}.{name}", [0.0, 0])

        def timed(function: Any = function, tally: list[float] = tally) -> Any:
            if inspect.iscoroutinefunction(function):

                async def wrapper(*args: Any, **kwargs: Any) -> Any:
                    start = clock()
                    try:
                        return await function(*args, **kwargs)
                    finally:
                        tally[0] += clock() - start
                        tally[1] += 1

                return wrapper

            def plain(*args: Any, **kwargs: Any) -> Any:
                start = clock()
                try:
                    return function(*args, **kwargs)
                finally:
                    tally[0] += clock() - start
                    tally[1] += 1

            return plain

        setattr(owner, name, timed())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--runs", type=int, default=2, help="runs, seeds 0, 1, ...")
    parser.add_argument("--stages", action="store_true", help="each part's µs an action too")
    parser.add_argument("--no-play", action="store_true", help="open and seat the tables only (callgrind's baseline)")
    args = parser.parse_args()
    if args.stages:
        _wrap_stages()
    for run in range(args.runs):
        spent, actions, sent = asyncio.run(_run(args.tables, run, not args.no_play))
        tree = "9411a5c" if OLD else "this code"
        if not actions:
            print(f"{tree}: {args.tables} tables opened and seated, no action")
            continue
        print(
            f"{tree} run {run}: {spent / actions * 1e6:.1f} µs an action, {actions} actions, "
            f"{sent / actions:.0f} bytes an action sent"
        )
        for name, tally in SPENT.items():
            if tally[1]:
                print(f"    {name:24s} {tally[0] / actions * 1e6:7.1f} µs an action, {tally[1] / actions:.2f} calls")
            tally[0], tally[1] = 0.0, 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
