"""Parsed CSS from one run to the next (app/css_cache.py): the next start reads the
parses back instead of parsing; a cache file that others may write, that is damaged or that
another Textual wrote is not used, and the app parses as Textual does."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.css.stylesheet import Stylesheet

from app import css_cache
from tests.apphelpers import SIZE, demo_app

CSS = "Label.-css-cache-test { color: red; padding: 1 2; }"


@pytest.fixture
def fresh_run() -> Iterator[None]:
    """This process's parses put aside, as if the app started now; put back afterwards."""
    shared, used, state = dict(css_cache._shared), set(css_cache._used), dict(css_cache._state)
    stop = css_cache.share_parses()  # as the app does while it runs
    assert stop is not None
    yield
    stop()
    css_cache._shared.clear()
    css_cache._shared.update(shared)
    css_cache._used.clear()
    css_cache._used.update(used)
    css_cache._state.update(state)


def _start() -> None:
    css_cache._shared.clear()
    css_cache._used.clear()
    css_cache._state.update(read=False, parsed=0)


def _parse() -> list[object]:
    sheet = Stylesheet()
    sheet.add_source(CSS, read_from=("test.tcss", ""))
    sheet.parse()
    return list(sheet.rules)


def _save() -> None:
    """Write the cache file, as the app does after its first frame."""
    parses = css_cache.parses_to_save()
    assert parses is not None
    css_cache.save_parses(parses)


def _saved_run() -> list[object]:
    """A run that parses CSS and writes the cache file."""
    _start()
    rules = _parse()
    _save()
    return rules


def _parsed_anew() -> bool:
    """A new start parses the CSS itself (the cache file was not used)."""
    _start()
    assert _parse()
    return css_cache._state["parsed"] == 1


def test_the_next_start_reads_the_parsed_css_instead_of_parsing(fresh_run: None) -> None:
    rules = _saved_run()
    assert (css_cache.cache_folder() / css_cache.CACHE_FILE).is_file()
    _start()
    again = _parse()
    assert css_cache._state["parsed"] == 0  # nothing parsed: all read from the file
    assert again == rules and "padding" in repr(again[0])
    assert css_cache.parses_to_save() is None  # nothing new to write


def test_a_cache_file_others_may_write_is_not_read(fresh_run: None) -> None:
    _saved_run()
    path = css_cache.cache_folder() / css_cache.CACHE_FILE
    os.chmod(path, 0o666)
    assert _parsed_anew()


def test_a_cache_file_that_is_a_link_or_too_large_is_not_read(
    fresh_run: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _saved_run()
    path = css_cache.cache_folder() / css_cache.CACHE_FILE
    elsewhere = tmp_path / "elsewhere.pickle"
    path.rename(elsewhere)
    path.symlink_to(elsewhere)
    assert _parsed_anew()  # the link was not followed
    path.unlink()
    elsewhere.rename(path)
    monkeypatch.setattr(css_cache, "MAX_BYTES", 10)
    assert _parsed_anew()


@pytest.mark.parametrize("content", [b"", b"not a pickle", b"\x80\x05garbage"])
def test_a_damaged_cache_file_is_parsed_over_and_written_anew(
    fresh_run: None, content: bytes
) -> None:
    rules = _saved_run()
    path = css_cache.cache_folder() / css_cache.CACHE_FILE
    path.write_bytes(content)
    _start()
    assert _parse() == rules
    assert css_cache._state["parsed"] == 1
    _save()
    _start()
    assert _parse() == rules and css_cache._state["parsed"] == 0


def test_a_cache_file_of_another_textual_or_python_is_not_used(
    fresh_run: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    _saved_run()
    monkeypatch.setattr(css_cache, "_stamp", lambda: ((2, 7), (0, 0)))
    assert _parsed_anew()


def test_an_unwritable_cache_folder_costs_nothing(
    fresh_run: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv("TABLESIDE_CACHE", str(blocker / "cache"))
    _saved_run()  # no error: the next start parses
    assert not (blocker / "cache").exists()


async def test_the_app_writes_the_first_frames_css_for_the_next_start(
    fresh_run: None, tmp_path: Path
) -> None:
    _start()
    app = demo_app(tmp_path)
    path = css_cache.cache_folder() / css_cache.CACHE_FILE
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            await pilot.pause(0.02)
            if path.is_file():
                break
        await app.workers.wait_for_complete()
    app.campaign.store.close()
    assert path.is_file()
    assert b"combat.tcss" in path.read_bytes() and b"tray.tcss" in path.read_bytes()
