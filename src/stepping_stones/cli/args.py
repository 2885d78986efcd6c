"""Argument types and options shared by several commands."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

from ..ai import LAB_LEVELS, LAB_REASONS, LEVELS, BotError, factory_of, installed, is_spec, lab_seat
from ..engine import CONTRACT_SETS, CONTRACTS, Game, Rules, RulesError, SteppingStonesError
from ..game.choices import SEED_LENGTH

if TYPE_CHECKING:
    from ..lab.simulate import Runner
    from ..storage.library import Library, Shelf

_R = TypeVar("_R")
_N = TypeVar("_N", int, float)


EXIT_REFUSED = 2
"""The exit status of a command that refused its input or could not do its work."""

Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What ``add_parser`` of each command module is given: the subcommands of ``stepping-stones``."""


def command(
    sub: Subcommands, name: str, run: Callable[[argparse.Namespace], int] | None, *, help: str, description: str
) -> argparse.ArgumentParser:
    """A command's parser: its line in ``stepping-stones --help``, its description, and ``run``,
    what it runs (None for a command of commands, ``library`` or ``table``, whose own say)."""
    p = sub.add_parser(name, help=help, description=description)
    if run is not None:
        p.set_defaults(run=run)
    return p


def add_record_file(p: argparse.ArgumentParser) -> None:
    """``FILE``: the game record a command reads (``game_from_file``)."""
    p.add_argument("file", metavar="FILE", help="the game record (JSON)")


def add_json_flag(p: argparse.ArgumentParser, help: str = "print one JSON object") -> None:
    """``--json``: the command prints one JSON document instead of lines for people (``print_result``)."""
    p.add_argument("--json", action="store_true", help=help)


def refuse(line: str) -> int:
    """Say why a command stops, in one line on standard error; the exit status to return."""
    import sys

    print(line, file=sys.stderr)
    return EXIT_REFUSED


class CommandRefused(SteppingStonesError):
    """A command stops: its text is the one line to say on standard error, and the command exits
    with ``EXIT_REFUSED`` (``cli.main`` says it, through ``refuse``).  The helpers below raise it,
    so that a command's ``run`` reads as its work, not as its refusals."""


def json_data(value: object) -> Any:
    """``value`` as ``--json`` prints it: plain JSON data, as pydantic's ``TypeAdapter`` of its type
    dumps it (the dataclass that declares the output, its fields marked ``exclude`` left out:
    docs/json.md)."""
    from pydantic import TypeAdapter

    return TypeAdapter(type(value)).dump_python(value, mode="json")


def print_result(as_json: bool, data: Callable[[], object], for_people: Callable[[], object]) -> int:
    """A command's result on standard output: with ``--json`` one JSON document, ``data()`` as
    ``json_data`` gives it; else ``for_people()`` prints it.  The exit status, 0."""
    if as_json:
        import json

        print(json.dumps(json_data(data())))
    else:
        for_people()
    return 0


def game_from_file(path: str) -> Game:
    """The game a record file holds, every action checked.  Raises ``CommandRefused`` with the
    line naming the file and what is wrong (``FILE: hand 3, play 14: ...``), as every command
    names a file it refuses."""
    from ..storage.records import RecordError, load_game

    try:
        return load_game(path)
    except RecordError as exc:
        raise CommandRefused(exc.line(path)) from None


def open_library(command: str, folder: Path | None = None) -> Library:
    """The library (of the data folder ``folder``, default the game's), its notices said on
    standard error.  Raises ``CommandRefused`` (one line) if it cannot be used."""
    import sys

    from ..storage.library import Library, LibraryError

    try:
        library = Library.open(folder)
    except LibraryError as exc:
        raise CommandRefused(f"{command}: {exc}") from None
    for notice in library.notices:
        print(f"{command}: {notice}", file=sys.stderr)
    return library


@contextmanager
def library_work(command: str, folder: Path | None = None) -> Iterator[Library]:
    """The library open for ``command`` (``open_library``), closed afterwards; a ``LibraryError``
    of the work in the block becomes ``CommandRefused`` (``command: what is wrong``)."""
    from ..storage.library import LibraryError

    with open_library(command, folder) as library:
        try:
            yield library
        except LibraryError as exc:
            raise CommandRefused(f"{command}: {exc}") from None


