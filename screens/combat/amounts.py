"""The inline amount under the table: damage, healing, an area marked with +, and an
attack (A) landed with T, typed where the GM looks instead of in a dialog."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual import events

from app.lazy import LazyModule
from rulesets import encounter as er
from rulesets import exchange as ex
from rulesets import fight as fr
from rulesets import foes as fo
from screens.combat import forms
from screens.combat.amount_line import Inline
from screens.combat.pane import CombatPane
from screens.form import Field, FieldError, FormScreen
from screens.form import clean as clean_field
from widgets.literal import clean

if TYPE_CHECKING:
    from app.commands import combat as cmd
    from app.commands import npcs
    from app.commands.npcs import RollKind
else:
    cmd = LazyModule("app.commands.combat")
    npcs = LazyModule("app.commands.npcs")


class CombatAmounts(CombatPane):
    """Damage, healing and landing attacks, typed inline under the table."""

    # --- actions: health ------------------------------------------------------------------------
    def action_damage(self) -> None:
        self._health_change("Damage", self.rules.damage_form)

    def action_heal(self) -> None:
        self._health_change("Heal", self.rules.heal_form)

    def action_mark(self) -> None:
        """+: mark or unmark the selected for an area; the cursor then moves down one row (the
        next foe of a group is one + away), and the line under the table says so."""
        c = self._selected()
        if c is None:
            return
        self._marked ^= {c.id}
        self.refresh_data()
        row = self.table.cursor_row
        self.action_cursor(1)
        moved = self.table.cursor_row != row
        done = "marked" if c.id in self._marked else "unmarked"
        count = len(self._area())
        after = self._selected() if moved else None
        where = (
            f"the cursor moved down to {after.name}"
            if after is not None
            else "the cursor stays (last row)"
        )
        lands = f"t or l lands on all {count} marked" if count else "nothing marked"
        self.show_result([f"{c.name} {done} · {where} · {lands}"])

    def _area(self) -> tuple[str, ...]:
        """The marked combatants still in the fight, in turn order."""
        enc = self.encounter
        if enc is None or not self._marked:
            return ()
        return tuple(c.id for c in enc.combatants if c.id in self._marked)

    def _land(self, amount: str, answers: dict[str, Any], heal: bool, one: str) -> None:
        """Apply to the marked combatants (then unmark them), or to ``one`` alone."""
        eid = self.encounter_id
        if eid is None:
            return
        area = self._area()
        if area:
            if self._apply(cmd.Area(eid, area, amount, answers, heal)) is not None:
                self._marked = set()
                self.refresh_data()
        elif heal:
            self._apply(cmd.Heal(eid, one, amount, answers))
        else:
            self._apply(cmd.Damage(eid, one, amount, answers))

    def action_damage_last_roll(self) -> None:
        """T: an attack rolled by an older Tableside and waiting to land lands on its target;
        else the log's last roll lands on the selected (or the marked), once: an attack's
        damage or a plain roll's total, never a check."""
        if self._strike() is not None:
            self._land_strike("")
            return
        c, eid = self._selected(), self.encounter_id
        if c is None or eid is None:
            return
        rolls = self.campaign.newest("log", 1, lambda e: e.get("kind") == "roll")
        if not rolls:
            self.notify(
                "Nothing to land: no attack waiting and no damage roll in the log "
                "(A attacks; d rolls dice)",
                severity="warning",
            )
            return
        roll_id, _ = rolls[-1]
        area = self._area() or (c.id,)
        if self._apply(ex.LandRoll(eid, roll_id=roll_id, combatant_ids=area)) is not None:
            self._marked = set()

    def _strike(self) -> dict[str, Any] | None:
        """The attack waiting to land in the running encounter (A rolled it), if any."""
        if self.encounter_id is None:
            return None
        doc = self.campaign.doc("encounters", self.encounter_id) or {}
        found = doc.get(fo.STRIKE_KEY)
        return found if isinstance(found, dict) else None

    def _land_strike(self, answer: str, answers: dict[str, Any] | None = None) -> None:
        eid = self.encounter_id
        if eid is not None:
            self._apply(fo.LandStrike(eid, answer=answer, answers=answers or {}))

    def _offer_strike(self) -> None:
        """After A: where the game asks the defender something before the attack lands (a
        defence roll, its total, its cards), the line under the table asks it; T or enter
        lands it."""
        strike = self._strike()
        if strike is None or not strike.get("hits") or not strike.get("ask"):
            return
        enc = self.encounter
        try:
            target = enc.get(str(strike.get("target"))) if enc is not None else None
        except er.EncounterError:
            target = None
        if target is None:
            return
        form = self.rules.damage_form(fr.health_kind(target))
        asked = tuple(f for f in form if f.key == strike["ask"])
        if not asked:
            return
        attacker = self._seen.get(str(strike.get("attacker")))
        who = attacker.combatant.name if attacker is not None else "The attack"
        brief = str(strike.get("brief") or " + ".join(str(h) for h in strike["hits"]))
        said = clean(f"{who} → {target.name}: {brief}", 200)
        hint = clean(str(strike.get("hint") or ""), 300)
        self.amount_line.open_amount(
            Inline("Land", asked, target.id, target.name, strike=said, hint=hint)
        )

    def _health_change(
        self,
        verb: str,
        form: Callable[[fr.HealthKind], tuple[Field, ...]],
    ) -> None:
        """Ask the game's form for where the selected's health lives, then apply (to every
        marked combatant when some are marked)."""
        eid, c = self._need_encounter(), self._selected()
        if eid is None or c is None:
            return
        area = self._area()
        who = f"{len(area)} marked" if area else c.name
        self.amount_line.open_amount(Inline(verb, tuple(form(fr.health_kind(c))), c.id, who))

    def close_amount(self) -> None:
        self.amount_line.inline = None
        self._show_detail()

    def on_paste(self, event: events.Paste) -> None:
        """A paste while an amount is typed goes into it (cut at 40 characters)."""
        if self._inline is None:
            return
        event.stop()
        self.amount_line.paste(event.text)

    def amount_form(self) -> None:
        """The game's whole damage or heal form, the typed amount filled in."""
        inline = self._inline
        if inline is None:
            return
        if inline.strike:
            self._strike_form(inline)
            return
        typed = inline.typed
        fields = [replace(f, default=typed) if k == 0 else f for k, f in enumerate(inline.fields)]
        self.close_amount()
        # The form starts past the amount once it is typed, or where the game lets it be blank
        # (an attack card instead); a required amount not typed yet is where it starts.
        skip = len(fields) > 1 and (typed.strip() or not fields[0].required)
        start = 1 if skip else 0

        def done(v: dict[str, Any] | None) -> None:
            if v is not None:
                self._land(
                    str(v.get("amount") or ""), v, inline.verb == "Heal", inline.combatant_id
                )

        self.app.push_screen(
            FormScreen(f"{inline.verb} {inline.who}", fields, start=start),
            done,
        )

    def _strike_form(self, inline: Inline) -> None:
        """tab while an attack waits to land: the target's whole damage form, what the attack
        came to filled in (the GM may change the target's answers, or the amount)."""
        strike = self._strike() or {}
        total = sum(int(h) for h in strike.get("hits", ()) if str(h).lstrip("-").isdigit())
        typed = {inline.fields[0].key: inline.typed} if inline.fields and inline.typed else {}
        answers = {**dict(strike.get("answers") or {}), **typed}
        try:
            target = self.encounter.get(inline.combatant_id) if self.encounter else None
        except er.EncounterError:
            target = None
        self.close_amount()
        if target is None:
            return
        fields = [
            replace(
                f, default=str(total) if f.key == "amount" else str(answers.get(f.key, f.default))
            )
            for f in self.rules.damage_form(fr.health_kind(target))
        ]

        def done(v: dict[str, Any] | None) -> None:
            if v is not None:
                self._land_strike("", {k: val for k, val in v.items() if val is not None})

        self.app.push_screen(FormScreen(f"Land on {target.name}", fields, start=0), done)

    def _amount_typed(self) -> None:
        inline = self._inline
        if inline is None:
            return
        if inline.strike:
            self.close_amount()
            self._land_strike(inline.typed)
            return
        try:
            values = {
                f.key: clean_field(f, inline.typed if k == 0 else f.default)
                for k, f in enumerate(inline.fields)
            }
        except FieldError as exc:
            self._set_text("#combat-last", f"✗ {exc}")
            self._said_version = self.campaign.version
            return
        self.close_amount()
        self._land(
            str(values.get("amount") or ""), values, inline.verb == "Heal", inline.combatant_id
        )

    def action_temp_hp(self) -> None:
        eid, c = self._need_encounter(), self._selected()
        if eid is not None and c is not None:
            self._form(forms.temp_hp(eid, c))

    def action_statblock_roll(self, kind: RollKind) -> None:
        """A, V, K, M, E: the selected combatant's attack (by its game's mechanic, at a named
        target: T lands it), save or defence, skill, morale or Effort roll."""
        eid, c = self._need_encounter(), self._selected()
        if eid is None or c is None:
            return
        self._apply(npcs.RollStatblock(eid, c.id, kind=kind, attribute=self.roll_with))
