"""Bots from other packages: an ``Agent`` factory named by an entry point or by ``module:factory``.

A package that ships a bot declares it in the entry-point group ``stepping_stones.agents``
(``[project.entry-points."stepping_stones.agents"] mybot = "mypackage.bots:MyBot"``); once it is
installed, ``mybot`` is a level wherever the lab and the table bot take one.  Without installing
anything, ``mypackage.bots:MyBot`` names the factory directly (the module importable from the
current directory or ``PYTHONPATH``).  The factory is called with no arguments and must return an
``Agent`` (``base.py``).  Such a seat plays in ``simulate``, ``tournament`` and ``table bot``,
never in the app or ``play`` (docs/bots.md).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from importlib.metadata import entry_points

from ..engine import SteppingStonesError
from .base import Agent

GROUP = "stepping_stones.agents"
"""The entry-point group of bots from other packages."""

_DOTTED = r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*"
_SPEC = re.compile(f"{_DOTTED}:{_DOTTED}")


class BotError(SteppingStonesError, ValueError):
    """A bot from another package cannot be loaded, or what it makes is not an ``Agent``."""


def is_spec(text: str) -> bool:
    """Whether ``text`` has the form ``module:factory``."""
    return _SPEC.fullmatch(text) is not None


def installed() -> list[str]:
    """The names of the bots installed under the entry-point group, sorted."""
    return sorted({ep.name for ep in entry_points(group=GROUP)})


def _entry_point(name: str) -> Callable[[], object] | None:
    found = [ep for ep in entry_points(group=GROUP) if ep.name == name]
    if not found:
        return None
    try:
        factory = found[0].load()
    except Exception as exc:  # a third party's import can fail in any way: say which, in one line
        raise BotError(f"the bot {name!r} ({found[0].value}) cannot be loaded: {type(exc).__name__}: {exc}") from None
    if not callable(factory):
        raise BotError(f"the bot {name!r} ({found[0].value}) is not a factory (nothing to call)")
    return factory  # type: ignore[no-any-return]


def load_factory(spec: str) -> Callable[..., object]:
    """The factory that ``module:factory`` names (``BotError`` when it cannot be imported)."""
    if not is_spec(spec):
        raise BotError(f"{spec!r} is not module:factory (e.g. mypackage.bots:MyBot)")
    module_name, _, path = spec.partition(":")
    try:
        target: object = importlib.import_module(module_name)
    except Exception as exc:  # as above: one line, whatever the module raised
        raise BotError(f"cannot import {module_name!r} for the bot {spec!r}: {type(exc).__name__}: {exc}") from None
    for attr in path.split("."):
        try:
            target = getattr(target, attr)
        except AttributeError:
            raise BotError(f"{module_name!r} has no {path!r} for the bot {spec!r}") from None
    if not callable(target):
        raise BotError(f"{spec!r} is not a factory (nothing to call)")
    return target


def factory_of(level: str) -> Callable[[], object] | None:
    """The factory of an outside bot: an installed entry point's name or ``module:factory``;
    None when ``level`` is neither (``BotError`` when it is one but cannot be loaded)."""
    if is_spec(level):
        return load_factory(level)
    return _entry_point(level)


def outside_agent(level: str, factory: Callable[[], object]) -> Agent:
    """A new seat made by ``factory``, checked to be an ``Agent``."""
    try:
        agent = factory()
    except Exception as exc:  # a third party's constructor: one line
        raise BotError(f"the bot {level!r} failed to start: {type(exc).__name__}: {exc}") from None
    if not isinstance(agent, Agent):
        raise BotError(
            f"the bot {level!r} made a {type(agent).__name__}, not an Agent "
            "(it needs name, choose_bid and choose_card: docs/bots.md)"
        )
    return agent
