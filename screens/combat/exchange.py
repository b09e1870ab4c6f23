"""The exchange (A) on the line under the table: whoever acts attacks the selected combatant (or
its last target), the exact odds shown at once; the defender's answer is typed there, enter
rolls it and lands it as one change (undo takes it all back), escape leaves it with nothing
applied, a refused answer keeps the line open with what was typed and why.

The target is changed on the same line by its row number or the first letters of its name:
typed straight away where the game asks the defender nothing, after tab where it does.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual import events

from app.state import Transaction
from rulesets import encounter as er
from rulesets import exchange as ex
from rulesets import foes as fo
from rulesets.base import RuleError
from rulesets.fight import load
from screens.combat.amount_line import Exchange
from screens.combat.amounts import CombatAmounts
from screens.form import FormScreen
from widgets.literal import clean

if TYPE_CHECKING:
    from rulesets.exchange import Odds


class CombatExchange(CombatAmounts):
    """A: the exchange, from the attacker's roll to the pools it lands on."""

    @property
    def _exchange(self) -> Exchange | None:
        """The exchange being set up on the line under the table, if any."""
        return self.amount_line.exchange

    def action_exchange(self) -> None:
        """A: the one acting attacks the selected (or, with itself selected, its last target;
        before the fight, the selected attacks its default target)."""
        enc, eid = self.encounter, self._need_encounter()
        if enc is None or eid is None:
            return
        pair = self._exchange_pair(enc)
        if pair is None:
            self.notify(
                "Nobody to attack: select a combatant on the other side", severity="warning"
            )
            return
        self.close_amount()
        self.amount_line.exchange = Exchange(*pair)
        self._show_exchange()

    def _exchange_pair(self, enc: er.Encounter) -> tuple[str, str] | None:
        selected = self.table.selected_id if self.is_mounted else None
        acting = enc.current if enc.started else None
        attacker_id = acting or selected
        if attacker_id is None:
            return None
        try:
            attacker = enc.get(attacker_id)
        except er.EncounterError:
            return None
        if selected and selected != attacker.id:
            try:
                if not enc.get(selected).defeated:
                    return attacker.id, selected
            except er.EncounterError:
                pass
        target = fo.default_target(enc, attacker)
        return (attacker.id, target.id) if target is not None else None

    def _with(self, found: Exchange) -> str:
        """What a statblock attacks with: B's choice for that foe (each keeps its own)."""
        return self.rolls_with(found.attacker_id)

    def _asks(self, found: Exchange) -> bool:
        return bool(self.game.exchange.defence_help) and found.asks

    def _odds(self, found: Exchange) -> Odds | str:
        """The exchange's exact odds, or why they cannot be counted (an answer refused)."""
        eid = self.encounter_id
        if eid is None:
            return "No encounter"
        tx = Transaction(self.campaign)  # read only: nothing of it is ever applied
        try:
            fight = load(tx, eid)
            setup = ex.setup_of(
                fight, found.attacker_id, found.target_id, found.typed, self._with(found)
            )
            return ex.odds(self.game.exchange, setup)
        except RuleError as exc:
            return str(exc)
        except Exception as exc:  # noqa: BLE001 - a game's hook: one message, never the session
            return f"{self.game.name} cannot count this attack ({type(exc).__name__}: {exc})"

    def _show_exchange(self) -> None:
        found = self._exchange
        enc = self.encounter
        if found is None or enc is None:
            return
        counted = self._odds(found)
        if not isinstance(counted, str) and found.asks != bool(counted.answer):
            # The target changed whom the game asks (a foe now attacks a foe): an answer
            # typed for the other target is nobody's now.
            found.asks, found.typed = bool(counted.answer), ""
            # A name being typed goes on naming the target, not into the answer now asked.
            found.aiming = found.aiming or (found.asks and bool(found.aim))
        try:
            who = f"{enc.get(found.attacker_id).name} → {enc.get(found.target_id).name}"
        except er.EncounterError:
            who = "?"
        if isinstance(counted, str):
            odds, steps = (who if found.said else f"{who}: {counted}"), ""
        else:
            odds, steps = ex.summary(counted), " · ".join(counted.steps)
        if found.aiming:
            ask = f"Target (row number or name): {found.aim}▏ (enter · esc)"
        elif self._asks(found):
            help_ = self.game.exchange.defence_help
            answer = "Defence" if isinstance(counted, str) else counted.answer
            ask = f"{answer} ({help_}): {found.typed}▏ (enter rolls · tab: target · esc)"
        else:
            ask = f"Target (row or name): {found.aim}▏ (enter rolls · esc)"
        if self._pc_ref(found.attacker_id) is not None:
            ask += " · ctrl+e: the attack"
        if found.unsure and not found.said:
            # The odds shown would be the last target's: the name typed has not chosen one.
            odds, steps = f"✗ {found.unsure}", ""
        why = f"✗ {found.said} · " if found.said else ""
        text = clean(f"{why}{ask} · {odds}" + (f" · {steps}" if steps else ""), 600)
        self.set_class(True, "-exchanging")
        self._set_text("#combat-amount", text, style="bold")

    def _aim(self, typed: str) -> tuple[str | None, str]:
        """The combatant a row number or a name's first letters name, or why none: several
        names begin so (listed), or none does."""
        enc = self.encounter
        text = typed.strip().casefold()
        if enc is None or not text:
            return None, ""
        if text.isdigit():
            index = int(text) - 1
            if 0 <= index < len(enc.combatants):
                return enc.combatants[index].id, ""
            return None, f"No row {text}: there are {len(enc.combatants)}"
        exact = [c for c in enc.combatants if c.name.casefold() == text]
        found = [c for c in enc.combatants if c.name.casefold().startswith(text)]
        if len(exact) == 1:
            return exact[0].id, ""
        if len(found) == 1:
            return found[0].id, ""
        if not found:
            return None, f"No one is named {typed.strip()!r}"
        names = ", ".join(c.name for c in found)
        return None, f"{typed.strip()!r} is ambiguous: {names} (type more)"

    def _show_detail(self) -> None:
        """An open exchange keeps the line: a redraw (a form confirmed, a change from
        elsewhere) must not hide it while the keys still go to it."""
        if self._exchange is not None:
            self._show_exchange()
            return
        super()._show_detail()

    def close_exchange(self) -> None:
        self.amount_line.exchange = None
        self.set_class(False, "-exchanging")
        self._show_detail()

    def exchange_key(self, event: events.Key) -> bool:
        """A key while the exchange is open; True when it was the exchange's."""
        found = self._exchange
        if found is None:
            return False
        what = self.amount_line.exchange_key(event, self._asks(found), self._aim)
        if what is None:
            return False
        if what == "close":
            self.close_exchange()
        elif what == "land":
            self._land_or_keep(found)
        elif what == "edit":
            self._edit_attack(found)
        else:
            self._show_exchange()
        return True

    def _pc_ref(self, cid: str) -> int | None:
        enc = self.encounter
        try:
            c = enc.get(cid) if enc is not None else None
        except er.EncounterError:
            return None
        if c is None or c.side != "pc" or not str(c.ref or "").isdigit():
            return None
        return int(str(c.ref))

    def _edit_attack(self, found: Exchange) -> None:
        """ctrl+e: the attacking PC's attack as the game asks it, remembered on its sheet."""
        ref = self._pc_ref(found.attacker_id)
        if ref is None:
            found.said = "A foe attacks with its statblock: ctrl+e edits a PC's attack"
            self._show_exchange()
            return
        sheet = self.campaign.doc("party", ref) or {}
        found_memory = sheet.get("attack")
        memory: dict[str, Any] = found_memory if isinstance(found_memory, dict) else {}
        fields = [
            replace(f, default=str(memory.get(f.key, f.default)))
            for f in self.game.exchange.attack_fields
        ]

        def done(values: dict[str, Any] | None) -> None:
            if values is not None:
                refusal: list[str] = []
                if self.send(ex.RememberAttack(ref, values), refused=refusal.append) is None:
                    found.said = refusal[0] if refusal else "Not done"
            if self._exchange is found:
                self._show_exchange()

        self.app.push_screen(FormScreen(f"{sheet.get('name', '?')}'s attack", fields), done)

    def _land_or_keep(self, found: Exchange) -> None:
        """Enter (or T): the exchange rolled and landed as one change; a refusal keeps it open
        with what was typed and why."""
        eid = self.encounter_id
        if eid is None:
            return
        refusal: list[str] = []
        command = ex.Attack(
            eid,
            attacker_id=found.attacker_id,
            target_id=found.target_id,
            defence=found.typed,
            attribute=self._with(found),
        )
        if self.send(command, refused=refusal.append) is None:
            found.said = refusal[0] if refusal else "Not done"
            self._show_exchange()
            return
        self.close_exchange()
