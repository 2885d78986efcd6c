"""The rules engine stays pure at import time: loading it (and the command line's parser) loads
no user-interface or boundary library, and its face loads its modules as it says.  What its code
imports, and that nothing outside it reaches past its face, are import-linter's contracts
(``pyproject.toml``, run by ``.ci/static``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import stepping_stones.engine as engine

# OpenSpiel (pyspiel, open_spiel) is for stepping_stones.openspiel only.
FORBIDDEN = {"textual", "rich", "pydantic", "msgspec", "platformdirs", "pyspiel", "open_spiel"}
ENGINE_DIR = Path(engine.__file__).parent
PACKAGE_DIR = ENGINE_DIR.parent


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


def test_a_command_loads_its_own_module_and_not_the_other_commands():
    """``stepping-stones analyse FILE`` parses with its own parser: the other commands' modules
    (and what they import, asyncio for ``web``) cost every command 0.1-0.2 s of CPU before."""
    code = (
        "import sys\n"
        "from stepping_stones.cli import SUBCOMMANDS, main\n"
        "try:\n"
        "    main(['analyse', '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(n for n, m in SUBCOMMANDS.items() if 'stepping_stones.cli' + m in sys.modules))\n"
        "print('asyncio' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[-3:-1] == ["['analyse']", "False"], out


def test_the_face_loads_the_game_modules_when_their_names_are_asked_for():
    """The face loads the cards, contracts and errors at once (the setup screen needs no more)
    and every other name of ``__all__`` from the later module whose ``__all__`` holds it, on
    first use; each public name is listed once, by the module that defines it."""
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
    modules = ["cards", "contracts", "errors", *engine._LATER]
    listed = [(name, module) for module in modules for name in sys.modules[f"stepping_stones.engine.{module}"].__all__]
    assert sorted(engine.__all__) == sorted(name for name, _ in listed)
    assert len(set(engine.__all__)) == len(engine.__all__)  # no name listed by two modules
    for name, module in listed:
        assert getattr(engine, name) is getattr(sys.modules[f"stepping_stones.engine.{module}"], name)
    assert set(engine.__all__) <= set(dir(engine))
    assert {p.stem for p in ENGINE_DIR.glob("*.py")} == {"__init__", *modules}  # a new module joins the face


def test_analyse_without_a_terminal_loads_no_progress_bar_and_no_compile_lock(tmp_path):
    """``analyse`` with standard error not a terminal prints lines, not a bar: rich's progress
    module is not imported (10-30 ms of every such run); and a process that loads the solver's
    saved machine code never compiles it, so it does not import filelock for the compile lock."""
    record = tmp_path / "game.json"
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from stepping_stones.engine import Game\n"
        "from stepping_stones.storage.records import record_from_game, write_record\n"
        f"write_record(Path({str(record)!r}), record_from_game(Game()))\n"
        "from stepping_stones.cli import main\n"
        f"assert main(['analyse', {str(record)!r}]) == 0\n"
        "from stepping_stones.ai.solver.core import compiled_core\n"
        "loaded = compiled_core()\n"
        "print(not isinstance(loaded, str) and loaded[0].bind is not None)\n"
        "print('rich.progress' in sys.modules, 'filelock' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    from_saved_code, (progress, filelock) = out[-3] == "True", out[-2].split()
    assert progress == "False", out
    if from_saved_code:  # (a process that compiles the core takes the lock, and needs filelock)
        assert filelock == "False", out
