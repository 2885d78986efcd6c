"""The Stepping Stones app: one person against two computer players."""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.geometry import Size
from textual.screen import Screen
from textual.scrollbar import ScrollBar
from textual.timer import Timer

from ..engine import Rules
from ..game.choices import HUMAN, Setup
from ..storage.safety import escape
from ..storage.settings import COLOURS, PACES, Settings, load_settings, save_settings
from .hindsight import Hindsight
from .widgets import MIN_HEIGHT, MIN_WIDTH, Scrollbars, TooSmall

ScrollBar.renderer = Scrollbars  # every scrollbar: without block characters in ASCII mode

if TYPE_CHECKING:  # imported when first needed: the setup screen is drawn before them
    from ..engine import Game
    from ..storage.session import Session
    from .table import TableScreen


_ASCII_KEYS = (
    ("←→", "Left/Right"),
    ("↑↓", "Up/Down"),
    ("⏎", "Enter"),
    ("←", "Left"),
    ("→", "Right"),
    ("↑", "Up"),
    ("↓", "Down"),
)

# Textual's breakpoints: each screen gets one class for its width and one for its height, and
# app.tcss lays the table out by them (docs/tui.md, "The table at every size").
HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide"), (160, "-wider"), (200, "-widest")]
VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall"), (44, "-taller"), (56, "-tallest")]


SWITCH_INTERVAL = 0.001  # seconds a thread may hold the GIL while another waits (sys.setswitchinterval)


