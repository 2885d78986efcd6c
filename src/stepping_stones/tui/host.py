"""What the screens ask of the app that hosts them, as a type (no import of the app itself).

The app imports the screens; a screen that imported the app back would close
an import cycle.  Screens reach the app's own services through ``host(self)``,
typed by this protocol, which ``SteppingStonesApp`` implements.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, cast

from textual.dom import DOMNode

if TYPE_CHECKING:
    from ..engine import Rules
    from ..game.choices import Setup
    from ..storage.session import Session
    from ..storage.settings import Settings
    from .hindsight import Hindsight


class Host(Protocol):
    settings: Settings
    last_setup: Setup
    session: Session | None
    analyses: set[Callable[[], None]]  # stops of the analyses running in threads
    hindsight: Hindsight  # the hands' analyses worked out so far
    last_online: tuple[str, str] | None  # the server and name of the last table sat at (Play online)

    def leave_finished(self, then: Callable[[], None]) -> None: ...

    def claim_told(self) -> tuple[int | None, str] | None: ...

    def start_new_game(self, setup: Setup) -> None: ...

    def show_setup(self) -> None: ...

    def action_help(self, rules: Rules | None = None) -> None: ...

    def action_new_game(self) -> None: ...

    def action_cycle_pace(self) -> None: ...

    def apply_colour_mode(self) -> None: ...

    def show_ascii(self) -> None: ...


def host(node: DOMNode) -> Host:
    """The app hosting ``node``, with the services the screens use."""
    return cast(Host, node.app)
