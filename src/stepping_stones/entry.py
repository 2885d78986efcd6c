"""The ``stepping-stones`` command's entry point: Ctrl+C at any moment ends it quietly.

Python turns Ctrl+C into ``KeyboardInterrupt`` wherever the program happens to be.  While a
command runs, that is what the commands expect (the plain game saves and stops, ``cli.main``
says one line).  But during the imports before ``cli.main`` can catch anything, or while the
interpreter flushes and shuts down afterwards, it is a traceback or an "Exception ignored"
message.  So from the very first line here until the command starts, and again once it is
done, Ctrl+C ends the process at once with one line and exit status 130: there is nothing to
save then.  ``cli.main`` hands Ctrl+C back as ``KeyboardInterrupt`` for the command itself
(and restores this afterwards).

This module imports nothing but what the interpreter has already loaded, so the moment before
the handler is in place is as short as it can be.
"""

import os
import signal
import sys
import threading
from types import FrameType

INTERRUPTED = 130
"""The exit status after Ctrl+C (128 + SIGINT), as a shell reports it."""


def end_now(signum: int, frame: FrameType | None) -> None:
    """The SIGINT handler outside the command: one line, exit 130, no cleanup to run."""
    try:
        os.write(2, b"stepping-stones: interrupted\n")
    except OSError:
        pass
    os._exit(INTERRUPTED)


# At once, on import: the console script does more work between importing this module and
# calling ``run`` (it rewrites ``sys.argv[0]`` with a regular expression).  Only the console
# script and ``python -m stepping_stones`` import this module.
if threading.current_thread() is threading.main_thread():
    signal.signal(signal.SIGINT, end_now)


def run() -> None:
    """The console script (``stepping-stones``) and ``python -m stepping_stones``."""
    from .cli import main

    code = main()
    # Write out what the command printed now, not in the interpreter's shutdown (where a Ctrl+C
    # could only end the process with the output still unwritten).
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away: nothing more to write, as in cli.main
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = code or 1
    sys.exit(code)
