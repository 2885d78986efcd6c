"""The documentation names only what ships: no folder outside the repository (a spec folder, a
worktree, another checkout), and every file of the package a doc names in backquotes exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
OUTSIDE = re.compile(r"(?<![\w.])(?:/work/|/home/|\.\./shared|/tmp/wt|wt-[a-z])")
PACKAGE_FILE = re.compile(
    r"`((?:ai|cli|engine|explain|flow|game|lab|net|openspiel|plain|serve|storage|tui)/[\w/]+\.py)`"
)


def test_no_doc_cites_a_folder_outside_the_repository():
    found = [f"{doc.relative_to(ROOT)}: {m.group(0)}" for doc in DOCS for m in OUTSIDE.finditer(doc.read_text())]
    assert found == []


def test_every_package_file_a_doc_names_exists():
    """CONTRIBUTING named ``ai/solver.py`` and ``ai/solver_core.py`` after both had gone."""
    package = ROOT / "src" / "stepping_stones"
    named = {(doc.relative_to(ROOT), name) for doc in DOCS for name in PACKAGE_FILE.findall(doc.read_text())}
    assert sorted(f"{doc}: {name}" for doc, name in named if not (package / name).exists()) == []
