"""The rules engine stays pure: no user-interface library, in code or at import time."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import stepping_stones.engine as engine

FORBIDDEN = {"textual", "rich", "pydantic", "platformdirs"}
ENGINE_DIR = Path(engine.__file__).parent


def test_engine_sources_import_no_ui_library():
    offenders = []
    for path in sorted(ENGINE_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_importing_the_engine_loads_no_ui_library():
    code = (
        "import sys, stepping_stones.engine as e\n"
        "e.Game().deal_hand(__import__('random').Random(1))\n"
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
