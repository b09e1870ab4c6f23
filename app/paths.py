"""Where campaigns live. Nothing here touches the disk at import time."""

from __future__ import annotations

import contextlib
import os
from datetime import datetime
from pathlib import Path

LAST_FILE = ".last-campaign"


def saves_dir() -> Path:
    """``$TABLESIDE_SAVES`` if set, else ``saves/`` under the current directory."""
    env = os.environ.get("TABLESIDE_SAVES")
    return Path(env).expanduser() if env else Path.cwd() / "saves"


def remember_last(path: Path) -> None:
    with contextlib.suppress(OSError):
        folder = saves_dir()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / LAST_FILE).write_text(str(path.absolute()), encoding="utf-8")


def last_campaign() -> Path | None:
    try:
        text = (saves_dir() / LAST_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return Path(text) if text else None


def new_campaign_path(stem: str) -> Path:
    """A fresh file name in the campaign folder that nothing else uses yet."""
    folder = saves_dir()
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    candidate = folder / f"{stem}-{stamp}.json"
    n = 2
    while candidate.exists():
        candidate = folder / f"{stem}-{stamp}-{n}.json"
        n += 1
    return candidate
