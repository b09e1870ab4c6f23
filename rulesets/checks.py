"""The checks a game lets the tray state, declared so the tray and ``tableside odds`` need no game.

A :class:`Check` names its inputs (:class:`CheckInput`: a cycle through choices, a number with
bounds, a pick from the rolling character's sheet, or a typed line the game parses), a legend of
its bands, and one function, :attr:`Check.spec`, that turns the inputs as set up into a
:class:`CheckSpec`: the exact odds of each band *and* the command that rolls it. The tray shows
the odds before ``c`` applies the command, so what the chart promises is what the dice do.

A check's command rolls inside ``run`` with ``tx.rng`` and writes the log through
``tx.log_roll``; a check that changes a sheet (AP back on a natural 1, Luck for Good Drama, a
Major Arcana granted) changes it in the same command, so one undo takes back both.

A game whose table holds cards (hands dealt to the characters) declares :class:`CardTable`;
the tray then shows the decks and one hand, and a game without one gets no card area at all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal

from rulesets.base import RuleError, accepts
from rulesets.table import Command, Doc, Field, Tx
from rulesets.values import frozen

InputKind = Literal["cycle", "number", "pick", "typed"]
Keep = Literal["table", "roller", "roll"]
Rows = Callable[[str], list[tuple[int, Doc]]]


def _shown(value: Any) -> str:
    return str(value)


@frozen
class CheckInput:
    """One thing the GM sets before a check: what it is, how a key changes it, what it shows.

    ``press`` is the key that cycles a cycle or a pick (or asks to type a typed input);
    ``steps`` the two keys (up, down) that step a number or move along a cycle without
    wrapping. A number visits ``stops`` when stepped if given (a typed value may lie between
    them). ``keep`` says how long a value lasts: ``"roll"`` for one roll (an edge, a boon, a
    modifier: back to the default after the roll and for another roller), ``"roller"`` for
    the character who rolls (a skill, a weapon: each roller's own, remembered), ``"table"``
    until the GM changes it (a DC). ``once`` is the older spelling of ``keep="roll"``.
    """

    key: str
    label: str
    kind: InputKind
    default: Any = 0
    press: str = ""
    steps: tuple[str, str] | None = None
    choices: tuple[Any, ...] = ()
    minimum: int = 0
    maximum: int = 0
    stops: tuple[int, ...] = ()
    show: Callable[[Any], str] = _shown
    options: Callable[[Doc | None], Sequence[str]] | None = None
    """A pick's choices from the rolling character's sheet (None for the GM)."""
    parse: Callable[[str], Any] | None = None
    """A typed input: the GM's text to a value; ValueError with the message to show."""
    unparse: Callable[[Any], str] = _shown
    once: bool = False
    keep: Keep = "table"
    hint: str = ""
    """What to type, for a typed input's prompt (``"the second helper's skill, then …"``)."""
    when: Callable[[Mapping[str, Any]], bool] | None = None
    """Whether the setup shows it, from the inputs' values (an opposed check's NPC modifier
    only while the check is opposed); None: always."""

    @property
    def lasts(self) -> Keep:
        """How long a value lasts (:attr:`keep`; ``once`` reads as ``"roll"``)."""
        return "roll" if self.once else self.keep

    def fits(self, value: Any, pc: Doc | None) -> bool:
        """A pick's value is on this roller's sheet (any value fits the GM, or another kind)."""
        return self.kind != "pick" or pc is None or not value or value in self.pick_choices(pc)

    def applies(self, values: Mapping[str, Any]) -> bool:
        """The setup shows this input for these values (see :attr:`when`)."""
        return self.when is None or bool(self.when(values))

    def shown(self, value: Any) -> str:
        if self.kind == "pick" and not value:
            return "none"
        return self.show(value)

    def step(self, value: Any, by: int, pc: Doc | None) -> Any:
        """The value after one press (``by`` +1 / −1)."""
        if self.kind == "number":
            if self.stops:
                ahead = [s for s in self.stops if (s > value if by > 0 else s < value)]
                if ahead:
                    return min(ahead) if by > 0 else max(ahead)
                return value
            return max(self.minimum, min(self.maximum, int(value) + by))
        choices = self.pick_choices(pc) if self.kind == "pick" else self.choices
        if not choices:
            return value
        i = choices.index(value) if value in choices else 0
        if self.steps is not None and self.kind == "cycle":
            return choices[max(0, min(len(choices) - 1, i + by))]
        return choices[(i + by) % len(choices)]

    def pick_choices(self, pc: Doc | None) -> tuple[str, ...]:
        found = tuple(self.options(pc)) if self.options is not None else ()
        return ("", *found)

    def from_text(self, text: str, pc: Doc | None = None) -> Any:
        """A value the GM typed (or gave on the command line); ValueError says what is wrong."""
        text = text.strip()
        if self.kind == "number":
            try:
                value = int(text)
            except ValueError:
                raise ValueError(f"{self.label}: type a whole number") from None
            if not self.minimum <= value <= self.maximum:
                raise ValueError(f"{self.label}: {self.minimum} to {self.maximum}")
            return value
        if self.kind == "typed":
            return self.parse(text) if self.parse is not None else text
        choices = self.pick_choices(pc) if self.kind == "pick" else self.choices
        for choice in choices:
            if text.casefold() in (str(choice).casefold(), self.shown(choice).casefold()):
                return choice
        if self.kind == "pick" and self.options is not None and pc is None:
            return text  # nobody's sheet to check against (the GM, the command line)
        names = ", ".join(str(c) or "none" for c in choices)
        raise ValueError(f"{self.label}: one of {names}")

    def as_text(self, value: Any) -> str:
        if self.kind == "typed":
            return self.unparse(value)
        return str(value)

    def field(self, value: Any, pc: Doc | None) -> Field:
        """This input as a line of the tray's typed setup form."""
        if self.kind == "number":
            return Field(
                self.key, self.label, str(value), "int", minimum=self.minimum, maximum=self.maximum
            )
        if self.kind == "typed":
            return Field(self.key, self.label, self.as_text(value), required=False)
        if self.kind == "pick":
            names = tuple(c for c in self.pick_choices(pc) if c)
            shown = str(value) if self.fits(value, pc) else ""
            return Field(self.key, self.label, shown, "choice", choices=names, required=False)
        names = tuple(self.shown(c) for c in self.choices)
        return Field(self.key, self.label, self.shown(value), "choice", choices=names)


@frozen
class Setup:
    """A check as the GM has set it up: the inputs' values and who rolls."""

    values: Mapping[str, Any]
    who: int | None = None
    """The rolling character's party id; None for the GM."""
    pc: Doc | None = None
    rows: Rows | None = None
    """Reads the campaign (a deck's state for a card draw's odds); None on the command line."""

    def read(self, table: str) -> list[tuple[int, Doc]]:
        return self.rows(table) if self.rows is not None else []


@frozen
class CheckSpec:
    """One check, fully set up: its odds and its roll come from the same values."""

    summary: str
    """The check in one line: ``"2d6+1 vs DC 10"``."""
    odds: Callable[[], Mapping[str, Fraction]]
    command: Command
    """Rolls (with ``tx.rng``, inside ``run``), logs and changes what the check changes."""
    odds_title: str = ""
    """What the odds box is titled by, in words: a number in it is the ``{modifier}`` the
    odds are computed for, never one written of its own (``"{modifier} with assistance"``)."""
    notes: tuple[str, ...] = ()
    """More lines under the setup (the DC in other systems, the roller's Grip)."""
    modifier: int | None = None
    """The modifier the odds are computed for (give the odds the same value), shown where
    :attr:`odds_title` says ``{modifier}``: the title cannot disagree with the figures."""

    def title(self) -> str:
        """The odds box's title: :attr:`odds_title` with the modifier filled in (``+23``)."""
        shown = "" if self.modifier is None else f"{self.modifier:+d}"
        return " ".join(self.odds_title.replace("{modifier}", shown).split())


@frozen
class CliFlag:
    """An option ``tableside odds --game ID`` takes for this check (``--name``)."""

    name: str
    help: str
    kind: Literal["switch", "int", "text"] = "text"
    required: bool = False


@frozen
class Check:
    """A check the tray can state."""

    id: str
    name: str
    inputs: tuple[CheckInput, ...]
    spec: Callable[[Setup], CheckSpec]
    legend: str = ""
    """What the bands mean, one line."""
    flags: tuple[CliFlag, ...] = ()
    from_flags: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None
    """The command line's flags (only those given) to input values; default: same-named inputs."""

    def defaults(self) -> dict[str, Any]:
        return {i.key: i.default for i in self.inputs}

    def after_roll(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The setup for the next roll: what lasts one roll back to its default."""
        return {
            i.key: i.default if i.lasts == "roll" else values.get(i.key, i.default)
            for i in self.inputs
        }

    def for_roller(
        self, values: Mapping[str, Any], kept: Mapping[str, Any], pc: Doc | None
    ) -> dict[str, Any]:
        """The setup when another character rolls: what lasts one roll at its default, each
        roller's own (``kept``, as they left it) restored, a pick not on their sheet cleared,
        what is the table's kept."""
        fresh: dict[str, Any] = {}
        for i in self.inputs:
            value = values.get(i.key, i.default)
            if i.lasts == "roll":
                value = i.default
            elif i.lasts == "roller":
                value = kept.get(i.key, i.default)
            fresh[i.key] = value if i.fits(value, pc) else i.default
        return fresh

    def own(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The values a roller keeps as their own (a skill, a weapon)."""
        return {
            i.key: values[i.key] for i in self.inputs if i.lasts == "roller" and i.key in values
        }

    def input(self, key: str) -> CheckInput:
        for i in self.inputs:
            if i.key == key:
                return i
        raise KeyError(key)

    def keys(self) -> list[str]:
        """Every key the inputs use (each must be unique within the tray)."""
        found: list[str] = []
        for i in self.inputs:
            found += [k for k in (i.press, *(i.steps or ())) if k]
        return found

    def values_from_flags(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Input values from the command line; RuleError names a value that does not fit."""
        values = self.defaults()
        if self.from_flags is not None:
            values.update(self.from_flags(given))
            return values
        for name, raw in given.items():
            try:
                values[name] = self.input(name).from_text(str(raw))
            except KeyError:
                continue
            except ValueError as exc:
                raise RuleError(str(exc)) from None
        return values


@frozen
class CardTable:
    """A game that plays with hands of cards: the tray shows its decks (``Game.decks``, read
    through ``tableside_api.DeckState``) and one hand at a time.

    ``play`` makes the command that plays a held card (holder, card key); ``status`` adds lines
    under the decks (a running contest), read from the campaign.
    """

    play: Callable[[str, str], Command]
    status: Callable[[Rows], Sequence[str]] = lambda rows: ()
    empty: str = "No hands dealt"
    holder: Callable[[Doc], str] | None = None
    """How a hand's holder reads, from its party sheet (its name and focus); None: the name."""
    others: Callable[[Rows], Mapping[str, str]] = lambda rows: {}
    """The names of holders who are not PCs (a foe's hand in the running fight), by holder."""


@frozen
class Preset:
    """Inputs a game sets for the roller from the running fight, and why (said in the tray)."""

    values: Mapping[str, Any]
    why: str = ""


def _no_preset(encounter: Doc | None, who: int | None) -> Preset | None:
    return None


@frozen
class CheckRules:
    """The tray's questions to a game: the checks it states, and whether cards are on the table."""

    checks: tuple[Check, ...] = ()
    cards: CardTable | None = None
    spends_once: frozenset[str] = frozenset()
    """Tray actions that, like the check, use up the inputs set for one roll (``once``)."""
    preset: Callable[..., Preset | None] = _no_preset
    """``preset(running_encounter_doc, roller_party_id, roller_sheet)``: what the tray sets up
    for this roller from the fight and the roller's sheet (Somnihil: disadvantage inside an
    Anomaly); None: nothing. The roller None is the GM (rolling for whoever's turn it is; the
    sheet is then None). A game written for the game API 1.1 declares ``preset(encounter,
    who)``, and is called so."""

    def preset_for(self, encounter: Doc | None, who: int | None, pc: Doc | None) -> Preset | None:
        """The game's :attr:`preset` for this roller, told the sheet where it takes it."""
        if accepts(self.preset, 3):
            return self.preset(encounter, who, pc)
        return self.preset(encounter, who)

    def __post_init__(self) -> None:
        for check in self.checks:
            keys = check.keys()
            twice = {k for k in keys if keys.count(k) > 1}
            if twice:
                raise ValueError(f"check {check.id!r}: {', '.join(sorted(twice))} used twice")

    @property
    def main(self) -> Check | None:
        return self.checks[0] if self.checks else None

    def check(self, check_id: str) -> Check:
        for c in self.checks:
            if c.id == check_id:
                return c
        raise KeyError(check_id)


def roller(tx: Tx, who: int | None) -> tuple[str, Doc | None]:
    """The rolling character's name and sheet (a private copy), or ``("GM", None)``."""
    if who is None:
        return "GM", None
    doc = tx.get("party", who)
    return str(doc.get("name", "?")), doc


def require_game(tx: Tx, game_id: str) -> None:
    """A game's command refuses to run in another game's campaign."""
    if tx.game.id != game_id:
        raise RuleError(f"this check belongs to {game_id}, the campaign plays {tx.game.id}")


def need_roller(tx: Tx, who: int | None, what: str) -> Doc:
    if who is None:
        raise RuleError(f"{what} is rolled for a character: pick one with p")
    return tx.get("party", who)


__all__ = [
    "CardTable",
    "Check",
    "CheckInput",
    "CheckRules",
    "CheckSpec",
    "CliFlag",
    "Preset",
    "Setup",
    "need_roller",
    "require_game",
    "roller",
]