def store_url(text: str) -> str:
    """An argparse type: a table server's PostgreSQL store, a ``postgresql://`` URL."""
    if not text.startswith(("postgresql://", "postgres://")):
        raise argparse.ArgumentTypeError("a store is a postgresql:// URL (the data folder is the default)")
    return text


def add_library_source(p: argparse.ArgumentParser) -> None:
    """``--data-dir`` and ``--store``: read a table server's library rather than the game's own."""
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help="the library of this data folder: a table server's (host --data-dir; by default the 'server' "
        "folder in the game's data folder) rather than the game's own",
    )
    where.add_argument(
        "--store",
        type=store_url,
        metavar="URL",
        help="the library of the table servers that share this PostgreSQL store (host --store URL)",
    )


@contextmanager
def shelf_work(command: str, args: argparse.Namespace) -> Iterator[Library | Shelf]:
    """What ``--data-dir`` or ``--store`` names (``add_library_source``), else the game's own
    library, open for ``command`` and closed afterwards; a ``LibraryError`` of the work in the
    block becomes ``CommandRefused``.  A store that cannot be read is refused in one line that
    does not repeat the URL (its password)."""
    if args.store is None:
        with library_work(command, args.data_dir) as library:
            yield library
        return
    from ..storage.library import LibraryError

    try:
        from ..net.pgstore import PostgresShelf
    except ImportError:
        raise CommandRefused(f"{command}: --store needs psycopg: pip install 'stepping-stones[postgresql]'") from None
    shelf = PostgresShelf(args.store)
    try:
        yield shelf
    except LibraryError as exc:
        raise CommandRefused(f"{command}: {exc}") from None
    finally:
        shelf.close()


def prepare_solver(command: str) -> None:
    """Load the exact solver before ``command`` uses it, saying so on stderr when that means
    compiling it (the first use after an install: 10-15 s of CPU), so nobody waits in silence."""
    import sys

    from ..ai.solver import say_while_loading

    say_while_loading(lambda text: print(f"{command}: {text}", file=sys.stderr, flush=True))


def number(
    kind: Callable[[str], _N], what: str, low: float, high: float, out_of_range: Callable[[_N], str] | None = None
) -> Callable[[str], _N]:
    """An argparse type: a number of ``kind`` (``int`` or ``float``) from ``low`` to ``high``;
    else one line, ``'x' is not WHAT`` or ``out_of_range(value)`` (by default ``choose LOW to
    HIGH``)."""

    def parse(text: str) -> _N:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not low <= value <= high:  # NaN too
            raise argparse.ArgumentTypeError(out_of_range(value) if out_of_range else f"choose {low:g} to {high:g}")
        return value

    return parse


positive = number(int, "a whole number", 1, float("inf"), lambda _: "must be at least 1")
"""An argparse type: a whole number of at least 1."""
not_negative = number(int, "a whole number", 0, float("inf"), lambda _: "must be 0 or more")
"""An argparse type: a whole number of at least 0."""
port = number(int, "a port number", 1, 65535, lambda value: f"{value} is not a port number (1-65535)")
"""An argparse type: a TCP port, 1-65535."""
any_port = number(int, "a port number", 0, 65535, lambda value: f"{value} is not a port number (0-65535)")
"""An argparse type: a TCP port, or 0 for any free one (the server says which when it starts)."""


def level(text: str) -> str:
    """An argparse type: the name of an AI level (never a lab seat nor an outside bot: see ``lab_level``)."""
    seat = lab_seat(text)
    if seat is not None:
        raise argparse.ArgumentTypeError(
            f"{text!r} {LAB_REASONS[seat]}: it plays only in tournament and simulate (choose {', '.join(LEVELS)})"
        )
    if text not in LEVELS and (is_spec(text) or text in installed()):
        raise argparse.ArgumentTypeError(
            f"{text!r} is a bot from another package: it plays only in tournament, simulate and table bot "
            f"(choose {', '.join(LEVELS)})"
        )
    if text not in LEVELS:
        raise argparse.ArgumentTypeError(f"unknown level {text!r} (choose {', '.join(LEVELS)})")
    return text


