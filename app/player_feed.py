"""What ``tableside serve`` pushes to the players' pages, and the private hands it unlocks.

No web here (that is :mod:`app.player_server`): :class:`SaveWatch` follows the save and the GM's
session and turns them into the one message every page is sent; :class:`HandDesk` checks a
player's code and keeps the lockout after wrong codes per PC, for the server's lifetime, so a
reconnect or a second page does not start it afresh.

The save is read with the validating reader and never written, and its lock is never taken:
the server runs beside the GM's ``tableside SAVE``. A change is seen by the save's size, mtime
and inode (the GM's app replaces the file atomically, so a read sees the old or the new file,
never half of one); whether the GM's session is open, by the lock's owner file
(:func:`app.store.owner_path`: ``pid N on HOST``, removed when the GM quits).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import os
import re
import socket
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import orjson

from app.player_settings import SECRET_KEY
from app.player_view import (
    Data,
    Lockout,
    PlayerSettings,
    PlayerView,
    build_view,
    code_matches,
    hands_of,
    headline,
    meta_of,
    own_view,
    party,
)
from app.side_files import OWNER_BYTES, SideFileError, read_side_file, read_side_text
from app.store import StoreError, journal_path, load_campaign, owner_path
from rulesets import registry
from rulesets.game import Game
from rulesets.values import frozen

POLL_SECONDS = 0.15
"""How often the save is looked at (one ``stat``): a GM's change reaches the pages well within
a second."""
MAX_CODE = 32
"""A typed code longer than this is not a code (codes are five characters)."""

log = logging.getLogger("tableside.serve")
FileStamp = tuple[int, int, int]
Fingerprint = tuple[FileStamp, FileStamp | None] | None
"""The save file's size, time and inode, and its journal's (None: no journal); None: no save."""
OWNER = re.compile(r"pid (\d+) on (.+)")


def _stamp(path: Path) -> FileStamp | None:
    try:
        info = path.lstat()  # a link put in a file's place is a change, never followed
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns, info.st_ino)


def fingerprint(path: Path) -> Fingerprint:
    """The save's and its journal's: a GM's change is in the journal, synced, the moment it
    shows on the GM's screen; the save file takes it in once the keys pause (app.store)."""
    save = _stamp(path)
    return None if save is None else (save, _stamp(journal_path(path)))


def gm_session_open(path: Path) -> bool:
    """Whether a GM's Tableside holds this save now: its owner file names a live process.

    Raises:
        SideFileError: the owner file is a link, a FIFO, a device, too large: not known.
    """
    try:
        owner = read_side_text(owner_path(path), OWNER_BYTES).strip()
    except FileNotFoundError:
        return False
    found = OWNER.fullmatch(owner)
    if found is None or found[2] != socket.gethostname():
        return True  # held from elsewhere (a shared folder): the file is all we can go by
    pid = int(found[1])
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False  # killed: the lock went with it, the owner file stayed
    except PermissionError:
        return True
    return True


def clock_text(stamp: float, now: float | None = None) -> str:
    """``20:41:07`` today, ``3 Dec 20:41`` on another day (the table's own clock)."""
    when = time.localtime(stamp)
    today = time.localtime(time.time() if now is None else now)
    if when[:3] == today[:3]:
        return time.strftime("%H:%M:%S", when)
    return time.strftime("%d %b %H:%M", when).lstrip("0")


@frozen
class Reading:
    """The last good read of the save and the view built from it."""

    data: Data
    game: Game
    view: PlayerView
    changed: float
    """The save's mtime: the time of the GM's last change."""


