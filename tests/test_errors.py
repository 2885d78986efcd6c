"""One exception root for refusals: every exception class of the package derives from the
engine's ``SteppingStonesError``, so that a caller that shows problems to a person catches one
class; only exceptions that carry control flow stay apart, each with its reason here."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import stepping_stones
from stepping_stones.engine import SteppingStonesError

CONTROL_FLOW = {
    "SearchLimit": "the solver's search stopped at its limit of positions; the caller falls back, nobody is told",
    "Quit": "the person quits the plain game: it unwinds the loop to the one place that saves",
    "_Lost": "plain mode at a table: the connection ended for good (already said); it unwinds to the table's loop",
    "ElsewhereOnTheLobbysPath": "a hello on /ws for a table another server process holds: a redirect, not a "
    "refusal (the server answers 'moved' and the client says its hello again on the table's own path)",
}
"""Exceptions that are not refusals, by name, and why they stay apart from the root."""


def exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class defined in the package, by name (``__main__`` would start the app)."""
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(stepping_stones.__path__, "stepping_stones."):
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            if inspect.isclass(obj) and issubclass(obj, BaseException) and obj.__module__ == info.name:
                assert found.get(obj.__name__, obj) is obj, f"two exception classes named {obj.__name__}"
                found[obj.__name__] = obj
    return found


def test_every_refusal_of_the_package_derives_from_the_one_root():
    classes = exception_classes()
    assert {
        "RecordError",
        "FileProblem",
        "LibraryError",
        "ClusterError",
        "NothingToHint",
        "BadMessage",
        "TableError",
        "ProtocolError",
        "DoorError",
        "Refused",
    } <= set(classes)
    apart = {name for name, cls in classes.items() if not issubclass(cls, SteppingStonesError)}
    assert apart == set(CONTROL_FLOW)  # a new one derives from the root, or says here why not


def test_the_control_flow_exceptions_say_why_they_stay_apart():
    classes = exception_classes()
    for name in CONTROL_FLOW:
        assert classes[name].__doc__, f"{name} says what it carries"
