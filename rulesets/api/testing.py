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

It plays the game against that real campaign as the shell does: the fight started, its turn
order walked over rounds with every row drawn (the order column, tags, turn notes, health),
damage and healing on a PC and a foe, the fight ended; every check's preset for every roller;
every sheet step; every action of every panel. Every hook is called through the shell's guard
(:mod:`rulesets.guard`), which checks what it returns: a hook that raises, or returns what the
shell cannot use (a ``hurt`` giving ``None``, tags of ``42``, a ``Strike`` that is not one), fails
the kit with the guard's words, though in play it would cost one message and a ``?``.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from rulesets import guard, registry
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
    "check_actions",
    "check_fight",
    "check_sheet_steps",
    "check_checks",
    "check_decks",
    "check_demo",
    "check_entry_point",
    "check_foes",
    "check_game",
    "check_play",
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


class _Faults:
    """Every hook failure the guard tells of while open (in play: one message and a ``?``)."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.seen: list[guard.GameHookError] = []

    def __enter__(self) -> _Faults:
        guard.listeners.append(self.seen.append)
        return self

    def __exit__(self, *exc: object) -> None:
        guard.listeners.remove(self.seen.append)
        if self.seen and exc[0] is None:
            raise AssertionError(f"{self.game_id}: {self.seen[0]}")

    def command(self, campaign: Any, command: Any) -> list[str]:
        """Apply a command; a refusal is the game's word, its hook's failure fails the kit."""
        from app.state import CommandError

        try:
            return list(campaign.apply(command))
        except CommandError as exc:
            fault = campaign.game_fault(exc.__cause__) if exc.__cause__ is not None else None
            if fault is not None or self.seen:
                raise AssertionError(f"{self.game_id}: {fault or self.seen[0]}") from None
            return []


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
    _own_attack(game_id)
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


def _rows(campaign: Any, enc_id: int) -> None:
    """Every row of the tracker as it draws it, through the game's hooks."""
    from rulesets import encounter as er
    from rulesets import fight as fr
    from rulesets.turn_orders import turn_order

    game = campaign.game
    doc = campaign.doc("encounters", enc_id)
    enc = er.Encounter.from_dict(doc)
    order = turn_order(enc.model, game)
    shown(game.id, f"{order.id}.status", order.status(enc))
    shown(
        game.id, "FightRules.notes", game.fight.notes(doc, {c.id: c.name for c in enc.combatants})
    )
    for c in enc.combatants:
        sheet = None
        if fr.health_kind(c) == "pc":
            sheet = campaign.doc("party", int(str(c.ref)))
            shown(game.id, "Ruleset.health_summary", game.ruleset.health(sheet or {}))
        elif fr.health_kind(c) == "foe":
            shown(game.id, "FoeSheet.health", game.fight.foe.health(c.stats["sheet"]))
        shown(game.id, f"{order.id}.cell", order.cell(enc, c))
        shown(game.id, f"{order.id}.turn_state", order.turn_state(enc, c))
        shown(game.id, "FightRules.tags", fr.tags_of(game.fight, c, sheet))
        shown(game.id, "FightRules.turn_note", fr.turn_note_of(game.fight, enc, c, sheet))
        shown(game.id, "FightRules.detail", game.fight.detail(c, sheet or c.stats.get("sheet")))


def check_fight(game_id: str, path: Path) -> None:
    """The demo's fight played as the tracker plays it: started (``fight_start``), its turn
    order walked over three rounds with every row drawn at each turn, 1 damage and 1 healing on
    a PC and on a foe by the game's rules, every check's preset for every roller, and the fight
    ended (``fight_end``); undo takes the fight back. A hook that fails fails the kit."""
    from app.commands.combat import Damage, EndEncounter, Heal, NextTurn, StartEncounter

    campaign = _open(game_id, path)
    try:
        game = campaign.game
        ((enc_id, enc),) = campaign.rows("encounters")
        with _Faults(game_id) as faults:
            _rows(campaign, enc_id)
            faults.command(campaign, StartEncounter(enc_id))
            started = campaign.doc("encounters", enc_id)
            assert started is not None and started.get("started"), f"{game_id}: no fight"
            for _ in range(3 * len(enc["combatants"])):
                _rows(campaign, enc_id)
                faults.command(campaign, NextTurn(enc_id))
            doc = campaign.doc("encounters", enc_id)
            assert doc is not None and doc.get("round", 0) >= 3, (
                f"{game_id}: {3 * len(enc['combatants'])} turns came to round {doc and doc.get('round')}"
            )
            party = campaign.rows("party")
            for pc_id, pc in [(None, None), *party]:
                for check in game.checks.checks:
                    preset = game.checks.preset_for(doc, pc_id, pc)
                    for key in preset.values if preset is not None else ():
                        assert key in check.defaults() or any(
                            key in c.defaults() for c in game.checks.checks
                        ), f"{game_id}: its preset sets {key!r}, an input of no check"
            for side in ("pc", "npc"):
                target = next((c for c in doc["combatants"] if c["side"] == side), None)
                if target is not None:
                    faults.command(campaign, Damage(enc_id, target["id"], "1"))
                    _rows(campaign, enc_id)
                    faults.command(campaign, Heal(enc_id, target["id"], "1"))
            faults.command(campaign, EndEncounter(enc_id))
            _rows(campaign, enc_id)
    finally:
        campaign.store.close()


