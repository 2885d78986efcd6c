"""The exact double-dummy solver, one idea per module (as DDS writes its search):

* ``ranks``: the relative-rank codes that key a position, and the runs of equivalent cards;
* ``ordering``: move ordering (which card each seat tries first);
* ``bounds``: bounds without search (quick tricks, sure trumps, the quick count of winners);
* ``tables``: the transposition table of bounds for the whole hand;
* ``search``: the zero-window search itself, one seat of a trick per function;
* ``layout`` and ``kernel``: what a solver tells the search, and its arrays;
* ``jit``: the search written once and run compiled by numba, or as Python where numba is
  missing; ``native``: numba's machine code saved, and loaded without numba; ``core``: which one
  runs, loading and compiling it;
* ``solver``: the typed face, ``Solver``, used by the expert, the hints and the analysis.
"""

from .core import (
    COMPILE_WAIT,
    CORE_VARIABLE,
    CORES,
    DEFAULT_CORE,
    PREPARING,
    choose_core,
    compile_lock_path,
    compile_needed,
    compiled_core_problem,
    compiled_core_ready,
    load_in_background,
    say_while_loading,
)
from .kernel import SearchLimit
from .ranks import run_of, run_representatives
from .solver import Solver, keeping_cards, keeps, position, reaches, solve, solver_for, whole_hand_value

__all__ = [
    "Solver",
    "SearchLimit",
    "keeping_cards",
    "keeps",
    "position",
    "reaches",
    "solve",
    "solver_for",
    "whole_hand_value",
    "run_of",
    "run_representatives",
    "CORE_VARIABLE",
    "CORES",
    "DEFAULT_CORE",
    "COMPILE_WAIT",
    "PREPARING",
    "choose_core",
    "compile_lock_path",
    "compile_needed",
    "compiled_core_problem",
    "compiled_core_ready",
    "load_in_background",
    "say_while_loading",
]