class SteppingStonesApp(App[None]):
    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "Stepping Stones"
    ENABLE_COMMAND_PALETTE = True
    HORIZONTAL_BREAKPOINTS = HORIZONTAL_BREAKPOINTS
    VERTICAL_BREAKPOINTS = VERTICAL_BREAKPOINTS

    def __init__(
        self,
        *,
        resume: bool = False,
        review: Game | None = None,
        review_title: str = "",
        settings: Settings | None = None,
        setup: Setup | None = None,
        join: tuple[str, str, str] | None = None,
        online: tuple[str, str | None] | None = None,
    ) -> None:
        self.settings = settings if settings is not None else load_settings()
        if self.settings.monochrome:
            os.environ["NO_COLOR"] = "1"  # Textual reads (and removes) it while starting
        super().__init__()
        self.resume = resume
        self.review_game = review
        self.review_title = review_title
        self.join = join  # (server, invite code, name): take that seat at once
        # (server, name): open on Play online with that server's address, the only one it plays on
        self.online = online
        self.last_online: tuple[str, str] | None = (join[0], join[2]) if join is not None else None
        # the players chosen last, unless the command line chose them
        self.last_setup = setup if setup is not None else self.settings.setup()
        self.unsaved: str | None = None  # said again in the terminal after the app closes
        self.farewell: str | None = None  # said in the terminal after the app closes
        self.session: Session | None = None  # the game this copy has claimed, if any
        self.analyses: set[Callable[[], None]] = set()  # stops of the analyses running in threads
        self.hindsight = Hindsight()  # the hands' analyses this app has worked out
        # while the exact solver is compiled (the first start after an install): since when
        self.solver_since: float | None = None
        self.solver_waiter: threading.Thread | None = None  # waits for the compiling to end
        self._solver_timer: Timer | None = None

    # --- start-up ------------------------------------------------------------

    def get_key_display(self, binding: Binding) -> str:
        """Keys in the footer: plain words in ASCII mode (no arrows or return symbol)."""
        shown = super().get_key_display(binding)
        if not self.settings.ascii:
            return shown
        for symbol, word in _ASCII_KEYS:
            shown = shown.replace(symbol, word)
        return shown

    def action_command_palette(self) -> None:
        """Textual's command palette, with a placeholder of ASCII characters in ASCII mode."""
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            placeholder = "Search for commands..." if self.settings.ascii else "Search for commands…"
            self.push_screen(CommandPalette(placeholder=placeholder, id="--command-palette"))

    def get_default_screen(self) -> Screen[None]:
        """The setup screen, when the app opens on it: as Textual's first screen it is drawn
        whole in one frame, with no empty screen beneath it to set up and draw first.  A review
        or a resumed game opens on an empty first screen instead (``_base`` puts the others
        above the first screen)."""
        if self.review_game is not None or self.resume:
            return super().get_default_screen()
        from .setup import SetupScreen

        return SetupScreen(self.last_setup)

    SOLVER_DELAY = 1.0
    """Seconds after the app starts that the exact solver starts loading in the background."""

    def _prepare_solver(self) -> None:
        """Load the exact solver's compiled core in the background, a moment after the first
        screen (which needs none of the AI); the first start after an install compiles it (10-15 s
        of CPU, several times that on a loaded machine), which the screens say until it is done
        (``SolverNotice``).  The computer players, hints and analysis use the same search as
        Python until it is ready."""
        self.run_worker(self._load_solver, thread=True, group="solver", exit_on_error=False)

    def _load_solver(self) -> None:
        from ..ai.solver import compile_needed, load_in_background

        if not compile_needed():
            load_in_background()
            return
        self.call_from_thread(self._solver_wait_began)
        loading = load_in_background()
        # a thread of its own waits for the compiling (a worker's would hold up the app's exit)
        self.solver_waiter = threading.Thread(
            target=self._wait_for_solver, args=(loading,), name="solver-wait", daemon=True
        )
        self.solver_waiter.start()

    def _wait_for_solver(self, loading: threading.Thread) -> None:
        loading.join()
        with suppress(RuntimeError):  # the app has closed meanwhile
            self.call_from_thread(self._solver_wait_ended)

    def _solver_wait_began(self) -> None:
        """The solver is being compiled: every screen's ``SolverNotice`` says so, each second."""
        self.solver_since = time.monotonic()
        self._solver_timer = self.set_interval(1.0, self._show_solver_wait)
        self._show_solver_wait()

    def _solver_wait_ended(self) -> None:
        self.solver_since = None
        if self._solver_timer is not None:
            self._solver_timer.stop()
        self._show_solver_wait()

    def _show_solver_wait(self) -> None:
        from .widgets import SolverNotice

        for screen in self.screen_stack:
            for notice in screen.query(SolverNotice):
                notice.show_wait(self.solver_since)

    def on_mount(self) -> None:
        # The computer players, hints and analysis think in threads that hold the GIL for long
        # stretches; with the default 5 ms switch interval a key waits for several of them
        # (a median of 40-45 ms while an AI thinks), with 1 ms about 15 ms.
        sys.setswitchinterval(SWITCH_INTERVAL)
        self.set_class(self.settings.ascii, "-ascii")
        self._check_size()
        self.set_timer(self.SOLVER_DELAY, self._prepare_solver)
        if self.review_game is not None:
            from .screens import ReviewScreen

            self.push_screen(ReviewScreen(self.review_game.view(HUMAN), self.review_title, standalone=True))
            return
        if self.resume:
            self._look_for_saved()
            return
        if self.join is not None:
            from .online import OnlineScreen

            server, code, name = self.join
            self.push_screen(OnlineScreen(server, code, name, join=True))
            return
        if self.online is not None:
            self.action_online()
            return
        # The setup screen is the first screen; the saved games are looked for once it is drawn.
        self.call_after_refresh(self._look_for_saved)

    def _look_for_saved(self) -> None:
        """Offer the unfinished game, or say why a save could not be used.  A finished game whose
        result was never seen (the app was closed on its last summary) opens at once to show it."""
        from ..explain.saving import describe_progress
        from ..storage.session import find_saved

        saved = find_saved()
        session = saved.session
        if session is not None and (self.resume or session.game.over):
            self._open_table(session)
            if saved.problem:
                self._tell_problem(saved.problem, session is not None)
            return
        if self.resume:
            self.show_setup()

        def offer(_: object = None) -> None:
            if session is not None:
                from .dialogs import ResumeScreen

                self.push_screen(
                    ResumeScreen(describe_progress(session.game)), lambda answer: self._resume_answer(answer, session)
                )
            elif saved.open_elsewhere:
                self._offer_open_elsewhere(saved.open_elsewhere[0])
            elif self.resume and not saved.problem:
                self.notify("There is no unfinished game to resume.")
            elif not self.resume:
                self._offer_kept_seat()

        if saved.problem:
            self._tell_problem(saved.problem, session is not None, then=offer)
        else:
            offer()

    def _tell_problem(self, problem: str, resumed: bool, then: Callable[[object], None] | None = None) -> None:
        from .dialogs import NoticeScreen

        title = "The saved game's settings could not be used" if resumed else "The saved game could not be used"
        self.push_screen(NoticeScreen(title, problem), then or (lambda _: None))

    def _resume_answer(self, answer: str | None, session: Session) -> None:
        if answer == "resume":
            self._open_table(session)
        else:
            session.archive("unfinished")

    def _offer_kept_seat(self) -> None:
        """The tables the person still sits at (their seats kept in the data folder): the newest
        is offered, and Play online lists them all."""
        from ..storage.seats import kept_seats

        kept = kept_seats()
        if not kept:
            return
        from .dialogs import ConfirmScreen
        from .online import OnlineScreen

        seat = kept[0]
        more = f"\n(And {len(kept) - 1} more: Play online, F4, lists them.)" if len(kept) > 1 else ""

        def answer(yes: bool | None) -> None:
            if yes:
                self.push_screen(OnlineScreen(seat.server, seat.code, seat.name, join=True))

        self.push_screen(
            ConfirmScreen(
                f"You still sit at table {escape(seat.code)} on {escape(seat.server)} "
                f"as {escape(seat.name)}.\nTake your seat back?{more}"
            ),
            answer,
        )

    def _offer_open_elsewhere(self, path: Path) -> None:
        """Another copy of the app has this game open: offer to look at it, never to write it."""
        from .dialogs import OpenElsewhereScreen

        def answer(what: str | None) -> None:
            if what == "review":
                self._review_file(path, "the game open in the other window")

        self.push_screen(OpenElsewhereScreen(escape(str(path))), answer)

    def _review_file(self, path: Path, title: str) -> None:
        from ..storage.records import RecordError, load_game
        from .screens import ReviewScreen

        try:
            game = load_game(path)
        except RecordError as exc:
            self.notify(f"It could not be read: {exc.line()}", severity="error")
            return
        self.push_screen(ReviewScreen(game.view(HUMAN), title))

    # --- screens --------------------------------------------------------------

    def _base(self, screen: Screen[None]) -> None:
        """Make ``screen`` the only screen above the first one (Textual's default screen: the
        setup screen the app opened on, or an empty one), which stays beneath, out of sight."""
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if len(self.screen_stack) == 2:
            old = self.screen
            from .table import TableScreen

            if isinstance(old, TableScreen):
                old.leave()
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def show_setup(self) -> None:
        from .setup import SetupScreen

        self._base(SetupScreen(self.last_setup))

    def _open_table(self, session: Session) -> None:
        from .table import TableScreen

        if not session.claim():
            # Another copy of the app opened it in the meantime: leave it to that one.
            self.show_setup()
            self._offer_open_elsewhere(session.path)
            return
        if self.session is not None and self.session is not session:
            self.session.release()
        self.session = session
        game = session.game
        self.last_setup = Setup(
            rules=game.rules,
            player=game.players[HUMAN],
            names=(game.players[1], game.players[2]),
            levels=(session.level(1) or "heuristic", session.level(2) or "heuristic"),
        )
        self._base(TableScreen(session, self.settings))

    def start_new_game(self, setup: Setup) -> None:
        """Begin a game with ``setup``; an unfinished saved game is filed away first (never lost)."""
        table = self.table
        if table is not None:
            table.leave()
            if not table.session.game.over:
                table.session.archive("unfinished")
            table.session.release()
        self.last_setup = replace(setup, seed=None)
        from ..storage.session import Session, free_slot

        session = Session.new(setup, free_slot())
        session.claim()
        session.save()
        self._open_table(session)

    @property
    def table(self) -> TableScreen | None:
        from .table import TableScreen

        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                return screen
        return None

    def claim_told(self) -> tuple[int | None, str] | None:
        """The claimer and the words of the accepted claim that ended the hand just finished at
        the table (the last thing told there but notices about saving), for its summary."""
        table = self.table
        for event in reversed(table.state.log if table is not None else ()):
            if event.kind != "save":
                return (event.seat, event.text) if event.kind == "claim" else None
        return None

    # --- actions ----------------------------------------------------------------

    def action_new_game(self) -> None:
        table = self.table
        if table is None or table.session.game.over:
            self.show_setup()
            return
        from .dialogs import ConfirmScreen

        def answer(yes: bool | None) -> None:
            if yes:
                table.leave()
                table.session.archive("unfinished")
                table.session.release()
                self.show_setup()

        self.push_screen(
            ConfirmScreen(
                "A game is in progress. Leave it and set up a new one?\n(It is kept in the games folder, not deleted.)"
            ),
            answer,
        )

    def action_help(self, rules: Rules | None = None) -> None:
        from .dialogs import HelpScreen

        if rules is None:
            table = self.table
            rules = table.session.game.rules if table is not None else self.last_setup.rules
        self.push_screen(HelpScreen(rules))

    def action_last_trick(self) -> None:
        table = self.table
        if table is not None:
            table.action_last_trick()

    def action_cycle_pace(self) -> None:
        """Faster each time: slow, normal, fast, instant, then slow again."""
        self.settings.pace = PACES[(PACES.index(self.settings.pace) - 1) % len(PACES)]
        save_settings(self.settings)
        self.notify(f"AI pace: {self.settings.pace}")
        if self.table is not None:
            self.table.flow.refresh()  # the top bar shows the pace

    def action_toggle_ascii(self) -> None:
        self.settings.ascii = not self.settings.ascii
        save_settings(self.settings)
        self.show_ascii()
        self.notify("Suit symbols: " + ("ASCII" if self.settings.ascii else "Unicode"))
        if self.table is not None:
            from .render import Look

            self.table.look = Look(self.settings.ascii)

    def show_ascii(self) -> None:
        """Draw every screen as the ASCII setting now says: the app's class, the key lines (whose
        keys are words in ASCII mode) and the setup screen's own choice."""
        from .widgets import Choice, KeyBar

        self.set_class(self.settings.ascii, "-ascii")
        for screen in self.screen_stack:
            for bar in screen.query(KeyBar):
                bar.refresh()
            for choice in screen.query("#ascii").results(Choice):
                choice.value = "yes" if self.settings.ascii else "no"

    def action_cycle_colour(self) -> None:
        self.settings.colour = COLOURS[(COLOURS.index(self.settings.colour) + 1) % len(COLOURS)]
        save_settings(self.settings)
        self.apply_colour_mode()
        self.notify(f"Colours: {self.settings.colour}")

    def apply_colour_mode(self) -> None:
        from textual.filter import Monochrome

        mono = self.settings.monochrome or (self.no_color and self.settings.colour != "colour")
        self._filters = [f for f in self._filters if not isinstance(f, Monochrome)]
        if mono:
            self._filters.append(Monochrome())
        self.refresh()
        self.screen.refresh(repaint=True)

    def action_review(self) -> None:
        table = self.table
        if table is None:
            return
        from .screens import ReviewScreen

        self.push_screen(ReviewScreen(table.state.view, "this game"))

    def action_history(self) -> None:
        """The games in the library, newest first (tui/library_screens.py)."""
        from .library_screens import HistoryScreen

        self.push_screen(HistoryScreen())

    def action_online(self) -> None:
        """Play online: open a table on a table server, or join one with its invite code."""
        from .online import OnlineScreen
        from .setup import SetupScreen

        screen = self.screen
        rules = screen.setup.rules if isinstance(screen, SetupScreen) else self.last_setup.rules
        last = self.last_online
        if self.online is not None:  # one server only (stepping-stones join --server URL, serve --server URL)
            server, name = self.online
            self.push_screen(OnlineScreen(server, name=last[1] if last is not None else name, fixed=True, rules=rules))
            return
        if last is not None:  # the server and the name of the last table, kept
            self.push_screen(OnlineScreen(last[0], name=last[1], rules=rules))
            return
        self.push_screen(OnlineScreen(rules=rules))

    def action_stats(self) -> None:
        """The person's statistics over the games in the library."""
        from .library_screens import StatsScreen

        self.push_screen(StatsScreen())

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield SystemCommand("New game", "Set up a new game (asks first if one is going on)", self.action_new_game)
        yield SystemCommand("Rules", "How Stepping Stones is played, for the contracts in play", self.action_help)
        yield SystemCommand(
            "Game history", "The games in the library, newest first; open one to review it", self.action_history
        )
        yield SystemCommand(
            "Play online", "Open a table on a table server, or join one with an invite code", self.action_online
        )
        yield SystemCommand(
            "Statistics", "Your games, wins and points, and how you do in each contract", self.action_stats
        )
        if self.table is not None:
            yield SystemCommand(
                "Hint",
                "Suggest your bid or card, with the reason (the game counts as assisted)",
                self.table.action_hint,
            )
            yield SystemCommand(
                "Claim the rest",
                "On your turn to play: say how many of the tricks left your side "
                "takes; if it holds whatever the others play, the hand ends (key c)",
                self.table.action_claim,
            )
            yield SystemCommand("Last trick", "Look at the last finished trick again", self.action_last_trick)
            yield SystemCommand("Review this game", "Step through the game so far, trick by trick", self.action_review)
        yield SystemCommand(
            "AI pace", f"Change how fast the computer plays (now {self.settings.pace})", self.action_cycle_pace
        )
        yield SystemCommand("ASCII symbols", "Switch between suit symbols and plain ASCII", self.action_toggle_ascii)
        yield SystemCommand(
            "Colours", f"Colour, monochrome or automatic (now {self.settings.colour})", self.action_cycle_colour
        )
        yield SystemCommand(
            "Bell on your turn",
            "At a table on a server, ring the terminal's bell when it is your "
            f"turn (now {'on' if self.settings.bell else 'off'})",
            self.action_toggle_bell,
        )
        for command in super().get_system_commands(screen):
            if command.title == "Keys":  # Textual's panel squeezes the screen, and stays on Escape
                yield SystemCommand("Keys", "The keys of this screen and what they do", lambda: self._show_keys(screen))
            else:
                yield command

    def _show_keys(self, screen: Screen[Any]) -> None:
        from .dialogs import KeysScreen

        self.push_screen(KeysScreen(screen))

    def action_toggle_bell(self) -> None:
        self.settings.bell = not self.settings.bell
        save_settings(self.settings)
        self.notify(f"The bell on your turn is {'on' if self.settings.bell else 'off'}.")

    # --- window size -------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size)

    def _check_size(self, size: Size | None = None) -> None:
        w, h = size or self.size
        small = w < MIN_WIDTH or h < MIN_HEIGHT
        self.set_class(small, "-too-small")
        if small:
            for widget in self.screen.query(TooSmall):
                widget.update_size(size)

    def on_screen_resume(self) -> None:
        self._check_size()

    # --- quitting -------------------------------------------------------------------

    def on_unmount(self) -> None:
        """Closing: give up the claim on the game, so that the next copy may open it.  In a
        browser tab, tell the server (``stepping-stones serve``) whether a game was left open, so
        that it can say how many games it saved when it stops."""
        write_meta = getattr(self._driver, "write_meta", None) if self.is_web else None
        if write_meta is not None:
            from ..storage.session import SERVED_GAME_META

            playing = self.session is not None and not self.session.game.over
            write_meta({"type": SERVED_GAME_META, "open": playing})
        self.stop_analyses()
        if self.session is not None:
            self.session.release()

    def stop_analyses(self) -> None:
        """Cancel the analysis workers and stop their solvers: quitting does not wait for a
        hand's analysis (it could take seconds), which is only worked out for the screen."""
        for stop in list(self.analyses):
            stop()
        for worker in list(self.workers):
            if worker.group == "analysis":
                worker.cancel()

    def unsaved_problem(self) -> str | None:
        """Why this copy's game is not saved, or None: a game in progress whose last save failed,
        or a finished game not yet written.  It is tried once more first (there may be room now)."""
        session = self.session
        if session is None or session.archived is not None or session.problem is None:
            return None
        if session.game.over:
            session.file_finished()
            # written in its save but not filed: nothing is lost, the next start files it
            return session.problem if session.archived is None and not session.finished_written else None
        session.save()
        return session.problem

    def leave_finished(self, then: Callable[[], None]) -> None:
        """Go on from the final result with ``then``; if the finished game is not saved, ask first."""
        problem = self.unsaved_problem()
        if not problem:
            then()
            return
        from .dialogs import ConfirmScreen

        def answer(yes: bool | None) -> None:
            if yes:
                then()

        self.push_screen(
            ConfirmScreen(f"The finished game is not saved: {problem}.\nIf you go on, it is lost. Go on anyway?"),
            answer,
        )

    async def action_quit(self) -> None:
        """Quit.  A game in progress is saved: say so, and how to come back.  If it (or a finished
        game) could not be saved, ask first."""
        table = self.table
        playing = table is not None and not table.session.game.over
        problem = self.unsaved_problem()
        if not problem:
            if playing:
                self.farewell = (
                    "Your game is saved. Run stepping-stones (or stepping-stones --resume) "
                    "to carry on where you stopped."
                )
            self.stop_analyses()
            self.exit()
            return
        from .dialogs import ConfirmScreen

        finished = self.session is not None and self.session.game.over
        what = "The finished game" if finished else "This game"

        def answer(yes: bool | None) -> None:
            if yes:
                self.unsaved = f"{what} was not saved: {problem}."
                self.stop_analyses()
                self.exit(return_code=1)

        self.push_screen(
            ConfirmScreen(f"{what} is not saved: {problem}.\nIf you quit now it is lost. Quit anyway?"), answer
        )


def run(
    resume: bool = False,
    setup: Setup | None = None,
    join: tuple[str, str, str] | None = None,
    online: tuple[str, str | None] | None = None,
) -> int:
    """Run the app (its setup screen filled in from ``setup``; with ``join``, taking that seat at a
    table on a server at once; with ``online``, (server, name), on Play online at that server alone);
    the exit status: 0, or non-zero after an error (a crash, a lost game)."""
    app = SteppingStonesApp(resume=resume, setup=setup, join=join, online=online)
    # What has been imported lives as long as the program: freezing it spares the garbage collector
    # going through it all again (a full collection took 25-30 ms while the first screen was drawn).
    gc.freeze()
    app.run()
    if app.unsaved:
        print(f"stepping-stones: {app.unsaved}", file=sys.stderr)
    elif app.farewell:
        print(app.farewell)
    return app.return_code or 0
