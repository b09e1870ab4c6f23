"""The test kit: what every installed game must do for the shell, checked the way the shell
uses it (``tableside_api.testing``).

A game's author runs it from the game's own tests::

    from pathlib import Path

    from tableside_api.testing import check_game

    def test_my_game_passes_the_kit(tmp_path: Path) -> None:
        check_game("mygame", tmp_path)

or over every installed game at once (Tableside's own suite does)::

    from tableside_api.testing import installed_games

    @pytest.mark.parametrize("game_id", installed_games())
    def test_every_game(game_id: str, tmp_path: Path) -> None:
        check_game(game_id, tmp_path)

Each ``check_*`` raises :class:`AssertionError` naming the game and what is wrong. The kit drives
the app's own campaign (``app``: a demo save, commands, undo, save and reload), so unlike the
rest of the game API it needs the whole of Tableside installed, as a game's tests do anyway.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from rulesets import registry
from rulesets.checks import Setup
from rulesets.decks import DealCards, DrawCards, read_deck
from rulesets.foes import FoeAttack
from rulesets.game import Game, api_problem
from rulesets.npc import quick_build
from rulesets.text import visible

SEED = 25
"""Every roll the kit makes comes from a ``random.Random`` seeded with this: a failure repeats."""

__all__ = [
    "SEED",
    "check_action_keys",
    "check_checks",
    "check_decks",
    "check_demo",
    "check_entry_point",
    "check_foes",
    "check_game",
    "check_save_reload",
    "check_sheets",
    "every_installed_game",
    "installed_games",
    "shown",
]


def installed_games() -> list[str]:
    """The id of every game installed through the ``tableside.games`` entry-point group (a
    game only :func:`rulesets.registry.register` -ed in-process is not installed)."""
    registry._entry_points.cache_clear()  # a game pip-installed since the first look
    return sorted(registry._entry_points())


def every_installed_game() -> Any:
    """``@every_installed_game()``: a pytest test taking ``game_id`` runs once per installed
    game (pytest's own ``parametrize``; pytest is imported only here)."""
    import pytest

    return pytest.mark.parametrize("game_id", installed_games())


def shown(game_id: str, hook: str, result: object) -> None:
    """A hook's text as the shell shows it: a string (or strings), on one line, with no
    control or invisible character (the shell would show a stand-in such as ␛ instead), and
    drawable by rich as it is (a stray ``[`` is text there, never markup that eats words)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.text import Text

    lines = [result] if isinstance(result, str) else result
    assert isinstance(lines, Iterable), f"{game_id}: {hook} gave {type(result).__name__}, not text"
    for line in lines:
        assert isinstance(line, str), f"{game_id}: {hook} gave {line!r}, not a string"
        assert "\n" not in line, f"{game_id}: {hook} gave {line!r}, more than one line"
        assert visible(line) == line, f"{game_id}: {hook} gave {line!r}: hidden characters"
        console = Console(file=io.StringIO(), width=200, color_system=None, record=True)
        console.print(Text.from_markup(escape(line)), end="")
        assert console.export_text().rstrip() == line.rstrip(), f"{game_id}: {hook}: {line!r}"


def check_entry_point(game_id: str) -> Game:
    """The game loads through its entry point: a :class:`Game` of that id speaking this API."""
    found = {ep.name: ep for ep in registry._entry_points().values()}
    assert game_id in found, f"{game_id}: no entry point in the {registry.GROUP!r} group"
    loaded = found[game_id].load()
    assert isinstance(loaded, Game), f"{game_id}: {found[game_id].value} is not a Game"
    assert loaded.id == game_id, f"{game_id}: its Game's id is {loaded.id!r}"
    problem = api_problem(loaded.api_version)
    assert not problem, f"{game_id}: {problem}"
    shown(game_id, "Game.name", loaded.name)
    shown(game_id, "Game.summary", loaded.summary)
    return registry.game(game_id)


def _open(game_id: str, path: Path) -> Any:
    from app.launch import open_campaign

    return open_campaign(path, ruleset=game_id, seed=SEED)


def check_demo(game_id: str, folder: Path) -> Path:
    """The demo campaign builds, is saved, and opens as a campaign of the game with its party
    and its encounter (a group of foes made from an HD statblock by the game's own rules)."""
    from app.demo import write_demo

    game = registry.game(game_id)
    path = write_demo(game_id, folder / f"kit-{game_id}.json", seed=SEED)
    campaign = _open(game_id, path)
    try:
        assert campaign.game.id == game_id
        names = [str(pc["name"]) for _, pc in campaign.rows("party")]
        assert names == [pc.name for pc in game.demo_party], f"{game_id}: demo party {names}"
        assert len(campaign.rows("encounters")) == 1, f"{game_id}: the demo has no encounter"
    finally:
        campaign.store.close()
    return path


def check_sheets(game_id: str, path: Path) -> None:
    """Every PC's resources are the sheet's, whole numbers with 0 <= current <= max."""
    campaign = _open(game_id, path)
    try:
        spec = campaign.game.ruleset.sheet
        for _, pc in campaign.rows("party"):
            resources = pc.get("resources", {})
            for resource in spec.resources:
                pool = resources.get(resource.key)
                who = f"{game_id}: {pc['name']}'s {resource.label}"
                assert isinstance(pool, dict), f"{who} is missing ({pool!r})"
                now, most = pool.get("current"), pool.get("max")
                assert isinstance(now, int) and isinstance(most, int), f"{who} is {pool!r}"
                assert 0 <= now <= most, f"{who} is {now}/{most}"
            shown(game_id, "SheetSpec.usual_status", str(pc.get("status", "")))
    finally:
        campaign.store.close()


def check_foes(game_id: str, path: Path) -> None:
    """An HD statblock becomes the game's foe, shows as text, and attacks a PC by the game's
    rules (``FoeRules.attack``, through the tracker's ``A``) once the fight has started, with
    the seeded Random; undo takes the attack back."""
    game = registry.game(game_id)
    block = quick_build(2)
    stats = game.foes.make("Kit Bandit", block, block.hp)
    assert isinstance(stats, dict), f"{game_id}: FoeRules.make gave {stats!r}"
    shown(game_id, "FoeRules.preview", game.foes.preview(block))
    sheet = stats.get("sheet")
    if isinstance(sheet, dict):
        shown(game_id, "FoeSheet.health", game.fight.foe.health(sheet))
    else:
        assert isinstance(stats.get("hp"), int), f"{game_id}: its foe has no sheet and no HP"
    campaign = _open(game_id, path)
    try:
        ((enc_id, enc),) = campaign.rows("encounters")
        foe = next(c for c in enc["combatants"] if c["side"] != "pc")
        pc = next(c for c in enc["combatants"] if c["side"] == "pc")
        before = len(campaign.rows("log"))
        lines = _attack(campaign, enc_id, foe["id"], pc["id"])
        shown(game_id, "FoeRules.attack", lines)
        after = campaign.doc("encounters", enc_id)
        assert after is not None and isinstance(after.get("strike"), dict), (
            f"{game_id}: {foe['name']}'s attack on {pc['name']} left no strike: {lines}"
        )
        strike = after["strike"]
        shown(game_id, "Strike.said", strike["said"])
        assert len(campaign.rows("log")) > before, f"{game_id}: the attack logged nothing"
        assert campaign.undo() is not None
        undone = campaign.doc("encounters", enc_id)
        assert undone is not None and "strike" not in undone
    finally:
        campaign.store.close()


def _attack(campaign: Any, enc_id: int, foe_id: str, pc_id: str) -> list[str]:
    """The fight started as a GM starts it (``alt+r``: the game's ``fight_start`` runs, a card
    game deals its hands), then the foe's attack; a refusal fails the kit with its words."""
    from app.commands.combat import StartEncounter
    from app.state import CommandError

    try:
        campaign.apply(StartEncounter(enc_id))
        return list(campaign.apply(FoeAttack(enc_id, foe_id, target_id=pc_id)))
    except CommandError as exc:
        raise AssertionError(f"{campaign.game.id}: a foe cannot attack a PC: {exc}") from None


def _odds_sum(game_id: str, check: str, odds: Mapping[str, Fraction]) -> None:
    values = list(odds.values())
    assert all(isinstance(v, Fraction | int) for v in values), f"{game_id}: {check} odds {odds}"
    assert all(0 <= v <= 1 for v in values), f"{game_id}: {check} odds {odds}"
    assert sum(values) == 1, f"{game_id}: {check}'s odds sum to {sum(values)}, not 1"


def check_checks(game_id: str, path: Path) -> None:
    """Every check of the tray, at its defaults and for the first PC: its summary and legend
    are text, its odds (if any) are exact and sum to 1, and it rolls with the seeded Random,
    logging what it rolled. Twice with the same seed: the same log."""
    campaign = _open(game_id, path)
    try:
        game = campaign.game
        pc_id, pc = campaign.rows("party")[0]
        for check in game.checks.checks:
            shown(game_id, f"{check.id} legend", check.legend)
            for item in check.inputs:
                shown(game_id, f"{check.id}.{item.key} label", item.label)
            spec = check.spec(Setup(check.defaults(), pc_id, pc, campaign.rows))
            shown(game_id, f"{check.id} summary", spec.summary)
            shown(game_id, f"{check.id} notes", spec.notes)
            odds = spec.odds()
            if odds:
                _odds_sum(game_id, check.id, odds)
            said = []
            for _ in range(2):
                campaign.rng.seed(SEED)
                before = len(campaign.rows("log"))
                lines = campaign.apply(spec.command)
                shown(game_id, f"{check.id} roll", lines)
                assert len(campaign.rows("log")) > before, f"{game_id}: {check.id} logged nothing"
                said.append(lines)
                campaign.undo()
            assert said[0] == said[1], f"{game_id}: {check.id} ignores the seeded Random"
    finally:
        campaign.store.close()


def check_decks(game_id: str, path: Path) -> None:
    """Every deck is whole, reads as text, draws one card face up and deals each PC one."""
    campaign = _open(game_id, path)
    try:
        game = campaign.game
        pcs = [str(pid) for pid, _ in campaign.rows("party")]
        for deck in game.decks:
            assert deck.cards, f"{game_id}: the deck {deck.id} has no cards"
            shown(game_id, f"{deck.id} name", deck.name)
            for card in deck.cards:
                text = deck.read(card)
                shown(
                    game_id, f"{deck.id} read", [text.name, text.short, text.meaning, *text.marks]
                )
            lines = campaign.apply(DrawCards(deck.id, 1))
            shown(game_id, f"{deck.id} draw", lines)
            lines = campaign.apply(DealCards(deck.id, 1, recall=True))
            shown(game_id, f"{deck.id} deal", lines)
            _, state = read_deck(campaign.rows("decks"), deck)
            held = {h: len(cards) for h, cards in state.hands.items()}
            assert held == dict.fromkeys(pcs, 1), f"{game_id}: {deck.id} dealt {held}"
            assert len(state.draw_pile) + len(state.discard) + len(pcs) == len(deck.cards)
    finally:
        campaign.store.close()


def check_action_keys(game_id: str) -> None:
    """No two actions of a panel share a key, and none takes a key its panel binds itself
    (it would be left unbound in play), nor a key of a tray check's inputs."""
    from app.keymap import binding_groups, key_names
    from app.tui import TablesideApp

    game = registry.game(game_id)
    panels = {g.name: g for g in binding_groups(TablesideApp)}
    checks = {k for c in game.checks.checks for k in c.keys()}  # noqa: SIM118 (Check.keys: its input keys)
    for action in game.actions:
        shown(game_id, f"action {action.id}", action.label)
        group = panels.get(action.panel)
        assert group is not None, f"{game_id}: {action.id} is in no panel ({action.panel!r})"
        own = {  # the panel's own: a game's actions join its group once a panel has shown them
            k
            for b in group.bindings
            if not b.action.startswith("game(")
            for k in key_names(b.key)
        }
        for key in key_names(action.key):
            where = f"{game_id}: the {action.panel} action {action.label!r} on {key!r}"
            assert key not in own, f"{where}: the panel binds that key itself"
            if action.panel == "tray":
                assert key not in checks, f"{where}: a check's input uses that key"


def check_save_reload(game_id: str, path: Path) -> None:
    """The campaign, played a little, is saved as a valid document and reopens the same."""
    from app import schema
    from app.store import read_campaign

    campaign = _open(game_id, path)
    try:
        for check in campaign.game.checks.checks[:1]:
            spec = check.spec(Setup(check.defaults(), None, None, campaign.rows))
            campaign.apply(spec.command)
        for deck in campaign.game.decks[:1]:
            campaign.apply(DrawCards(deck.id, 1))
        campaign.store.flush()
        saved = schema.validate(read_campaign(path))
    finally:
        campaign.store.close()
    reopened = _open(game_id, path)
    try:
        again = schema.validate(read_campaign(path))
        assert again == saved, f"{game_id}: the save changed on reopening"
        assert reopened.game.id == game_id
    finally:
        reopened.store.close()


def check_game(game_id: str, folder: Path) -> None:
    """Every check of the kit on one installed game; ``folder``: where its saves go (a
    ``tmp_path``). Random numbers come from ``random.Random(SEED)``."""
    check_entry_point(game_id)
    path = check_demo(game_id, folder)
    check_sheets(game_id, path)
    check_foes(game_id, path)
    check_checks(game_id, path)
    check_decks(game_id, path)
    check_action_keys(game_id)
    check_save_reload(game_id, path)