def outside_level(text: str) -> str:
    """An argparse type: a bot from another package, an installed entry point's name
    (``stepping_stones.agents``) or ``module:factory``, checked to load (docs/bots.md)."""
    try:
        factory = factory_of(text)
    except BotError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if factory is None:
        raise argparse.ArgumentTypeError(
            f"unknown level {text!r} (choose {', '.join([*LEVELS, *LAB_LEVELS, 'ismcts-N', *installed()])}, "
            "or module:factory for a bot from another package)"
        )
    return text


def lab_level(text: str) -> str:
    """An argparse type for tournament and simulate: an AI level, a lab seat (``cheat``, which sees
    every hand; ``ismcts`` or ``ismcts-N``, OpenSpiel's ISMCTS), or a bot from another package."""
    if text in LEVELS or lab_seat(text) is not None:
        return text
    return outside_level(text)


def lab_levels_words(cheat: str = "") -> str:
    """What ``lab_level`` takes, in a help text's words: the AI levels, the lab seats (``cheat``
    says more of cheat), a bot from another package."""
    return (
        f"{', '.join(LEVELS)}; or a lab seat, {', '.join(LAB_LEVELS)}: cheat sees every hand{cheat}, "
        "ismcts is OpenSpiel's ISMCTS, ismcts-N with N simulations a decision; or a bot from another "
        "package, module:factory or an installed name: docs/bots.md"
    )


def three_lab_levels(text: str) -> list[str]:
    """An argparse type: three levels for seats 0, 1 and 2, separated by commas (``lab_level``)."""
    levels = [t.strip() for t in text.split(",")]
    if len(levels) != 3:
        raise argparse.ArgumentTypeError("give exactly three levels, e.g. heuristic,random,random")
    return [lab_level(t) for t in levels]


def seed(text: str) -> str:
    """An argparse type: a seed, any text without control characters (the app's seeds are text)."""
    if not text.strip() or not text.isprintable():
        raise argparse.ArgumentTypeError("a seed is some printable text, e.g. 7 or a1b2c3")
    if len(text.strip()) > SEED_LENGTH:
        raise argparse.ArgumentTypeError(
            f"a seed of {len(text.strip())} characters is too long (at most {SEED_LENGTH})"
        )
    return text.strip()


def add_rules_arguments(p: argparse.ArgumentParser, kept: bool = False) -> None:
    """``--set``, ``--short``, ``--omit`` and ``--redo``: the options of the games a command plays.
    ``kept``: without any of them, the command plays the rules chosen last (its ``--set`` is then
    None: ``rules_given`` tells)."""
    p.add_argument(
        "--set",
        dest="contract_set",
        choices=tuple(CONTRACT_SETS),
        default=None if kept else "standard",
        help="contract set (default: the one chosen last)" if kept else "contract set (default standard)",
    )
    p.add_argument("--short", action="store_true", help="short game: one contract left out")
    p.add_argument(
        "--omit",
        choices=tuple(CONTRACTS),
        metavar="CONTRACT",
        help="the contract the short game leaves out (default: the set's usual one)",
    )
    p.add_argument("--redo", action="store_true", help="play with redo tokens")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The ``Rules`` named by ``add_rules_arguments``' options (raises ``RulesError``)."""
    return Rules(args.contract_set or "standard", short_game=args.short, omit=args.omit, redo_tokens=args.redo)


def rules_given(args: argparse.Namespace) -> bool:
    """Whether any of ``add_rules_arguments``' options was given."""
    return args.contract_set is not None or args.short or args.omit is not None or args.redo


def command_rules(args: argparse.Namespace, command: str) -> Rules:
    """``rules_from_args``; rules that do not hold together raise ``CommandRefused``
    (``command: why``)."""
    try:
        return rules_from_args(args)
    except RulesError as exc:
        raise CommandRefused(f"{command}: {exc}") from None


MAX_COUNT = 1_000_000
"""The most games, deal sets or hands a lab command plays in one run: a million heuristic games
take about a week of one core.  A larger count is refused with one line, not started."""


