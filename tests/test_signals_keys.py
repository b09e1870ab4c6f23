"""Keys typed fast and signals: nothing typed is lost, nothing is left behind."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from textual import events

from app.store import CampaignStore, owner_path, read_campaign
from tests.apphelpers import SIZE, demo_app
from tests.hostile import leaks
from tests.test_hostile import HOSTILE_STEM

ROOT = Path(__file__).resolve().parents[1]

ROLLS = ["1d1+1", "1d1+2", "1d1+3", "1d1+4"]
KEYS = ["d", *(key for roll in ROLLS for key in (*roll, "enter"))]


def _char(key: str) -> str | None:
    return {"enter": "\r", "plus": "+"}.get(key, key if len(key) == 1 else None)


def _key(key: str) -> events.Key:
    return events.Key({"+": "plus"}.get(key, key), _char(key))


async def test_keys_typed_before_the_prompt_has_focus_go_to_it_in_order(tmp_path: Path) -> None:
    """Every key queued at once, harsher than a fast typist on a busy machine (the
    issue's 7 of 8 rolls): the quick roll opened by ``d`` gets every key after it, and each
    enter rolls its own expression."""
    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for key in KEYS:  # not waiting for the app between keys, as a terminal does not
            app.post_message(_key(key))
        # Until the four rolls are in (a CI machine under the whole suite took more than the
        # 0.5 s this waited; a key lost never arrives, however long the wait).
        for _ in range(100):
            await pilot.pause(0.05)
            if sum(e["kind"] == "roll" for e in app.campaign.log_entries()) >= len(ROLLS):
                break
        await pilot.pause(0.2)  # and nothing more after them
        rolls = [e["expression"] for e in app.campaign.log_entries() if e["kind"] == "roll"]
        assert rolls == ROLLS
        assert [e["total"] for e in app.campaign.log_entries() if e["kind"] == "roll"] == [
            2,
            3,
            4,
            5,
        ]
        assert app.screen.query_one("#quick-roll-input").value == ""  # type: ignore[attr-defined]
    app.campaign.store.close()


async def test_a_refused_entry_comes_back_to_be_fixed(tmp_path: Path) -> None:
    app = demo_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", *"1d", "enter")
        await pilot.pause()
        assert app.screen.query_one("#quick-roll-input").value == "1d"  # type: ignore[attr-defined]
    app.campaign.store.close()


# --- the real TUI in a pseudo-terminal ------------------------------------------------------------
class Terminal:
    """``tableside SAVE`` on a real pty (Textual's Linux driver), its raw output recorded."""

    def __init__(self, save: Path, cwd: Path) -> None:
        import fcntl
        import pty
        import struct
        import termios

        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 120, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "TABLESIDE_SAVES": str(cwd / "saves")}
        env.pop("TEXTUAL", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app", str(save)],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=ROOT,
            env=env,
            start_new_session=True,  # its own session: the pty is its controlling terminal
        )
        os.close(slave)
        self.output = b""

    def read_until(self, needle: bytes, timeout: float = 20) -> bool:
        end = time.monotonic() + timeout
        while needle not in self.output and time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    return needle in self.output
                if not chunk:
                    break
                self.output += chunk
        return needle in self.output

    def type(self, text: str) -> None:
        for char in text:
            os.write(self.master, char.encode())
            time.sleep(0.015)  # the fast typist

    def finish(self, timeout: float = 20) -> int:
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self.read_until(b"\0never\0", 0.2)
        self.read_until(b"\0never\0", 0.3)
        os.close(self.master)
        if self.proc.poll() is None:
            self.proc.kill()
        return self.proc.wait()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_restores_the_terminal_saves_and_cleans_up(
    tmp_path: Path, signum: signal.Signals
) -> None:
    save = tmp_path / f"{HOSTILE_STEM}.json"  # the header shows a hostile file name too
    term = Terminal(save, tmp_path)
    try:
        assert term.read_until(b"Combat"), term.output[-500:]
        term.type("d")
        assert term.read_until(b"dice expression")
        term.type("1d1+6\r")
        assert term.read_until(b"= 7")
        assert owner_path(save).exists()
        since = len(term.output)
        term.proc.send_signal(signum)
        code = term.finish()
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    after = term.output[since:]
    assert code == 0, term.output[-800:]
    assert b"\x1b[?1049l" in after, "still in the alternate screen"
    assert b"\x1b[?1000l" in after, "mouse tracking left on"
    assert not owner_path(save).exists()
    CampaignStore.open(save).close()  # the lock is free
    rolls = [e for e in read_campaign(save)["log"].values() if e["kind"] == "roll"]
    assert [e["total"] for e in rolls] == [7]
    # the real driver's raw bytes: the file name in the header went out visible, not run
    assert not leaks(term.output.decode("utf-8", "replace")), leaks(term.output.decode())[:3]
    assert "\u241b]0;PWN".encode() in term.output
