"""Publishing a flow's state: one immutable ``TableState`` per change, to every subscriber.

``GameFlow`` (a game on this machine) and ``net.RemoteFlow`` (a seat at a table server) both
publish with ``Publisher``, so the front ends subscribe to either the same way and see the same
rules: a change is whatever happens inside ``_change()`` blocks, however deeply they nest; a
step that changes what the table shows marks the state dirty (``_mark``), and the outermost
block builds the state once (``_build``, which each flow writes) and hands it to each subscriber
(also when it ends in a refusal).  The log of events the state carries (``_tell``) and the
refusal it shows (``_refuse``) are kept here too.  Nothing here imports Textual.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..engine import Trick, WrongPhaseError
from .state import LOG_KEPT, Event, TableState

Subscriber = Callable[[TableState], None]
"""Called with every new state, on the thread that changed the flow."""


class Publisher:
    """The state last built, its subscribers, and the log and refusal it shows (see the module)."""

    NOTHING_YET = "There is nothing to show yet."
    """What ``state`` says before the first state was built (a flow may word it its own way)."""

    _refusal: str | None

    def _start_publishing(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._latest: TableState | None = None
        self._depth = 0
        self._dirty = False
        self._log: list[Event] = []
        self._told = 0
        self._refusal = None

    # --- what each flow says ---------------------------------------------------------------

    def _build(self) -> TableState:
        """The state of the table now."""
        raise NotImplementedError

    def _ready(self) -> bool:
        """Whether there is a table to build a state of yet."""
        return True

    # --- subscribing -------------------------------------------------------------------------

    @property
    def state(self) -> TableState:
        """What the table shows now (raises ``WrongPhaseError`` before the first state)."""
        if self._latest is None:
            raise WrongPhaseError(self.NOTHING_YET)
        return self._latest

    def subscribe(self, subscriber: Subscriber) -> None:
        """Hand every new state to ``subscriber`` (called on the thread that changed the flow)."""
        self._subscribers.append(subscriber)

    def refresh(self) -> None:
        """Publish again: something the state shows from outside the flow changed (the pace, the
        clock)."""
        with self._change():
            self._mark()

    # --- changing ----------------------------------------------------------------------------

    @contextmanager
    def _change(self) -> Iterator[None]:
        """One change, however many steps it takes: the state is built and published once, at
        the end of the outermost change (also when it ends in a refusal)."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0 and self._dirty and self._ready():
                self._dirty = False
                self._publish()

    def _publish(self) -> None:
        """Build the state now and hand it to every subscriber."""
        self._latest = self._build()
        for subscriber in list(self._subscribers):
            subscriber(self._latest)

    def _mark(self) -> None:
        """What the table shows has changed: the outermost change publishes a new state."""
        self._dirty = True

    def _refuse(self, why: str | None) -> None:
        """Show ``why`` as the refusal of the person's last action (None: no refusal)."""
        self._refusal = why
        self._dirty = True

    def _tell(self, kind: str, text: str, seat: int | None = None, trick: Trick | None = None) -> None:
        """Add an event to the log the state carries (its last ``LOG_KEPT``)."""
        self._log.append(Event(kind, text, seat, trick))
        del self._log[:-LOG_KEPT]
        self._told += 1
        self._dirty = True
