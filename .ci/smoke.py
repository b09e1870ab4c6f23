"""Run by .ci/run with the interpreter of a fresh venv the wheel was installed into, from a
folder outside the checkout: every game's demo opens headless and every panel and the help
screen draw. Proves the installed package alone is enough (no module read from the checkout)."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path


async def open_every_demo(folder: Path) -> None:
    import app
    from app.demo import write_demo
    from app.launch import open_campaign
    from app.tui import TablesideApp
    from rulesets import registry

    checkout = Path(os.environ["TABLESIDE_CHECKOUT"]).resolve()
    if Path(app.__file__).resolve().is_relative_to(checkout):
        sys.exit(f"smoke: app was imported from the checkout ({app.__file__}), not the wheel")
    games = registry.ids()
    if len(games) < 5:
        sys.exit(f"smoke: the wheel's entry points offer {games}, not the five built-in games")
    for game in games:
        path = write_demo(game, folder / f"demo-{game}.json", seed=1)
        campaign = open_campaign(path, ruleset=game, seed=1)
        try:
            tui = TablesideApp(campaign)
            async with tui.run_test(headless=True, size=(120, 36)) as pilot:
                for key in ("1", "2", "3", "4", "question_mark", "escape"):
                    await pilot.press(key)
                    await pilot.pause()
                screen = type(tui.screen).__name__
        finally:
            campaign.store.close()
        print(f"smoke: demo {game} opened from {Path(app.__file__).parent}; last panel {screen}")


def game_api_ships() -> None:
    """tableside_api, the one name a game imports, is in the wheel (mapped from rulesets/api/)
    with its test kit, and offers what a game is built from."""
    import tableside_api
    import tableside_api.testing

    checkout = Path(os.environ["TABLESIDE_CHECKOUT"]).resolve()
    if Path(tableside_api.__file__).resolve().is_relative_to(checkout):
        sys.exit(f"smoke: tableside_api was imported from the checkout ({tableside_api.__file__})")
    missing = [name for name in tableside_api.__all__ if not hasattr(tableside_api, name)]
    if missing or tableside_api.Game.__module__ != "rulesets.game":
        sys.exit(f"smoke: tableside_api lacks {missing}")
    print(
        f"smoke: tableside_api {tableside_api.API_VERSION} ({len(tableside_api.__all__)} names) "
        f"and its test kit from {Path(tableside_api.__file__).parent}"
    )


def players_page_ships() -> None:
    """The players' web page's files are package data: a wheel without them serves 500s."""
    from app import player_server

    folder = Path(player_server.__file__).parent
    for route, (name, _kind) in player_server.ASSETS.items():
        if not (folder / name).is_file():
            sys.exit(f"smoke: the wheel lacks {name} (the players' page at {route})")
    print(f"smoke: the players' page ships {len(player_server.ASSETS)} files in {folder}")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as saves:
        os.environ["TABLESIDE_SAVES"] = saves
        asyncio.run(open_every_demo(Path(saves)))
    game_api_ships()
    players_page_ships()
