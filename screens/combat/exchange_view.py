"""The exchange view (A) on the line under the table: whoever acts attacks the selected combatant
(or its last target), the exact odds shown at once; the defender's answer is typed there, enter
rolls it and lands it as one change (undo takes it all back), escape leaves it with nothing
applied, a refused answer keeps the line open with what was typed and why.

The target is changed on the same line by its row number or the first letters of its name:
typed straight away where the game asks the defender nothing, after tab where it does.

The view holds the exchange being set up and reads the campaign for its odds; it posts
:class:`UnderTable.Land` (a command for the tracker to send) and :class:`ExchangeView.Closed`,
and the tracker tells it back whether the command was refused.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual import events
from textual.message import Message

from app.state import Transaction
from rulesets import encounter as er
from rulesets import exchange as ex
from rulesets import foes as fo
from rulesets.base import RuleError
from rulesets.fight import load
from rulesets.text import named_by
from rulesets.values import record
from screens.campaign_reader import CampaignReader
from screens.combat.amount_line import UnderTable
from screens.form import FormScreen
from widgets.literal import clean

if TYPE_CHECKING:
    from rulesets.exchange import Odds


@record
class Exchange:
    """The exchange being set up on the line under the table."""

    attacker_id: str
    target_id: str
    attribute: str
    """What a statblock attacks with: B's choice for that foe (each keeps its own)."""
    typed: str = ""
    """The defender's answer as typed."""
    asks: bool = True
    """This exchange, as last counted, asks the defender an answer (where the game asks one:
    a Somnihil foe against a foe asks none)."""
    aiming: bool = False
    """Tab: the keys name the target (a row number or the first letters of a name)."""
    aim: str = ""
    unsure: str = ""
    """Why what is typed as the target names no one combatant (several begin so, or none):
    the exchange is not rolled until it does, never at the target it had before."""
    said: str = ""
    """Why the last answer was refused (cleared by the next key)."""


def exchange_pair(enc: er.Encounter, selected: str | None) -> tuple[str, str] | None:
    """Who attacks whom on A: the one acting attacks the selected (or, with itself selected,
    its default target); before the fight, the selected attacks its default target."""
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


def aim(enc: er.Encounter | None, typed: str) -> tuple[str | None, str]:
    """The combatant a row number or a name's first letters name, or why none: several
    names begin so (listed), or none does."""
    text = typed.strip().casefold()
    if enc is None or not text:
        return None, ""
    if text.isdigit():
        index = int(text) - 1
        if 0 <= index < len(enc.combatants):
            return enc.combatants[index].id, ""
        return None, f"No row {text}: there are {len(enc.combatants)}"
    found = named_by([(c.id, c.name) for c in enc.combatants], typed)
    if len(found) == 1:
        return found[0][0], ""
    if not found:
        return None, f"No one is named {typed.strip()!r}"
    names = ", ".join(name for _, name in found)
    return None, f"{typed.strip()!r} is ambiguous: {names} (type more)"


def aim_at(found: Exchange, typed: str, enc: er.Encounter | None) -> None:
    """The target as ``typed`` names it; where it names no one combatant, why (nothing
    typed: the target stays as it was)."""
    found.aim, found.unsure = typed, ""
    if not typed.strip():
        return
    aimed, why = aim(enc, typed)
    if aimed is None:
        found.unsure = why
    elif aimed == found.attacker_id:
        found.unsure = "An attacker cannot attack itself: pick a target"
    else:
        found.target_id = aimed


class ExchangeView(CampaignReader, UnderTable):
    """A: the exchange, from the attacker's roll to the pools it lands on."""

    class Closed(Message):
        """Escape: the exchange left with nothing applied."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.exchange: Exchange | None = None
        """The exchange being set up, if any."""
        self.encounter: er.Encounter | None = None
        self.encounter_id: int | None = None

    def open(self, found: Exchange, encounter_id: int, enc: er.Encounter) -> None:
        self.exchange = found
        self.display = True
        self.follow(encounter_id, enc)

    def close(self) -> None:
        self.exchange = None

    def follow(self, encounter_id: int | None, enc: er.Encounter | None) -> None:
        """The fight as it is now (a change from elsewhere): the odds again."""
        self.encounter_id, self.encounter = encounter_id, enc
        self.show()

    def refused(self, why: str) -> None:
        """The command posted was refused: the line stays, with what was typed and why."""
        if self.exchange is not None:
            self.exchange.said = why
            self.show()

    def landed(self, close: bool) -> None:
        """The exchange landed (it is over), or the PC's attack was remembered."""
        if close:
            self.exchange = None
            self.post_message(self.Closed())
        elif self.exchange is not None:
            self.show()

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
                fight, found.attacker_id, found.target_id, found.typed, found.attribute
            )
            return ex.odds(self.game.exchange, setup)
        except RuleError as exc:
            return str(exc)
        except Exception as exc:  # noqa: BLE001 - a game's hook: one message, never the session
            return f"{self.game.name} cannot count this attack ({type(exc).__name__}: {exc})"

    def show(self) -> None:
        found = self.exchange
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
        self.say(text, style="bold")

    def key(self, event: events.Key) -> bool:
        """A key while the exchange is open; True when it was the exchange's."""
        found = self.exchange
        if found is None:
            return False
        what = self._key(event, found, self._asks(found))
        if what is None:
            return False
        if what == "close":
            self.exchange = None
            self.post_message(self.Closed())
        elif what == "land" and self.encounter_id is not None:
            command = ex.Attack(
                self.encounter_id,
                attacker_id=found.attacker_id,
                target_id=found.target_id,
                defence=found.typed,
                attribute=found.attribute,
            )
            self.land(command, answer=True)
        elif what == "edit":
            self._edit_attack(found)
        else:
            self.show()
        return True

    def _key(self, event: events.Key, found: Exchange, asks: bool) -> str | None:
        """``close`` (escape), ``land`` (enter or T), ``edit`` (ctrl+e: the attacking PC's
        attack), ``typed`` (the answer, the target or the aiming changed), or None: not the
        exchange's key. Where the game asks the defender an answer, tab aims at a target."""
        key = event.key
        found.said = ""
        if key == "escape":
            if not found.aiming:
                return "close"
            # The name given up: the target stays the one named before, knowingly.
            found.aiming, found.aim, found.unsure = False, "", ""
        elif key in ("enter", "T"):
            if found.unsure:
                # Rolled now, it would land on the target named before: say so and wait.
                found.said = found.unsure
                return "typed"
            if not found.aiming:
                return "land"
            found.aiming, found.aim = False, ""
        elif key == "ctrl+e":
            return "edit"
        elif key == "tab" and asks:
            found.aiming = not found.aiming
        elif key == "backspace":
            if found.aiming or not asks:
                aim_at(found, found.aim[:-1], self.encounter)
            else:
                found.typed = found.typed[:-1]
        elif key == "ctrl+u":  # clears the line, as in any text field
            if found.aiming or not asks:
                aim_at(found, "", self.encounter)
            else:
                found.typed = ""
        elif event.is_printable and event.character:
            if found.aiming or not asks:
                aim_at(found, (found.aim + event.character)[:30], self.encounter)
            else:
                found.typed = (found.typed + event.character)[:40]
        else:
            return None
        return "typed"

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
            self.show()
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
                self.land(ex.RememberAttack(ref, values), answer=True, close=False)
            elif self.exchange is found:
                self.show()

        self.app.push_screen(FormScreen(f"{sheet.get('name', '?')}'s attack", fields), done)
