"""The examples in the engine's and the match driver's docstrings run and say what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import stepping_stones.engine as engine

MODULES = [
    "stepping_stones.engine",
    *(f"stepping_stones.engine.{m.name}" for m in pkgutil.iter_modules(engine.__path__)),
    "stepping_stones.game.match",
    "stepping_stones.explain",
    "stepping_stones.explain.saving",
    "stepping_stones.tui.drawing",
    "stepping_stones.ai.features",
    "stepping_stones.ai.solver",
    "stepping_stones.lab.calibrate",
    "stepping_stones.lab.tournament",
    "stepping_stones.net.addresses",
    "stepping_stones.net.door",
    "stepping_stones.net.protocol",
    "stepping_stones.net.wire",
    "stepping_stones.serve.tabs",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"


def test_the_public_engine_modules_have_examples():
    for name in ("cards", "contracts", "bids", "log", "hand", "game", "scoring"):
        finder = doctest.DocTestFinder()
        tests = finder.find(importlib.import_module(f"stepping_stones.engine.{name}"))
        assert sum(len(t.examples) for t in tests) > 0, name