class SaveWatch:
    """Follows the save and the GM's session; :attr:`payload` is what every page is sent."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.reading: Reading | None = None
        self.problem = ""
        """Why the save cannot be read now (empty when it can)."""
        self.gm_open = False
        self.gm_seen = False
        self.payload = ""
        """The view message as JSON text, built once for every page."""
        self._seen: tuple[Fingerprint, bool] | None = None
        self._said = {"owner": "", "save": ""}
        """The last problem logged for each file: each is said once, not at every poll."""

    def _say(self, what: str, problem: str) -> None:
        if problem and problem != self._said[what]:
            log.warning("players' view: %s", problem)
        self._said[what] = problem

    def _session(self) -> bool:
        """Whether the GM's session is open; as last known when the owner file cannot be read."""
        try:
            found = gm_session_open(self.path)
        except SideFileError as exc:
            self._say("owner", f"{owner_path(self.path).name} {exc}: ignored")
            return self._seen[1] if self._seen is not None else False
        self._say("owner", "")
        return found

    def poll(self) -> bool:
        """Look at the save and the GM's session, re-read on a change; True when something
        changed (the view in :attr:`payload`, or only what an open hand shows)."""
        now = (fingerprint(self.path), self._session())
        if now == self._seen:
            return False
        if self._seen is None or now[0] != self._seen[0]:
            self._reload(now[0])
        self._seen = now
        self.gm_open = now[1]
        self.gm_seen = self.gm_seen or now[1]
        self.payload = orjson.dumps(self.message()).decode()
        return True

    def _reload(self, seen: Fingerprint) -> None:
        refused: list[str] = []

        def read(path: Path, limit: int) -> bytes:
            # Not following links, regular files only, bounded (app.side_files); a journal
            # refused so is noted, since the store reads on without one.
            try:
                return read_side_file(path, limit)
            except SideFileError as exc:
                refused.append(f"{path.name} {exc}")
                raise

        try:
            data = load_campaign(self.path, read=read).data
            if refused:
                raise StoreError(self.path, refused[0])
            game = registry.game(str(meta_of(data)["ruleset"]))
            view = build_view(data, game, PlayerSettings.from_meta(meta_of(data)))
        except StoreError as exc:
            self.problem = "it is gone: moved or deleted" if seen is None else exc.reason
            self._say("save", f"the save {self.problem}: the last good view stays")
        except (registry.UnknownGame, KeyError) as exc:
            self.problem = f"its game cannot be opened ({exc})"
        except Exception as exc:  # a game's failure costs one message, never the server
            self.problem = f"its game could not show it ({type(exc).__name__})"
            log.warning("players' view: the game could not build the view (%s)", type(exc).__name__)
        else:
            self.problem = ""
            self._say("save", "")
            stamps = [stamp for stamp in seen or () if stamp is not None]
            changed = max(stamp[1] for stamp in stamps) / 1e9 if stamps else time.time()
            self.reading = Reading(data, game, view, changed)

    def notices(self) -> list[str]:
        """What the page must say about where its view comes from, with the last change's time."""
        since = ""
        if self.reading is not None:
            since = f"as of its last change at {clock_text(self.reading.changed)}"
        lines = []
        if self.problem:
            kept = f": showing the view {since}" if since else ""
            lines.append(f"The save cannot be read ({self.problem}){kept}.")
        if not self.gm_open:
            lead = (
                "The GM's session has ended"
                if self.gm_seen
                else "The GM's app is not open on this campaign"
            )
            lines.append(f"{lead}: this is the campaign {since}." if since else f"{lead}.")
        return lines

    def message(self) -> dict[str, Any]:
        """The view as every page is sent it: nothing the GM hides, no code, no secret."""
        reading = self.reading
        if reading is None:
            return {
                "type": "view",
                "headline": "Waiting for the campaign…",
                "rows": [],
                "notices": self.notices(),
                "following": False,
                "hands": "none",
            }
        view = reading.view
        secret = meta_of(reading.data).get(SECRET_KEY)
        # Every game shows a player their own PC (its declaration: app.player_view.own_view).
        hands = "ready" if isinstance(secret, str) and secret else "not set up"
        return {
            "type": "view",
            "headline": headline(view),
            "campaign": view.campaign,
            "game": view.game,
            "fight": view.fight,
            "time": view.time,
            "order_title": view.order_title,
            "rows": [asdict(row) for row in view.rows],
            "notices": self.notices(),
            "following": self.gm_open and not self.problem,
            "changed": clock_text(reading.changed),
            "hands": hands,
            "party": [{"id": i, "name": n} for i, n in party(reading.data)]
            if hands == "ready"
            else [],
            "key": page_key(secret) if hands == "ready" else "",
        }


