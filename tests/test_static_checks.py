"""The static checks (``.ci/static``: ruff, strict mypy, import-linter's layers, vulture, tsc on the
web page's JavaScript) as a test of the suite, so that the README's test command checks them too.
They run in a process of their own while the other tests run; this test is how ``.ci/run`` runs
them (once), so a failure shows everything the checks printed, not a tail of it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / ".ci" / "static"


def test_ruff_mypy_import_linter_and_vulture_find_nothing() -> None:
    tools = str(Path(sys.executable).parent)  # the environment the tests run in has the tools
    env = {**os.environ, "PATH": tools + os.pathsep + os.environ.get("PATH", "")}
    done = subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, (
        f".ci/static found problems, or a tool is missing (pip install -e '.[test]' brings them)\n"
        f"{done.stdout}{done.stderr}"
    )
