"""A paste into Tableside's text fields against a bare Textual ``Input``, in one process.

A terminal without bracketed paste hands a paste over as one key per character; with it, as
one Paste event. Both are timed, for a bare ``Input`` in an app of its own and for each of
the NPC builder's free-text fields, from the first event sent to the field having handled
them all (a paste event: the median of nine). Prints the seconds and the ratio to the bare Input (goal: at
most 2). Not part of the suite.

    python bench/paste.py [--chars 10000] [--paste-chars 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from textual import events  # noqa: E402
from textual.app import App, ComposeResult  # noqa: E402
from textual.pilot import Pilot  # noqa: E402
from textual.widgets import Input  # noqa: E402

from app.demo import write_demo  # noqa: E402
from app.state import Campaign  # noqa: E402
from app.store import CampaignStore  # noqa: E402
from app.tui import TablesideApp  # noqa: E402

COLOURED = "\x1b[31mred\x1b[0m and \x1b[1;32mbold green\x1b[0m text; "
"""ANSI-coloured text as a terminal's copy may carry it (the escape bytes arrive as keys)."""


KEY_NAMES = {" ": "space", ";": "semicolon", ".": "full_stop"}
"""Keys a terminal sends for a paste's characters."""
ESCAPES = re.compile(r"\x1b\[[0-9;]*m")
"""The terminal's parser takes a colour's escape sequence whole: it is no key."""


class Bare(App[None]):
    def compose(self) -> ComposeResult:
        yield Input(id="bare")


def _text(chars: int, coloured: bool) -> str:
    unit = COLOURED if coloured else "All work and no play makes the GM a dull boy. "
    return (unit * (chars // len(unit) + 1))[:chars]


async def _time(pilot: Pilot[None], field: Input, text: str, as_keys: bool) -> float:
    """Seconds from the first event to the field having handled them all: a ``home`` key
    sent last moves the cursor to 0 only once every key before it was taken."""
    field.focus()
    await pilot.pause()
    field.value = "x"  # the cursor after it: the last key's move to 0 is seen, paste or not
    field.cursor_position = 1
    await pilot.pause()
    app = pilot.app  # the events go to its queue as a terminal's driver puts them there
    began = time.perf_counter()
    if as_keys:
        for char in ESCAPES.sub("", text):
            if char.isalnum() or char in KEY_NAMES:
                app.post_message(events.Key(KEY_NAMES.get(char, char), char))
    else:
        app.post_message(events.Paste(text))
    app.post_message(events.Key("home", None))
    while field.cursor_position != 0:
        await asyncio.sleep(0)
    took = time.perf_counter() - began
    await pilot.pause()
    return took


async def _median(pilot: Pilot[None], field: Input, text: str, as_keys: bool) -> float:
    """A paste event is timed a few times (one is a frame or two), keys once."""
    runs = [await _time(pilot, field, text, as_keys) for _ in range(1 if as_keys else REPEAT)]
    return statistics.median(runs)


async def bare(text: str, as_keys: bool, max_length: int) -> float:
    app = Bare()
    async with app.run_test(size=(120, 36)) as pilot:
        field = app.query_one(Input)
        field.max_length = max_length
        return await _median(pilot, field, text, as_keys)


async def tableside(field_id: str, panel: str, text: str, as_keys: bool) -> float:
    folder = Path(tempfile.mkdtemp())
    save = write_demo("shadows", folder / "bench.json", seed=1)
    app = TablesideApp(Campaign(CampaignStore.open(save)))
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.press(panel)
            await pilot.pause()
            field = app.screen.query_one(f"#{field_id}", Input)
            return await _median(pilot, field, text, as_keys)
    finally:
        app.campaign.store.close()


REPEAT = 9
FIELDS = (("npc-name", "3", 0), ("npc-concepts", "3", 0), ("npc-powers", "3", 0))
"""Each field, the key of its panel, and the bare Input's max_length to match the field's."""


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chars", type=int, default=10_000, help="keys typed (a paste)")
    parser.add_argument("--paste-chars", type=int, default=100_000)
    args = parser.parse_args()
    for label, text, as_keys in (
        (f"{args.chars:,} coloured chars as keys", _text(args.chars, True), True),
        (f"{args.chars:,} plain chars as keys", _text(args.chars, False), True),
        (f"{args.paste_chars:,} chars as one paste", _text(args.paste_chars, False), False),
        (f"{args.chars:,} coloured chars as one paste", _text(args.chars, True), False),
    ):
        print(label)
        for field_id, panel, max_length in FIELDS:
            base = await bare(text, as_keys, max_length)
            took = await tableside(field_id, panel, text, as_keys)
            print(f"  {field_id}: {took:.2f} s, a bare Input {base:.2f} s: {took / base:.1f}x")


if __name__ == "__main__":
    asyncio.run(main())
