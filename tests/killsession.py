"""The scripted session the kill loop (tests/test_kill.py) SIGKILLs, and the zygote that runs it.

Why a zygote: importing the app costs ~0.4 s, so 200 (or 1,000) fresh interpreters would make
the kill loop slow. ``python -m tests.killsession`` imports everything once, then on request
``os.fork()``s a child per attempt that plays the session; the test kills that pid.

Why deterministic: the child's rng is seeded by the attempt number and its clock is fixed, so
the test can replay the same session in-process from the state the child started from and know
the exact campaign after every step. The child acknowledges a step as soon as
``Campaign.apply`` returns (no flush: the journal makes a change durable before it returns).
After a kill the save, with its journal, must be the state of the last step the child
acknowledged, or of the one step after it (the change in flight) — nothing older, nothing
else. The child also reports each step's digest, which checks the replay itself.

Protocol on the zygote's stdin/stdout, one line each::

    run SAVE ACKS ATTEMPT   ->  pid PID        (the child appends "STEP DIGEST" lines to ACKS)
    reap PID                ->  status STATUS  (the raw os.waitpid status)
"""

from __future__ import annotations

import hashlib
import os
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from app.commands.combat import AddParty, Damage, Heal, NewEncounter, NextTurn, StartEncounter
from app.commands.dice import RollDice
from app.demo import write_demo
from app.state import Campaign, Command
from app.store import CampaignStore
from rulesets.decks import DrawCards

ENCOUNTER = "Kill loop"
FIXED_NOW = datetime(2026, 11, 21, 20, 0, 0, tzinfo=UTC)
CHILD_MAX_SECONDS = 20.0
"""A child the test failed to kill stops by itself rather than run on as an orphan."""


def digest(data: dict[str, Any]) -> str:
    """A digest of a campaign's content, the same for the in-memory and the loaded form."""
    plain = orjson.loads(orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS))
    return hashlib.blake2b(orjson.dumps(plain, option=orjson.OPT_SORT_KEYS)).hexdigest()[:20]


def _encounter_id(campaign: Campaign) -> int | None:
    for doc_id, doc in campaign.rows("encounters"):
        if doc.get("name") == ENCOUNTER:
            return doc_id
    return None


def _combatant_by_health(campaign: Campaign, eid: int, *, hurt: bool) -> str:
    """The PC combatant with the most health (to damage) or the least (to heal): damage 1 and
    heal 2 keep the party alive however the kills interleave the two."""
    enc = campaign.doc("encounters", eid)
    assert enc is not None
    pcs = [c for c in enc["combatants"] if c["side"] == "pc"]

    def health(c: dict[str, Any]) -> int:
        sheet = campaign.doc("party", int(c["ref"]))
        assert sheet is not None
        return int(sheet["resources"]["health"]["current"])

    chosen = min(pcs, key=health) if hurt else max(pcs, key=health)
    return str(chosen["id"])


def next_command(campaign: Campaign, attempt: int, step: int) -> Command:
    """Step ``step`` (1-based) of attempt ``attempt``: set the encounter up once, then cycle
    damage, turns, cards, dice and healing, starting the cycle at a place that depends on the
    attempt so that every kind of step gets killed in flight."""
    eid = _encounter_id(campaign)
    if eid is None:
        return NewEncounter(ENCOUNTER)
    enc = campaign.doc("encounters", eid)
    assert enc is not None
    if not any(c["side"] == "pc" for c in enc["combatants"]):
        return AddParty(eid)
    if not enc.get("started"):
        return StartEncounter(eid)
    cycle: list[Command] = [
        Damage(eid, combatant_id=_combatant_by_health(campaign, eid, hurt=False), amount="1"),
        NextTurn(eid),
        DrawCards("minor", 1),
        RollDice("3d6", who=f"attempt {attempt} step {step}"),
        Heal(eid, combatant_id=_combatant_by_health(campaign, eid, hurt=True), amount="2"),
        NextTurn(eid),
        DrawCards("major", 1),
    ]
    return cycle[(attempt + step) % len(cycle)]


def new_campaign(store: CampaignStore, attempt: int) -> Campaign:
    return Campaign(store, rng=random.Random(attempt), clock=lambda: FIXED_NOW)


def play(campaign: Campaign, attempt: int) -> Iterator[int]:
    """Apply the session's steps one by one, yielding each step's number once applied."""
    step = 0
    while True:
        step += 1
        campaign.apply(next_command(campaign, attempt, step))
        yield step


def child(save: Path, acks: Path, attempt: int) -> None:
    """Play until killed; acknowledge each step as soon as ``Campaign.apply`` returns, as the
    app shows a change's result: the store promises it is on disk by then (its journal)."""
    fd = os.open(acks, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    store = CampaignStore.open(save)
    campaign = new_campaign(store, attempt)
    deadline = time.monotonic() + CHILD_MAX_SECONDS
    for step in play(campaign, attempt):
        os.write(fd, f"{step} {digest(store.data)}\n".encode())
        if time.monotonic() > deadline:
            break


def read_acks(acks: Path) -> list[tuple[int, str]]:
    """Acknowledged steps; a line the kill cut short was never acknowledged."""
    try:
        text = acks.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    lines = text.split("\n")[:-1]  # the last piece has no newline: not an acknowledgement
    return [(int(n), d) for n, d in (line.split() for line in lines)]


def warm_up() -> None:
    """Play a few cycles on a throwaway campaign so that what the libraries build lazily (d20's
    grammar costs ~0.2 s on the first roll) is built once here, not in every child. The store is
    closed again, so no thread is running when the zygote forks."""
    with tempfile.TemporaryDirectory() as folder:
        save = write_demo("shadows", Path(folder) / "warm.json", seed=0)
        store = CampaignStore.open(save)
        try:
            for step in play(new_campaign(store, 0), 0):
                if step >= 20:
                    break
        finally:
            store.close()


def zygote() -> None:
    warm_up()
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    for line in sys.stdin:
        command, *args = line.split()
        if command == "run":
            save, acks, attempt = Path(args[0]), Path(args[1]), int(args[2])
            pid = os.fork()
            if pid == 0:
                code = 0
                try:
                    child(save, acks, attempt)
                except BaseException:
                    Path(f"{acks}.err").write_text(traceback.format_exc(), encoding="utf-8")
                    code = 3
                os._exit(code)
            out.write(f"pid {pid}\n")
        elif command == "reap":
            _, status = os.waitpid(int(args[0]), 0)
            out.write(f"status {status}\n")
        out.flush()


if __name__ == "__main__":
    zygote()
