"""Where campaigns live. Nothing here touches the disk at import time."""

from __future__ import annotations

import contextlib
import os
from datetime import datetime
from pathlib import Path

LAST_FILE = ".last-campaign"


APP_NAME = "tableside"


def saves_home() -> tuple[Path, str]:
    """The campaign folder and why it is the one: ``$TABLESIDE_SAVES`` if set; else ``saves/``
    in the current folder if it exists (a GM who keeps campaigns beside their notes); else the
    user data folder, so starting Tableside from two folders still finds one set of campaigns."""
    env = os.environ.get("TABLESIDE_SAVES")
    if env:
        return Path(env).expanduser(), "$TABLESIDE_SAVES is set"
    here = Path.cwd() / "saves"
    if here.is_dir():
        return here, "./saves exists in the current folder"
    from platformdirs import user_data_path

    return user_data_path(APP_NAME, appauthor=False), "the user data folder (the default)"


def saves_dir() -> Path:
    """The campaign folder (see :func:`saves_home`)."""
    return saves_home()[0]


def where_text() -> str:
    """``tableside --where``: the folder on the first line, the reason and the order on the next."""
    folder, why = saves_home()
    return (
        f"{folder}\n{why}; the order is $TABLESIDE_SAVES, then ./saves if it exists, "
        "then the user data folder"
    )


def remember_last(path: Path) -> None:
    with contextlib.suppress(OSError):
        folder = saves_dir()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / LAST_FILE).write_text(str(path.absolute()), encoding="utf-8")


def last_campaign() -> Path | None:
    from app.bounded import FileReadError, read_regular_file

    try:
        # A link to /dev/zero or a FIFO in its place must not hang or fill memory at start-up.
        raw = read_regular_file(saves_dir() / LAST_FILE, 64 * 1024)
        text = raw.decode("utf-8").strip()
    except (OSError, FileReadError, UnicodeDecodeError):
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
