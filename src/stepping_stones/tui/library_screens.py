"""The game library in the app: the history of games (open one into the review) and the
person's statistics, with a trend of their points and their results per contract against the
other players' (charts by textual-plotext).  Both read ``library.Library`` (docs/library.md).

The library is read in a thread worker, never on the app's own thread: another copy that holds
the database makes the screen say it is waiting, not freeze the app; Escape still goes back (and
stops the wait), and a wait that gives up says so."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from rich import box
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import Worker, WorkerState, get_current_worker
from textual_plotext import PlotextPlot

from ..engine import CONTRACTS, Rules
from ..explain import plural
from ..storage.library import HistoryEntry, Library, LibraryBusy, LibraryCancelled, LibraryError, Patience, PlayerStats
from ..storage.records import RecordError, load_game
from ..storage.session import HUMAN
from .widgets import TooSmall


def short_name(cid: str) -> str:
    """A contract's name short enough for a chart's axis: the sheet's column label ("Win PT",
    "Must Beat"), so that the chart and the sheet name a contract alike."""
    contract = CONTRACTS.get(cid)
    return cid if contract is None else contract.label or cid


WAITING = "Waiting for the game library…"
BUSY = "Waiting for the game library: another copy of Stepping Stones is writing to it. Escape goes back."
_T = TypeVar("_T")


class LibraryBusyNow(Message):
    """Posted from the worker: the library is held by another copy, and the worker waits."""


@dataclass
class Read:
    """What a worker read from the library, for the screen to show (on the app's thread)."""

    answer: object = None
    notices: list[str] = field(default_factory=list)
    problem: str | None = None  # one line: why the library could not be read


def read_library(screen: Screen[None], reader: Callable[[Library], _T]) -> Read:
    """Open the library and ``reader(library)``, in the worker's thread; never raises.  The wait
    for a busy library stops when the worker is cancelled (the screen closed), and the screen
    is told when a wait begins."""
    worker = get_current_worker()

    def waiting() -> None:
        screen.post_message(LibraryBusyNow())  # thread-safe: it goes through the app's loop

    patience = Patience(cancelled=lambda: worker.is_cancelled, on_wait=waiting)
    try:
        with Library.open(patience=patience) as library:
            answer = reader(library)
            return Read(answer, library.notices)
    except LibraryCancelled:
        return Read(problem="the screen was closed")  # nobody sees it
    except LibraryBusy as exc:
        text = str(exc)
        return Read(problem=text[:1].upper() + text[1:] + ".")
    except LibraryError as exc:
        return Read(problem=f"The library cannot be opened: {exc}")
    except Exception as exc:  # the library is a convenience: it must never end the app
        return Read(problem=f"The library could not be read ({type(exc).__name__}).")


def rules_text(rules: Rules) -> str:
    """The rules in a few words: ``standard``, ``advanced short, redo``."""
    text = rules.contract_set
    if rules.short_game:
        text += " short"
    if rules.redo_tokens:
        text += ", redo"
    return text


def _winner(entry: HistoryEntry) -> str:
    if not entry.complete:
        return "unfinished"
    return " & ".join(entry.players[s] for s in entry.winners)


BAR_MARKERS = {False: ("█", "░"), True: ("#", ":")}
"""The bars of "you" and "others" (in ASCII mode, and not), told apart by their glyphs, not by
their colours alone (without colour they are two greys)."""

ASSISTED_MARK = "*"
"""Marks an assisted game in the history, right after its date: the first column, in view in a
window of 80 columns (a column of its own at the end was out of sight there)."""


class HistoryScreen(Screen[None]):
    """Every game in the library, newest first; Enter opens the chosen one in the review."""

    BINDINGS = [
        Binding("enter", "open_game", "Review", id="open", key_display="⏎"),
        Binding("escape,q", "leave", "Back", id="leave"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[HistoryEntry] = []
        self.problem: str | None = None
        self.notices: list[str] = []

    def compose(self) -> ComposeResult:
        yield TooSmall(id="too-small")
        with Vertical(classes="body", id="history"):
            yield Static(Text.assemble(("Game history", "bold"), "\n", WAITING), id="history-title")
            yield DataTable(id="history-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#history-table", DataTable)
        table.add_columns("Played", "Players and points", "Winner", "Rules")
        table.focus()
        self.load()

    @work(thread=True, exclusive=True, group="library", exit_on_error=False)
    def load(self) -> Read:
        return read_library(self, lambda library: library.history())

    def on_library_busy_now(self, _message: LibraryBusyNow) -> None:
        self.query_one("#history-title", Static).update(Text.assemble(("Game history", "bold"), "\n", BUSY))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "library" and event.state is WorkerState.SUCCESS:
            read = event.worker.result
            assert isinstance(read, Read)
            self.show(read)

    def show(self, read: Read) -> None:
        self.problem = read.problem
        self.notices = read.notices
        self.entries = read.answer if isinstance(read.answer, list) else []
        title = Text("Game history", style="bold")
        if self.problem:
            title.append(f"\n{self.problem}")
        elif not self.entries:
            title.append(
                "\nNo game in the library yet: finished games come here by themselves, "
                "and `stepping-stones library import PATH` brings in others."
            )
        else:
            done = sum(e.complete for e in self.entries)
            title.append(
                f"  {plural(len(self.entries), 'game')} ({done} finished), newest first. "
                "Enter: review the game   Escape: back",
                style="italic",
            )
            if any(e.assisted for e in self.entries):
                title.append(f"\n{ASSISTED_MARK} after the date: a hint or an undo was used (counted apart).")
        self.query_one("#history-title", Static).update(title)
        for notice in self.notices:
            self.notify(notice)
        table = self.query_one("#history-table", DataTable)
        table.clear()
        for e in self.entries:
            table.add_row(
                Text.assemble(e.played[:16], (ASSISTED_MARK if e.assisted else " ", "bold")),
                Text(", ".join(f"{name} {points:+d}" for name, points in zip(e.players, e.points, strict=True))),
                Text(_winner(e)),
                rules_text(e.rules),
            )

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.open_row(event.cursor_row)

    def action_open_game(self) -> None:
        self.open_row(self.query_one("#history-table", DataTable).cursor_row)

    def open_row(self, row: int) -> None:
        if not 0 <= row < len(self.entries):
            return
        entry = self.entries[row]
        try:
            game = load_game(entry.path)
        except RecordError as exc:
            self.notify(f"It could not be read: {exc.line()}", severity="error")
            return
        from .screens import ReviewScreen

        self.app.push_screen(ReviewScreen(game.view(HUMAN), f"the game of {entry.played[:16]}"))

    def action_leave(self) -> None:
        self.app.pop_screen()


@dataclass(frozen=True)
class Figures:
    """What the statistics screen reads: the names to choose from, whose figures, and theirs."""

    names: list[str]
    player: str | None
    stats: PlayerStats | None


def summary_text(stats: PlayerStats) -> Text:
    text = Text()
    text.append(f"Statistics of {stats.player}", style="bold")
    if stats.games == 0:
        text.append(f"\nNo finished game of {stats.player} in the library yet")
        if stats.assisted_games and not stats.include_assisted:
            text.append(f" ({stats.assisted_games} with a hint or an undo, counted apart: a shows them)")
        text.append(".")
        return text
    mean = stats.mean_points if stats.mean_points is not None else 0.0
    text.append(
        f"\n{plural(stats.games, 'finished game')}, {stats.wins} won ({stats.shared_wins} shared), "
        f"mean points {mean:+.2f}. "
    )
    if stats.include_assisted:
        text.append(f"Games with a hint or an undo included ({stats.assisted_games}).", style="italic")
    else:
        text.append(f"{stats.assisted_games} with a hint or an undo counted apart.", style="italic")
    return text


_ASCII_HEAD = box.Box("    \n    \n -- \n    \n    \n    \n    \n    \n", ascii=True)
"""``box.SIMPLE_HEAD`` (a line under the header only) drawn with ``-``."""


def contract_table(stats: PlayerStats, ascii_only: bool = False) -> Table:
    table = Table(box=_ASCII_HEAD if ascii_only else box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), expand=True)
    for title in ("contract", "games", "you", "others", "points", "firsts"):
        table.add_column(title, justify="left" if title == "contract" else "right", no_wrap=True)
    for cid, c in stats.per_contract.items():
        table.add_row(
            CONTRACTS[cid].name if cid in CONTRACTS else cid,
            str(c.games),
            "-" if c.mean_count is None else f"{c.mean_count:.2f}",
            "-" if c.others_mean_count is None else f"{c.others_mean_count:.2f}",
            "-" if c.mean_points is None else f"{c.mean_points:+.2f}",
            str(c.firsts),
        )
    return table


class StatsScreen(Screen[None]):
    """The person's figures over their finished games, their points game by game, and their mean
    result per contract beside the other players' in the same games."""

    BINDINGS = [
        Binding("a", "toggle_assisted", "Hints/undo games", id="assisted"),
        Binding("p", "next_player", "Other player", id="player"),
        Binding("escape,q", "leave", "Back", id="leave"),
    ]

    def __init__(self, player: str | None = None) -> None:
        super().__init__()
        self.player = player
        self.include_assisted = False
        self.names: list[str] = []
        self.stats: PlayerStats | None = None
        self.problem: str | None = None

    def compose(self) -> ComposeResult:
        yield TooSmall(id="too-small")
        with Vertical(classes="body", id="stats"):
            yield Static(Text.assemble(("Statistics", "bold"), "\n", WAITING), id="stats-summary")
            with Horizontal(id="stats-charts"):
                yield PlotextPlot(id="stats-trend")
                yield PlotextPlot(id="stats-contracts")
            yield Static(id="stats-table")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#stats-charts", Horizontal).display = False
        self.load()

    def load(self) -> None:
        """Read the figures of ``player`` (default: the person) in a worker; ``show`` them after."""
        self.read_figures(self.player, self.include_assisted)

    @work(thread=True, exclusive=True, group="library", exit_on_error=False)
    def read_figures(self, player: str | None, include_assisted: bool) -> Read:
        def reader(library: Library) -> Figures:
            who = player if player is not None else library.person()
            return Figures(library.names(), who, library.stats(who, include_assisted) if who is not None else None)

        return read_library(self, reader)

    def on_library_busy_now(self, _message: LibraryBusyNow) -> None:
        self.query_one("#stats-summary", Static).update(Text.assemble(("Statistics", "bold"), "\n", BUSY))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "library" or event.state is not WorkerState.SUCCESS:
            return
        read = event.worker.result
        assert isinstance(read, Read)
        self.problem = read.problem
        if isinstance(read.answer, Figures):
            self.names, self.player, self.stats = read.answer.names, read.answer.player, read.answer.stats
        for notice in read.notices:
            self.notify(notice)
        self.show()

    def show(self) -> None:
        summary = self.query_one("#stats-summary", Static)
        charts = self.query_one("#stats-charts", Horizontal)
        table = self.query_one("#stats-table", Static)
        stats = self.stats
        if self.problem or stats is None:
            why = self.problem or "No game in the library yet: finished games come here by themselves."
            summary.update(Text.assemble(("Statistics", "bold"), "\n", why))
            charts.display = False
            table.update("")
            return
        summary.update(summary_text(stats))
        charts.display = stats.games > 0
        table.update(contract_table(stats, self.app.has_class("-ascii")) if stats.per_contract else "")
        if stats.games == 0:
            return
        trend = self.query_one("#stats-trend", PlotextPlot)
        plt = trend.plt
        plt.clear_data()
        plt.clear_figure()
        xs = list(range(1, len(stats.trend) + 1))
        ascii_only = self.app.has_class("-ascii")  # no braille, blocks or box drawing then
        plt.plot(xs, stats.trend, marker="." if ascii_only else "braille")
        plt.scatter(xs, stats.trend, marker="*" if ascii_only else "dot")
        if ascii_only:
            plt.frame(False)
            plt.plot([xs[0], xs[-1]], [0, 0], marker="-")
        else:
            plt.hline(0)
        plt.title("Your points, game by game")
        plt.xticks([float(x) for x in xs] if len(xs) <= 10 else None)
        trend.refresh()
        bars = self.query_one("#stats-contracts", PlotextPlot)
        plt = bars.plt
        plt.clear_data()
        plt.clear_figure()
        cids = list(stats.per_contract)
        mine = [stats.per_contract[c].mean_count or 0.0 for c in cids]
        others = [stats.per_contract[c].others_mean_count or 0.0 for c in cids]
        # plotext takes ``labels`` (its type stubs say ``label``, which it does not accept)
        plt.multiple_bar(
            [short_name(c) for c in cids],
            [mine, others],
            labels=["you", "others"],  # type: ignore[call-arg]
            marker=list(BAR_MARKERS[ascii_only]),  # type: ignore[arg-type]  # one a bar (stubs: one for all)
        )
        if ascii_only:
            plt.frame(False)
        plt.title("Mean result per contract")
        bars.refresh()

    def action_toggle_assisted(self) -> None:
        self.include_assisted = not self.include_assisted
        self.load()

    def action_next_player(self) -> None:
        if not self.names:
            return
        i = self.names.index(self.player) if self.player in self.names else -1
        self.player = self.names[(i + 1) % len(self.names)]
        self.load()

    def action_leave(self) -> None:
        self.app.pop_screen()


__all__ = ["HistoryScreen", "StatsScreen", "short_name"]
