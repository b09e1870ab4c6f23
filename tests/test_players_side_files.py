"""The files the players' view reads beside a save, whatever is put in their place: a link, a
FIFO, a device, a huge file. Each is refused with one log line, never followed, never waited
on, and the last good view stays (app/side_files.py, app/player_feed.py, app/cli_serve.py).

A read that would block is run in a thread with a deadline, so a regression fails the test
instead of hanging the suite; the FIFO is then opened for writing to free that thread.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.cli_serve import link_path, serving_url
from app.commands import combat as cmd
from app.player_feed import SaveWatch
from app.queries import current_encounter
from app.state import Campaign
from app.store import journal_path, owner_path
from tests.apphelpers import open_demo

SIDE_LOG = "tableside.serve"


@pytest.fixture
def gm(tmp_path: Path) -> Iterator[Campaign]:
    campaign = open_demo(tmp_path, "shadows")
    yield campaign
    campaign.store.close()


@pytest.fixture
def said() -> Iterator[io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    logger = logging.getLogger(SIDE_LOG)
    logger.addHandler(handler)
    old = logger.level
    logger.setLevel(logging.INFO)
    yield out
    logger.removeHandler(handler)
    logger.setLevel(old)


def returns_within(seconds: float, fn: Callable[[], Any], fifo: Path | None = None) -> bool:
    """Whether ``fn()`` returns within ``seconds`` (a blocked one is freed through ``fifo``)."""
    worker = threading.Thread(target=fn, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive() and fifo is not None:
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(5)
        return False
    return not worker.is_alive()


def next_turn(campaign: Campaign) -> None:
    found = current_encounter(campaign)
    assert found is not None
    campaign.apply(cmd.StartEncounter(found[0]))


def test_a_fifo_at_the_owner_file_never_freezes_the_view(gm: Campaign, said: io.StringIO) -> None:
    path = gm.store.path
    watch = SaveWatch(path)
    watch.poll()
    assert watch.gm_open
    owner = owner_path(path)
    owner.unlink()
    os.mkfifo(owner)
    assert returns_within(2.0, watch.poll, owner)
    assert watch.gm_open  # as last known: a FIFO says nothing about the GM
    next_turn(gm)
    assert returns_within(2.0, watch.poll, owner)  # the view still follows the GM
    assert "Round 1" in watch.payload
    for _ in range(5):
        watch.poll()
    lines = said.getvalue().splitlines()
    assert lines == [
        f"players' view: {owner.name} is not a regular file (a device, pipe or socket): ignored"
    ]


def test_an_owner_file_linked_to_a_device_or_a_big_file_is_not_read(
    gm: Campaign, tmp_path: Path, said: io.StringIO
) -> None:
    path = gm.store.path
    gm.store.close()  # the GM left: the owner file went
    watch = SaveWatch(path)
    watch.poll()
    big = tmp_path / "elsewhere.txt"
    with big.open("wb") as out:
        out.truncate(50 * 1024 * 1024)  # sparse: 50 MB that cost no disk
    owner = owner_path(path)
    for target in (big, Path("/dev/zero")):
        with contextlib.suppress(FileNotFoundError):
            owner.unlink()
        owner.symlink_to(target)
        assert returns_within(2.0, watch.poll)
        assert not watch.gm_open  # the link is not the GM's session (nor was it read)
    assert said.getvalue().count("is a link (not followed)") == 1


def test_a_journal_or_save_put_behind_a_link_is_refused_and_the_last_view_stays(
    gm: Campaign, tmp_path: Path, said: io.StringIO
) -> None:
    path = gm.store.path
    watch = SaveWatch(path)
    watch.poll()
    first = watch.payload
    next_turn(gm)  # in the journal
    journal = journal_path(path)
    copy = tmp_path / "copy.journal"
    shutil.copyfile(journal, copy)
    journal.unlink()
    journal.symlink_to(copy)
    watch.poll()
    assert watch.reading is not None and "Round 1" not in watch.payload.split('"rows"')[0]
    assert f"{journal.name} is a link (not followed)" in watch.problem
    assert "showing the view as of its last change" in watch.payload
    assert watch.payload.split('"notices"')[0] == first.split('"notices"')[0]
    journal.unlink()
    saved = tmp_path / "copy.json"
    shutil.copyfile(path, saved)
    path.unlink()
    path.symlink_to(saved)
    watch.poll()
    assert watch.problem == "is a link (not followed)"
    assert said.getvalue().count("is a link (not followed)") == 2


def test_a_fifo_at_the_servers_link_file_never_freezes_the_party_panel(tmp_path: Path) -> None:
    from screens.player_link import join_link

    save = tmp_path / "camp.json"
    save.write_text("{}", encoding="utf-8")
    os.mkfifo(link_path(save))
    found: list[Any] = []
    assert returns_within(2.0, lambda: found.append(serving_url(save)), link_path(save))
    assert found == [None]
    assert returns_within(2.0, lambda: found.append(join_link(save)), link_path(save))
    assert found[1][1].startswith("camp.json.serve is not a regular file")
    os.unlink(link_path(save))
    link_path(save).symlink_to("/dev/zero")
    assert returns_within(2.0, lambda: found.append(serving_url(save)))
    assert found[2] is None
