"""The tray's check as the GM has set it up: who rolls, each input with the keys that change it,
what it comes to, the game's preset for the roller, and the last roll.

The setup is the GM's hand on the dice, not part of the campaign: this widget keeps it (the
roller, the check, its values, each roller's own inputs, the preset last applied) and reads
the campaign only to know the party and the running fight. The tray calls it (a key pressed,
a roll made, the table changed) and asks it for the check's spec to roll or to chart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, Static

from app.queries import current_encounter
from rulesets.base import RuleError
from rulesets.checks import Check, CheckInput, CheckSpec, Preset, Setup
from rulesets.table import Field
from screens.campaign_reader import CampaignReader
from widgets.literal import clean, flowed

if TYPE_CHECKING:
    pass

WORKING = "working out the odds…"

Odds = Callable[[CheckSpec], "dict[str, Any] | None"]
"""The check's odds by band, None while a slow hook still works them out."""


class CheckSetup(CampaignReader, Vertical):
    """Who rolls and the check's inputs, held across rolls; :meth:`show` draws them."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.who_index = 0
        self.check_index = 0
        """Which of the game's checks the tray states (``X`` steps through them)."""
        self.values: dict[str, Any] = {}
        self.kept: dict[int | None, dict[str, Any]] = {}
        """Each roller's own inputs (a skill, a weapon) as they left them, by party id."""
        self.preset: tuple[int | None, Preset | None] = (None, None)
        """The game's preset last applied (roller, what): applied again only when it changes,
        so a GM's own change to the setup stands."""
        self.turn_seen: tuple[Any, ...] | None = None
        """The encounter turn who-rolls last followed (a new turn moves it again)."""
        self.last_result = Text("")
        self.legend = Text()
        """The check's band legend as shown (it gives way first on a short screen)."""

    def compose(self) -> ComposeResult:
        check = self.check
        self.values = check.defaults() if check is not None else {}
        yield Label("", id="tray-mode", markup=False)
        yield Static("", id="check-setup", markup=False)
        yield Static("", id="check-legend", markup=False)
        yield Static("", id="last-result", markup=False)

    # --- reading the campaign ----------------------------------------------------------------
    @property
    def check(self) -> Check | None:
        """The check the tray states: the game's first, or the one ``X`` moved on to."""
        checks = self.game.checks.checks
        return checks[self.check_index % len(checks)] if checks else None

    def party(self) -> list[tuple[int, dict[str, Any]]]:
        """The characters who roll: a party sheet that became an NPC (a Shill) rolls no more."""
        return [(pid, doc) for pid, doc in self.campaign.rows("party") if not doc.get("npc")]

    @property
    def who(self) -> int | None:
        """The party doc id rolling, or None for the GM."""
        party = self.party()
        if self.who_index == 0 or self.who_index > len(party):
            return None
        return party[self.who_index - 1][0]

    @property
    def who_name(self) -> str:
        who = self.who
        if who is None:
            return "GM"
        doc = self.campaign.doc("party", who) or {}
        return str(doc.get("name", "?"))

    def pc(self) -> dict[str, Any] | None:
        who = self.who
        return self.campaign.doc("party", who) if who is not None else None

    def setup(self) -> Setup:
        return Setup(self.values, self.who, self.pc(), self.campaign.rows)

    def spec(self) -> CheckSpec:
        """The check as set up; RuleError (or ValueError) if the setup does not make one."""
        check = self.check
        if check is None:
            raise RuleError(f"{self.game.name} states no check in the tray")
        return check.spec(self.setup())

    def input(self, key: str) -> CheckInput | None:
        check = self.check
        try:
            return check.input(key) if check is not None else None
        except KeyError:
            return None

    # --- changing the setup --------------------------------------------------------------------
    def apply_preset(self) -> bool:
        """The game's setup for this roller from the running fight (disadvantage inside an
        Anomaly), put in place of the last one when it changed; True if the setup changed."""
        found = current_encounter(self.campaign)
        preset = self.game.checks.preset_for(found[1] if found else None, self.who, self.pc())
        if (self.who, preset) == self.preset:
            return False
        _, before = self.preset
        for key in before.values if before is not None else ():
            spec = self.input(key)
            if spec is not None:
                self.values[key] = spec.default
        for key, value in preset.values.items() if preset is not None else ():
            if self.input(key) is not None:
                self.values[key] = value
        self.preset = (self.who, preset)
        return True

    def follow_turn(self) -> bool:
        """A new turn in the running encounter: who rolls is its PC (an NPC's turn: the GM,
        or the PC it attacks where the players roll every die).

        Only a turn not yet followed moves it, so ``p`` keeps its choice within one turn.
        """
        found = current_encounter(self.campaign)
        if found is None:
            return False
        enc_id, enc = found
        turn = (enc_id, enc.get("round"), enc.get("current"))
        if turn == self.turn_seen or enc.get("current") is None:
            return False
        self.turn_seen = turn
        from rulesets.foes import turn_roller

        ids = [pid for pid, _ in self.party()]
        ref = turn_roller(enc, self.game.exchange.players_roll)
        index = next((i + 1 for i, pid in enumerate(ids) if str(pid) == str(ref)), 0)
        if index == self.who_index:
            return False
        self.roller_to(index)
        return True

    def roller_to(self, index: int) -> None:
        """Another character rolls: the last one's own inputs kept for them, theirs put back,
        and what lasted one roll (an edge, a boon) at its default: it was the last roller's."""
        check = self.check
        if check is not None:
            self.kept[self.who] = check.own(self.values)
        self.who_index = index
        if check is not None:
            self.values = check.for_roller(self.values, self.kept.get(self.who, {}), self.pc())
        self._forget_picks()

    def _forget_picks(self) -> None:
        """A new roller: a pick from the last roller's sheet (a skill they have, this one not)
        goes back to its default unless the new roller has it too."""
        check = self.check
        pc = self.pc()
        for spec in check.inputs if check is not None else ():
            if spec.kind == "pick" and self.values.get(spec.key) not in spec.pick_choices(pc):
                self.values[spec.key] = spec.default

    @property
    def steps(self) -> bool:
        """The game has another check to step to (the tray's Footer offers X only then)."""
        return len(self.game.checks.checks) > 1

    def next_check(self) -> str | None:
        """The game's next check, at its defaults (the inputs are that check's own); where
        the game has no other, why not (nothing changes: a GM who learnt X in another game
        gets an answer)."""
        checks = self.game.checks.checks
        if not self.steps:
            has = f"one check only ({checks[0].name})" if checks else "no checks"
            return f"{self.game.name} has {has}: there is no next check"
        self.check_index = (self.check_index + 1) % max(1, len(self.game.checks.checks))
        check = self.check
        self.values = check.defaults() if check is not None else {}
        self.preset = (None, None)
        self.apply_preset()
        return None

    def next_who(self) -> None:
        self.roller_to((self.who_index + 1) % (len(self.party()) + 1))
        self.apply_preset()

    def step(self, key: str, by: int) -> bool:
        spec = self.input(key)
        if spec is None:
            return False
        self.values[key] = spec.step(self.values.get(key, spec.default), by, self.pc())
        return True

    def after_roll(self) -> bool:
        """Inputs set for one roll only (an edge, a boon, a helper's assistance) go back to
        their defaults; the game's preset for the roller stands. True if any changed."""
        check = self.check
        if check is None:
            return False
        fresh = check.after_roll(self.values)
        preset = self.preset[1]
        if preset is not None:
            fresh.update((k, v) for k, v in preset.values.items() if k in fresh)
        if fresh == self.values:
            return False
        self.values = fresh
        return True

    def form_fields(self, check: Check) -> list[Field]:
        """Every input of ``check`` as a line of one form, at its value now."""
        pc = self.pc()
        return [i.field(self.values.get(i.key, i.default), pc) for i in check.inputs]

    def take_answers(self, check: Check, answers: dict[str, Any]) -> None:
        """The form's answers as the setup (a blank cycle keeps its value); ValueError, and
        nothing changed, if one is refused."""
        values = dict(self.values)
        pc = self.pc()
        for spec in check.inputs:
            raw = answers.get(spec.key)
            if raw is None or (raw == "" and spec.kind == "cycle"):
                continue
            values[spec.key] = spec.from_text(str(raw), pc)
        self.values = values

    # --- what is shown -------------------------------------------------------------------------
    def _key(self, key: str) -> str:
        return self.app.get_key_display(Binding(key, ""))

    def _input_text(self, spec: CheckInput) -> str:
        keys = [k for k in (spec.press, *(spec.steps or ())) if k]
        hint = f" ({' '.join(self._key(k) for k in keys)})" if keys else ""
        return f"{spec.label}: {spec.shown(self.values.get(spec.key, spec.default))}{hint}"

    def setup_text(self, odds: Odds, short: bool) -> tuple[Text, str, dict[str, Any]]:
        """The check as set up (text), and its odds (GEN-02), from the game's declaration."""
        who = Text("Who: ", style="bold")
        who.append(clean(self.who_name, 40))
        who.append(f"  ({self._key('p')})", style="dim")
        check = self.check
        if check is None:
            who.append("\nNo check to state in this game; the dice line rolls any dice.", "dim")
            return who, "", {}
        # Whole inputs: joined, a narrow screen wrapped a DC inside its key hint "(t, [ ], + −)".
        # One a line, except on a short screen, where as many whole ones share a line as fit.
        shown = [i for i in check.inputs if i.applies(self.values)]
        units = [who, *(Text(self._input_text(i)) for i in shown)]
        width = self.query_one("#check-setup").size.width if short else 0
        text = flowed(units, width) if width else Text("\n").join(units)
        text.append("\n")
        try:
            spec = self.spec()
            bands = odds(spec)
        except (RuleError, ValueError) as exc:
            text.append(str(exc), style="red")
            return text, "", {}
        if bands is None:
            text.append(spec.summary, style="bold")
            return text, WORKING, {}
        text.append(spec.summary, style="bold")
        preset = self.preset[1]
        if preset is not None and preset.why:
            text.append(f"\n{preset.why}", style="bold yellow")
        for note in spec.notes:
            text.append(f"\n{note}", style="dim")
        return text, spec.title() or check.name, bands

    def show(self, mode: str, setup: Text, legend: str) -> None:
        self.query_one("#tray-mode", Label).update(mode)
        self.query_one("#check-setup", Static).update(setup)
        self.legend = Text(legend, style="dim")
        self.query_one("#check-legend", Static).update(self.legend)
        self.query_one("#last-result", Static).update(self.last_result)

    def give_way(self, room: int) -> bool:
        """Fit ``room`` rows: where too few, the bands' legend gives way first (the same for
        every roll; the odds name the bands), then the Last: line. True if Last: is shown."""
        setup = self.query_one("#check-setup", Static)
        room -= self.query_one("#tray-mode").outer_size.height + setup.outer_size.height
        width = max(1, setup.size.width)
        giving = [self.query_one(f"#{i}", Static) for i in ("last-result", "check-legend")]
        for part, text in zip(giving, (self.last_result, self.legend), strict=True):
            lines = len(text.wrap(self.app.console, width)) if text.plain.strip() else 0
            lines += part.styles.margin.top if lines else 0
            part.display = 0 < lines <= room  # an empty Last: takes no row either
            room -= lines if part.display else 0
        return bool(giving[0].display)
