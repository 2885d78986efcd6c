"""The rules engine stays pure: no user-interface or boundary library and nothing of ours
outside it, neither in its code nor at import time; and nothing outside it reaches past its
public face."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import stepping_stones.engine as engine

# OpenSpiel (pyspiel, open_spiel) is for stepping_stones.openspiel only.
FORBIDDEN = {"textual", "rich", "pydantic", "platformdirs", "pyspiel", "open_spiel"}
ENGINE_DIR = Path(engine.__file__).parent
PACKAGE_DIR = ENGINE_DIR.parent


def imports(path: Path) -> list[tuple[int, str]]:
    """(relative level, module) for every import in a source file; level 0 is absolute."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(0, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
    return found


def test_engine_sources_import_no_ui_library_and_nothing_of_ours_outside_the_engine():
    offenders = []
    for path in sorted(ENGINE_DIR.glob("*.py")):
        for level, module in imports(path):
            if level == 0 and module.split(".")[0] in FORBIDDEN | {"stepping_stones"}:
                offenders.append(f"{path.name}: import {module}")
            if level >= 2:  # from .. or further up: out of the engine package
                offenders.append(f"{path.name}: from {'.' * level}{module} import ...")
    assert offenders == []


def test_the_check_above_would_see_a_relative_import_out_of_the_engine(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from ..settings import data_dir\nfrom .cards import BIT\n")
    assert imports(bad) == [(2, "settings"), (1, "cards")]


def test_nothing_outside_the_engine_imports_its_modules_directly():
    offenders = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        if ENGINE_DIR in path.parents:
            continue
        for level, module in imports(path):
            if module.startswith(("engine.", "stepping_stones.engine.")):
                offenders.append(f"{path.relative_to(PACKAGE_DIR)}: {'.' * level}{module}")
    assert offenders == []


def test_importing_the_engine_loads_no_ui_library():
    code = (
        "import sys, random, stepping_stones.engine as e\n"
        "e.Game().deal_hand(random.Random(1))\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_replay_command_does_not_load_the_tui():
    code = (
        "import sys\n"
        "from stepping_stones.cli import build_parser\n"
        "build_parser()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_face_loads_the_game_modules_when_their_names_are_asked_for():
    """The face loads the cards, contracts and errors at once (the setup screen needs no more)
    and every other name of ``__all__`` from the module the lazy table names, on first use."""
    code = (
        "import sys, stepping_stones.engine as e\n"
        "print(sorted(m for m in sys.modules if m.startswith('stepping_stones.engine.')))\n"
        "e.Game\n"
        "print(sorted(m for m in sys.modules if m.startswith('stepping_stones.engine.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    at_once = ["stepping_stones.engine.cards", "stepping_stones.engine.contracts", "stepping_stones.engine.errors"]
    assert out[0] == str(at_once)
    assert "stepping_stones.engine.game" in out[1]
    lazy = engine._MODULE_OF
    assert set(lazy) <= set(engine.__all__)
    for name in engine.__all__:
        value = getattr(engine, name)
        if name in lazy:
            defined_in = sys.modules[f"stepping_stones.engine.{lazy[name]}"]
            assert getattr(defined_in, name) is value
    assert set(engine.__all__) <= set(dir(engine))
