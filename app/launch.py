"""Open a campaign and run the TUI, releasing the lock and draining writes however it ends."""

from __future__ import annotations

import gc
import random
from datetime import datetime
from pathlib import Path

from app import START_UP_THRESHOLDS, paths
from app.state import Campaign
from app.store import CampaignStore, CorruptSave, atomic_write, newest_good_backup
from rulesets import registry


class LaunchError(Exception):
    """The campaign cannot be opened; the message says which file, why and what to do."""


def open_campaign(path: Path, *, ruleset: str = registry.DEFAULT, seed: int | None = None) -> Campaign:
    """The campaign at ``path`` (a new one of ``ruleset`` if there is none), its game loaded.

    Raises:
        LaunchError: the save is damaged, or ``ruleset`` (for a new save) is not there or
            cannot be used: no file is made then.
        StoreError: the save cannot be opened (its game cannot be used: one line naming the
            game and why, the save as it was).
    """
    try:
        if not path.exists():
            registry.game(ruleset)
        store = CampaignStore.open(path, ruleset=ruleset)
    except CorruptSave as exc:
        backup = newest_good_backup(path)
        hint = (
            f" Newest good backup: {backup} (open it with: tableside --from-backup {path})"
            if backup
            else " No good backup was found."
        )
        raise LaunchError(f"{exc} — the file was left untouched.{hint}") from None
    except registry.UnknownGame as exc:
        raise LaunchError(str(exc)) from None
    return Campaign(store, rng=random.Random(seed))


def recover_from_backup(path: Path) -> Path:
    """Copy the newest good backup of a damaged save to a new file beside it; touch nothing else."""
    backup = newest_good_backup(path)
    if backup is None:
        raise LaunchError(f"{path}: no good backup found beside it")
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}-recovered-{stamp}{path.suffix or '.json'}")
    atomic_write(target, backup.read_bytes())
    return target


def launch(path: Path, *, ruleset: str = registry.DEFAULT, seed: int | None = None) -> int:
    # The TUI's imports and its opening build objects that live all session and next to no
    # garbage: the collector's usual thresholds would traverse them again and again. Raised
    # here, for the TUI alone, and put back however it ends.
    before = gc.get_threshold()
    gc.set_threshold(*START_UP_THRESHOLDS)
    try:
        from app.tui import TablesideApp

        campaign = open_campaign(path, ruleset=ruleset, seed=seed)
        paths.remember_last(path)
        app = TablesideApp(campaign, handle_signals=True)
        try:
            app.run()
        finally:
            campaign.store.close()
    finally:
        gc.set_threshold(*before)
    # Textual sets 1 after an unhandled exception (it has printed the traceback): a crash
    # must not look like a clean exit to a script or a shell.
    return app.return_code or 0
