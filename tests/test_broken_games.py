"""A broken game costs one line or one message, never the session (issue 25).

Games that fail to load are installed here through real entry points: a ``*.dist-info``
folder on ``sys.path`` names them in the ``tableside.games`` group, as pip would. One raises
on import, one names a module that is not there, one is not a ``Game``, one names another id.
Every command that picks a game says so in one line and exits 2, writing nothing; the TUI
lists them as broken. A game that loads but whose hook raises in play (its health line, its
odds, its damage rule, its own command) refuses that one action with a message naming the game
and the hook, rolls the change back, and the session goes on.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from app import cli
from app.demo import write_demo
from app.launch import LaunchError, open_campaign
from app.state import Campaign, CommandError
from app.store import CampaignStore, read_campaign
from app.tui import TablesideApp
from rulesets import registry
from rulesets.checks import CheckSpec, Setup
from rulesets.fight import Hit
from rulesets.game import Game
from rulesets.guard import GameHookError
from tests.apphelpers import SIZE
from tests.conftest import FIXED_NOW
from tests.test_toy_game import DUEL

BROKEN = {
    "raises": ("tableside_test_raises:GAME", "RuntimeError: the game's author broke it"),
    "missing": ("tableside_test_nowhere.game:GAME", "No module named 'tableside_test_nowhere'"),
    "notagame": ("tableside_test_notagame:GAME", "is not a Game"),
    "wrongid": ("tableside_test_wrongid:GAME", "its Game's id is 'duel', not"),
}


def install_games(folder: Path, entries: dict[str, str], modules: dict[str, str]) -> Path:
    """A distribution as pip leaves it: its modules and a dist-info naming its entry points."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in modules.items():
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
    info = folder / "tableside_test_games-0.1.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: tableside-test-games\nVersion: 0.1\n", encoding="utf-8"
    )
    lines = "".join(f"{name} = {value}\n" for name, value in entries.items())
    (info / "entry_points.txt").write_text(f"[{registry.GROUP}]\n{lines}", encoding="utf-8")
    return folder


@pytest.fixture
def broken_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = install_games(
        tmp_path / "site",
        {gid: value for gid, (value, _) in BROKEN.items()},
        {
            "tableside_test_raises": 'raise RuntimeError("the game\'s author broke it")\n',
            "tableside_test_notagame": "GAME = 42\n",
            "tableside_test_wrongid": "from tests.test_toy_game import DUEL as GAME\n",
        },
    )
    monkeypatch.syspath_prepend(str(folder))
    for cache in ("_failed", "_loaded"):
        monkeypatch.setattr(registry, cache, {}, raising=False)
    registry._entry_points.cache_clear()
    yield folder
    registry._entry_points.cache_clear()