def check_count(command: str, flag: str, value: int) -> None:
    """Raises ``CommandRefused``, one line saying why, when ``value`` is too many for ``flag``."""
    if value > MAX_COUNT:
        raise CommandRefused(
            f"{command}: {flag} {value:,} is more than one run plays (at most {MAX_COUNT:,}; split the work)"
        )


def percent_lines(total: int, unit: str, command: str) -> Callable[[], None]:
    """The function to call once per unit done, printing a line on standard error at every whole
    percent (``simulate: 12,000 of 1,000,000 games (1%)``) of a run of at least 100 units;
    shorter runs stay quiet."""
    import sys

    done = shown = 0

    def advance() -> None:
        nonlocal done, shown
        done += 1
        percent = done * 100 // total
        if total >= 100 and percent > shown:
            shown = percent
            print(f"{command}: {done:,} of {total:,} {unit} ({percent}%)", file=sys.stderr, flush=True)

    return advance


def progress_bar(total: int, description: str, command: str) -> tuple[Any, Callable[[], None]]:
    """A progress bar on standard error when it is a terminal, else a line per percent
    (``percent_lines``), and the function to call once per unit done.  Use the bar as a context
    manager."""
    from contextlib import nullcontext

    from rich.console import Console

    console = Console(stderr=True)
    if not console.is_terminal:
        return nullcontext(), percent_lines(total, description, command)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn  # a bar's alone

    bar = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    task = bar.add_task(description, total=total)
    return bar, lambda: bar.advance(task)


def cluster_address(text: str) -> str:
    """An argparse type: ``local`` or a Dask scheduler's ``tcp://HOST:PORT``."""
    from ..lab.cluster import check_address

    try:
        return check_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_cluster_argument(p: argparse.ArgumentParser, unit: str) -> None:
    """``--cluster ADDRESS``: run the units of work (``unit``) on a Dask cluster (docs/cluster.md);
    ``--cluster-timeout``: how long its scheduler is waited for."""
    from ..lab.cluster import CONNECT_TIMEOUT

    p.add_argument(
        "--cluster",
        type=cluster_address,
        metavar="ADDRESS",
        help=f"run the work on a Dask cluster, one {unit} per task: a scheduler's tcp://HOST:PORT, "
        "or 'local' for a local cluster with one worker per core; the results are the same "
        "as without it (needs: pip install 'stepping-stones[cluster]')",
    )
    p.add_argument(
        "--cluster-timeout",
        type=connect_seconds,
        default=CONNECT_TIMEOUT,
        metavar="SECONDS",
        help="how long to wait for the --cluster scheduler to answer before giving up "
        f"(default {CONNECT_TIMEOUT:g}, at most 600)",
    )


def connect_seconds(text: str) -> float:
    """An argparse type: seconds to wait for a scheduler, more than 0 and at most 600."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of seconds") from None
    if not 0 < value <= 600:
        raise argparse.ArgumentTypeError(f"{value:g} s is out of range: more than 0 and at most 600")
    return value


@contextmanager
def work_runner(address: str | None, timeout: float) -> Iterator[Runner | None]:
    """Where a command's units of work run: ``None`` (the library's default, this machine)
    without ``--cluster``, else the cluster's ``map``.  Raises ``lab.cluster.ClusterError``
    (one line) when the cluster cannot be used; Dask is imported only here."""
    if address is None:
        yield None
        return
    from ..lab.cluster import connect

    with connect(address, timeout) as cluster:
        yield cluster.map


def run_work(
    command: str,
    total: int,
    unit: str,
    address: str | None,
    work: Callable[[Runner | None, Callable[[], None]], _R],
    timeout: float,
) -> _R:
    """A lab command's work, ``work(runner, advance)``, with a progress bar of ``total``
    ``unit`` and on the cluster at ``address`` (``--cluster``) if one is given, waited for
    ``timeout`` seconds (``--cluster-timeout``).  A cluster that cannot be used raises
    ``CommandRefused`` (``command: why``)."""
    from ..lab.cluster import ClusterError

    bar, advance = progress_bar(total, unit, command)
    try:
        with work_runner(address, timeout) as runner, bar:
            return work(runner, advance)
    except ClusterError as e:
        raise CommandRefused(f"{command}: {e}") from None