def page_key(secret: Any) -> str:
    """A name for the campaign's codes the page may keep (localStorage): derived from the secret
    one way, so new codes (a new secret) forget the old ones and the secret never leaves."""
    return hmac.new(str(secret).encode(), b"players-page", hashlib.sha256).hexdigest()[:16]


class HandDesk:
    """Unlocks a PC's private hand for a page that typed its code; wrong codes lock the PC out
    (:class:`app.player_view.Lockout`) for every page, across reconnects."""

    def __init__(self, watch: SaveWatch, clock: Callable[[], float] = time.monotonic) -> None:
        self.watch = watch
        self.clock = clock
        self.lockouts: dict[int, Lockout] = {}

    def _names(self) -> dict[int, str]:
        reading = self.watch.reading
        return dict(party(reading.data)) if reading is not None else {}

    def _secret(self) -> str:
        reading = self.watch.reading
        secret = meta_of(reading.data).get(SECRET_KEY) if reading is not None else None
        return secret if isinstance(secret, str) else ""

    def unlock(self, pc_id: int, typed: str) -> tuple[dict[str, Any], bool]:
        """The page's answer to a code, and whether the hand is now open to it."""
        names = self._names()
        if pc_id not in names:
            return refused(pc_id, "no pc", "There is no such PC in this campaign."), False
        name = names[pc_id]
        secret = self._secret()
        if not secret:
            return refused(pc_id, "no codes", "The GM has not set up player codes yet."), False
        lockout = self.lockouts.setdefault(pc_id, Lockout())
        now = self.clock()
        wait = lockout.wait_left(now)
        if wait > 0:
            message = f"Too many wrong codes for {name}: try again in {math.ceil(wait)} s."
            return refused(pc_id, "locked out", message, wait), False
        right = code_matches(secret, pc_id, typed)
        lockout.record(right, now)
        if not right:
            wait = lockout.wait_left(now)
            hint = f" Wait {math.ceil(wait)} s before the next try." if wait else ""
            return refused(
                pc_id, "wrong code", f"That is not the code for {name}.{hint}", wait
            ), False
        return self.hand(pc_id), True

    def still_open(self, pc_id: int, typed: str) -> bool:
        """Whether a page's open hand may stay open after the save changed (new codes close it)."""
        secret = self._secret()
        return pc_id in self._names() and bool(secret) and code_matches(secret, pc_id, typed)

    def hand(self, pc_id: int) -> dict[str, Any]:
        reading = self.watch.reading
        name = self._names().get(pc_id, "?")
        if reading is None:
            return {"type": "hand", "pc": pc_id, "name": name, "hands": [], "problem": ""}
        try:
            hands = hands_of(reading.data, reading.game, pc_id)
            mine = own_view(reading.data, reading.game, pc_id)
        except Exception as exc:  # a game's failure costs one message, never the server
            log.warning("players' view: the game could not read a hand (%s)", type(exc).__name__)
            return {
                "type": "hand",
                "pc": pc_id,
                "name": name,
                "hands": [],
                "problem": "The game could not read this hand from the save "
                f"({type(exc).__name__}). Ask the GM to look at the party sheet.",
            }
        shown = (*mine.own, *hands, *mine.scene)
        problems = [h.problem for h in shown if h.problem]
        return {
            "type": "hand",
            "pc": pc_id,
            "name": name,
            "state": mine.state,
            "hands": [{"title": h.title, "cards": list(h.cards)} for h in shown],
            "problem": " ".join(problems),
        }


def refused(pc_id: int, reason: str, message: str, wait: float = 0.0) -> dict[str, Any]:
    """A code not taken: why, in words, and how long until the next try; none of the hand."""
    return {
        "type": "refused",
        "pc": pc_id,
        "reason": reason,
        "message": message,
        "wait": math.ceil(wait),
    }