@pytest.fixture(autouse=True)
def _no_terminal_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """A command that should refuse but opens the TUI must fail the test, not run it here."""

    def opened(self: TablesideApp, **_: Any) -> None:
        raise AssertionError("the TUI was started instead of a one-line refusal")

    monkeypatch.setattr(TablesideApp, "run", opened)


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2, (argv, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("game_id", sorted(BROKEN))
def test_a_game_that_fails_to_load_is_one_line_and_exit_2_in_every_command(
    broken_games: Path,
    tmp_path: Path,
    _isolated_saves: Path,
    capsys: pytest.CaptureFixture[str],
    game_id: str,
) -> None:
    where, reason = BROKEN[game_id]
    save = tmp_path / "new.json"
    for argv in (
        ["--demo", game_id],
        ["--ruleset", game_id],
        ["--ruleset", game_id, str(save)],
        ["odds", "--game", game_id],
    ):
        err = _refused(capsys, *argv)
        assert f"'{game_id}'" in err and where in err and reason in err, (argv, err)
    # Nothing written: no new save (nor its lock), no demo, no campaign folder entry.
    assert not save.exists() and list(tmp_path.glob("new.json*")) == []
    assert not _isolated_saves.exists() or list(_isolated_saves.iterdir()) == []


def test_a_save_whose_game_is_broken_is_refused_in_one_line_untouched(
    broken_games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = write_demo("somnihil", tmp_path / "c.json", seed=1)
    data = orjson.loads(save.read_bytes())
    data["meta"]["1"]["ruleset"] = "raises"
    save.write_bytes(orjson.dumps(data))
    before = save.read_bytes()
    files = sorted(p.name for p in tmp_path.iterdir())
    for argv in (
        [str(save)],
        ["clock", str(save)],
        ["clock", str(save), "--advance", "1h"],
        ["draw", "--save", str(save)],
    ):
        err = _refused(capsys, *argv)
        assert "'raises'" in err and "the game's author broke it" in err, (argv, err)
    assert save.read_bytes() == before
    with pytest.raises(LaunchError, match="the game 'raises' .* failed to load"):
        open_campaign(save)
    assert save.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == files


def test_keys_and_help_list_the_games_that_load_and_name_the_broken(
    broken_games: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["keys"]) == 0
    out = capsys.readouterr().out
    assert "raises: broken: RuntimeError: the game's author broke it" in out
    assert "combat.next_turn" in out


def test_the_registry_lists_each_installed_game_with_its_state(broken_games: Path) -> None:
    listed = {entry.id: entry for entry in registry.listing()}
    assert {"somnihil", *BROKEN} <= set(listed)
    assert listed["somnihil"].state == "ok" and listed["somnihil"].name == "Somnihil"
    for game_id, (_, reason) in BROKEN.items():
        assert listed[game_id].state == "broken" and reason in listed[game_id].reason
    assert set(BROKEN).isdisjoint(registry.playable())
    with pytest.raises(registry.GameUnavailable, match="RuntimeError: the game's author"):
        registry.game("raises")


async def test_the_tuis_game_list_shows_the_broken_games_with_the_reason(
    broken_games: Path, tmp_path: Path
) -> None:
    from screens.games import GamesScreen

    app = TablesideApp(open_campaign(write_demo("shadows", tmp_path / "s.json", seed=1)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p", *"Installed games")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GamesScreen)
        lines = app.screen.lines
        assert any(line.startswith("▶ shadows Shadows") for line in lines), lines
        for game_id, (_, reason) in BROKEN.items():
            row = next(line for line in lines if line.startswith(f"✗ {game_id} "))
            assert "broken: " in row and reason in row
        await pilot.press("escape")
        assert app.is_running
    app.campaign.store.close()


# --- a hook that raises in play -----------------------------------------------------------------
def _broken(**changes: Any) -> Game:
    """The toy game with some of its hooks replaced (ruleset=..., fight=..., checks=...)."""
    return dataclasses.replace(DUEL, **changes)


def _divide_by_zero(*_: Any, **__: Any) -> Any:
    return 1 // 0


@pytest.fixture
def play(tmp_path: Path) -> Iterator[Any]:
    """Register a broken toy game and open a campaign of it in the TUI."""
    withdrawn: list[Any] = []

    def open_game(game: Game) -> TablesideApp:
        withdrawn.append(registry.register(game))
        store = CampaignStore.open(tmp_path / "duel.json", ruleset=game.id)
        return TablesideApp(Campaign(store, rng=random.Random(3), clock=lambda: FIXED_NOW))

    yield open_game
    for withdraw in withdrawn:
        withdraw()


def _said(app: TablesideApp) -> str:
    return "\n".join(str(n.message) for n in app._notifications)


def _saved(app: TablesideApp) -> dict[str, Any]:
    app.campaign.store.flush()
    return read_campaign(app.campaign.store.path)


async def test_a_health_line_that_divides_by_zero_is_one_message_and_a_question_mark(
    play: Any,
) -> None:
    game = _broken(ruleset=dataclasses.replace(DUEL.ruleset, health_summary=_divide_by_zero))
    app = play(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "a", *"Robin", "enter")
        await pilot.pause()
        await pilot.press("1", "ctrl+n", "enter", "p")
        await pilot.pause()
        assert app.is_running
        said = _said(app)
        assert said.count("The game Duel failed in ruleset.health_summary (ZeroDivisionError") == 1
        assert [p["name"] for p in _saved(app)["party"].values()] == ["Robin"]
    app.campaign.store.close()


async def test_a_damage_rule_that_raises_refuses_the_damage_and_rolls_it_back(play: Any) -> None:
    def hurt(hit: Hit, sheet: dict[str, Any], amount: int) -> Any:
        sheet["resources"]["grit"]["current"] -= amount  # changed, then it fails
        return {}["no such key"]  # type: ignore[index]

    app = play(_broken(fight=dataclasses.replace(DUEL.fight, hurt=hurt)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "a", *"Robin", "enter")
        await pilot.pause()
        await pilot.press("1", "ctrl+n", "enter", "p")
        await pilot.pause()
        log_before = len(_saved(app)["log"])
        await pilot.press("t", "2", "enter")
        await pilot.pause()
        assert app.is_running
        said = _said(app)
        assert "The game Duel failed in fight.hurt (KeyError: 'no such key')" in said
        assert said.count("fight.hurt") == 1  # the refusal, not a second toast besides
        saved = _saved(app)
        assert saved["party"]["1"]["resources"]["grit"]["current"] == 6
        assert len(saved["log"]) == log_before  # nothing logged: the change never happened
        await pilot.press("l", "1", "enter")  # the session goes on
        await pilot.pause()
        assert app.is_running
    app.campaign.store.close()


async def test_odds_that_raise_are_said_in_the_tray_and_the_roll_still_works(play: Any) -> None:
    check = DUEL.checks.checks[0]

    def spec(setup: Setup) -> CheckSpec:
        made = check.spec(setup)
        return dataclasses.replace(made, odds=_divide_by_zero)

    checks = dataclasses.replace(
        DUEL.checks, checks=(dataclasses.replace(check, spec=spec),)
    )
    app = play(_broken(checks=checks))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await pilot.pause()
        assert app.is_running
        setup = str(app.screen.query_one("#check-setup").render())
        assert "The game Duel failed in checks.checks[duel].spec().odds" in setup
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert app.is_running
    app.campaign.store.close()


async def test_a_games_own_command_that_raises_is_refused_naming_it(play: Any) -> None:
    check = DUEL.checks.checks[0]

    @dataclasses.dataclass(frozen=True)
    class Fumble:
        label: str = "Duel check"

        def run(self, tx: Any) -> list[str]:
            tx.insert("log", {"at": tx.now(), "kind": "event", "who": "GM", "text": "half"})
            raise RuntimeError("the author forgot a case")

    def spec(setup: Setup) -> CheckSpec:
        return dataclasses.replace(check.spec(setup), command=Fumble())

    checks = dataclasses.replace(DUEL.checks, checks=(dataclasses.replace(check, spec=spec),))
    app = play(_broken(checks=checks))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "c")
        await pilot.pause()
        assert app.is_running
        said = _said(app)
        assert "The game Duel failed in" in said and "Fumble.run" in said
        assert "RuntimeError: the author forgot a case" in said
        assert _saved(app)["log"] == {}
    app.campaign.store.close()


def test_a_hook_failure_inside_a_command_is_a_command_error_naming_the_hook(
    tmp_path: Path,
) -> None:
    from app.commands.party import AddPC

    game = _broken(ruleset=dataclasses.replace(DUEL.ruleset, new_character=_divide_by_zero))
    withdraw = registry.register(game)
    try:
        store = CampaignStore.open(tmp_path / "d.json", ruleset=game.id)
        campaign = Campaign(store, rng=random.Random(1), clock=lambda: FIXED_NOW)
        with pytest.raises(CommandError, match=r"Duel failed in ruleset\.new_character"):
            campaign.apply(AddPC("Robin"))
        assert campaign.rows("party") == [] and campaign.undo_stack == []
        store.close()
    finally:
        withdraw()


def test_a_guarded_hook_passes_a_refusal_on_as_it_is() -> None:
    guarded = registry.register(
        _broken(ruleset=dataclasses.replace(DUEL.ruleset, health_summary=_divide_by_zero))
    )
    try:
        game = registry.game("duel")
        with pytest.raises(GameHookError, match="ruleset.health_summary") as caught:
            game.ruleset.health_summary({"name": "x"})  # type: ignore[misc]
        assert isinstance(caught.value.error, ZeroDivisionError)
        assert game.ruleset.health({"name": "x"}) == "?"  # a reading it cannot make
        spec = game.checks.checks[0].input("bonus")
        with pytest.raises(ValueError, match="Bonus: -3 to 3"):
            spec.from_text("9", None)  # a typed input's refusal is not the game's fault
    finally:
        guarded()


async def test_a_game_action_on_a_panels_own_key_is_left_unbound_and_said_once(
    play: Any,
) -> None:
    """Before: a game's party action on `a` sat unseen behind the panel's "Add PC" and help
    listed both. A game's keys are checked against the panel's and the app's own."""
    from rulesets.table import Action
    from screens.help import HelpScreen

    def never(ctx: Any, values: Any) -> Any:
        raise AssertionError("a shadowed action ran")

    clashing = (
        Action("rally", "party", "a", "Rally", never),  # the party panel's Add PC
        Action("edit_all", "party", "e", "Edit all", never),  # the panel's edit
        Action("cheer", "party", "y", "Cheer", never),  # a free key: bound
    )
    app = play(_broken(actions=(*DUEL.actions, *clashing)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        await pilot.pause()
        said = [str(n.message) for n in app._notifications if n.title == "The game's keys"]
        assert len(said) == 2 and all(s.startswith("Duel: its action ") for s in said), said
        assert "'Edit all' is not bound: 'e' is the Party panel's" in said[0] + said[1]
        assert "'Rally' is not bound: 'a' is the Party panel's 'Add PC'" in said[0] + said[1]
        assert "keys.toml can move party.rally to a free key" in said[0] + said[1]
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        labels = [d for _, d in app.screen.help_rows]
        assert "Rally" not in labels and "Edit all" not in labels and "Cheer" in labels
        await pilot.press("escape", "1", "4")  # a second visit says nothing more
        await pilot.pause()
        assert len([n for n in app._notifications if n.title == "The game's keys"]) == 2
    app.campaign.store.close()