def check_sheet_steps(game_id: str, path: Path) -> None:
    """``+`` and ``-`` on every resource and attribute of the first PC's sheet, and every
    status the game offers, as the party panel applies them; a hook that fails fails the kit."""
    from app.commands.party import ChangePC

    campaign = _open(game_id, path)
    try:
        game = campaign.game
        pc_id, pc = campaign.rows("party")[0]
        with _Faults(game_id) as faults:
            for resource in game.ruleset.sheet.resources:
                for delta in (-1, 1):
                    faults.command(campaign, ChangePC(pc_id, "adjust", (resource.key, delta)))
            for attribute in game.ruleset.sheet.attributes:
                shown(
                    game_id,
                    f"{attribute.key} text",
                    game.sheet.attribute_shown(attribute, attribute.default),
                )
                for delta in (1, -1):
                    faults.command(
                        campaign, ChangePC(pc_id, "step_attribute", (attribute.key, delta))
                    )
            statuses = game.sheet.status_choices(pc, game.ruleset.sheet.statuses)
            for status in statuses:
                faults.command(campaign, ChangePC(pc_id, "status", (status,)))
            shown(
                game_id,
                "Ruleset.health_summary",
                game.ruleset.health(campaign.doc("party", pc_id) or {}),
            )
    finally:
        campaign.store.close()


def check_actions(game_id: str, path: Path) -> None:
    """Every action of every panel, with the first PC and the first foe selected and its form
    at its defaults, as the panel takes it: refused with the game's words, or applied; an
    action whose ``available``, ``form``, ``make`` or command fails fails the kit."""
    from rulesets.base import RuleError
    from rulesets.table import Context
    from screens.form import FieldError, clean

    campaign = _open(game_id, path)
    try:
        game = campaign.game
        pc_id, _ = campaign.rows("party")[0]
        ((enc_id, _),) = campaign.rows("encounters")
        with _Faults(game_id) as faults:
            for action in game.actions:
                enc = campaign.doc("encounters", enc_id)
                foe = next(
                    (c for c in (enc or {}).get("combatants", []) if c["side"] != "pc"), None
                )
                ctx = Context(
                    read=campaign,
                    game=game,
                    panel=action.panel,
                    encounter_id=enc_id,
                    encounter=enc,
                    combatant=foe,
                    pc_id=pc_id,
                    setup={k: v for c in game.checks.checks[:1] for k, v in c.defaults().items()},
                )
                if not action.available(ctx):
                    continue
                form = action.form(ctx) if action.form is not None else ()
                try:  # the form at its defaults, read as the form reads them
                    values = {f.key: clean(f, f.default) for f in form}
                except FieldError:
                    continue  # the GM has to type something first
                try:
                    command = action.make(ctx, values)
                except RuleError:
                    continue  # refused with the game's words, as the panel shows them
                assert hasattr(command, "run") and isinstance(
                    getattr(command, "label", None), str
                ), (
                    f"{game_id}: the {action.panel} action {action.id} made {command!r}, not a command"
                )
                shown(game_id, f"action {action.id} result", faults.command(campaign, command))
    finally:
        campaign.store.close()


def _own_attack(game_id: str) -> None:
    """A game whose foes are its own (``foes.make`` gives a foe sheet, and the tracker draws no
    statblock for them) attacks by its own rules: the default d20 against AC would roll, and
    pass the kit, and mean nothing in it. Where the statblock is drawn, its d20 attack is the
    one the game shows."""
    from rulesets.foes import d20_attack

    game = registry.game(game_id)
    attack = getattr(game.foes.attack, "__wrapped__", game.foes.attack)
    block = quick_build(2)
    stats = game.foes.make("Kit Bandit", block, block.hp)
    own = isinstance(stats, dict) and isinstance(stats.get("sheet"), dict)
    if own and not game.foes.draws_statblock:
        assert attack is not d20_attack, (
            f"{game_id}: its foes are its own (foes.make gives a sheet, no statblock drawn) "
            "but attack with the default d20 against AC: declare FoeRules.attack"
        )


def check_game(game_id: str, folder: Path) -> None:
    """Every check of the kit on one installed game; ``folder``: where its saves go (a
    ``tmp_path``). Random numbers come from ``random.Random(SEED)``."""
    check_entry_point(game_id)
    check_play(game_id, folder)


def check_play(game_id: str, folder: Path) -> None:
    """Every check of the kit but the entry point's: for a game registered in-process
    (``rulesets.registry.register``) as well as an installed one."""
    path = check_demo(game_id, folder)
    check_sheets(game_id, path)
    check_foes(game_id, path)
    check_checks(game_id, path)
    check_decks(game_id, path)
    check_action_keys(game_id)
    check_fight(game_id, path)
    check_sheet_steps(game_id, path)
    check_actions(game_id, path)
    check_save_reload(game_id, path)
