"""The zygote the TUI kill loop (tests/test_kill.py) forks real ``tableside SAVE`` sessions from.

Importing the app and its panels costs ~0.4 s a process; a fresh interpreter per kill would make
200 kills slow. ``python -m tests.killtui`` imports everything once (the panels the session
shows, the dice grammar), then on request ``os.fork()``\\s a child that makes the given
pseudo-terminal its controlling terminal and runs :func:`app.launch.launch` on the save, exactly
as ``tableside SAVE`` does: the real store, the real app and Textual's Linux driver on a pty.
The test types into the pty and SIGKILLs the child.

Protocol on the zygote's stdin/stdout, one line each::

    run TTY SAVE   ->  pid PID        (the child's stdin, stdout and stderr are the pty TTY)
    reap PID       ->  status STATUS  (the raw os.waitpid status)
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

CHILD_MAX_SECONDS = 30
"""A child the test failed to kill stops by itself rather than run on as an orphan."""


def warm_up() -> None:
    """Import what the session's first frame and its rolls use, so children only fork."""
    import app.launch  # noqa: F401  (the TUI path itself)
    import app.tui  # noqa: F401
    import screens.combat  # noqa: F401
    import screens.quick_roll  # noqa: F401
    from rulesets import registry
    from rulesets.dice import warm_up as dice_grammar

    dice_grammar()
    registry.game("shadows")
    assert threading.active_count() == 1, "no thread may run when the zygote forks"


def child(tty: str, save: Path) -> int:
    import signal

    from app.launch import launch

    os.setsid()  # a session of its own: the pty becomes its controlling terminal
    fd = os.open(tty, os.O_RDWR)
    for std in (0, 1, 2):
        os.dup2(fd, std)
    os.close(fd)
    os.environ["TERM"] = "xterm-256color"
    os.environ.pop("TEXTUAL", None)
    signal.alarm(CHILD_MAX_SECONDS)
    return launch(save)


def zygote() -> None:
    warm_up()
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    for line in sys.stdin:
        command, *args = line.split()
        if command == "run":
            pid = os.fork()
            if pid == 0:
                code = 3
                try:
                    code = child(args[0], Path(args[1]))
                finally:
                    os._exit(code)
            out.write(f"pid {pid}\n")
        elif command == "reap":
            _, status = os.waitpid(int(args[0]), 0)
            out.write(f"status {status}\n")
        out.flush()


if __name__ == "__main__":
    zygote()
