"""The NPC panel's statblock builder: name, concepts, Brawl / Wit / Will, a quick-build HD and
power names, with the statblock ``rulesets.npc`` builds from them shown under the fields.

The builder keeps what it edits (the library id, where its numbers came from, the fields as
last loaded, so an unsaved edit is known); the NPC panel loads it, asks it what the fields
build, and saves through its commands. Its fields' ``Input.Changed`` and
``AttributeField.Changed`` reach the panel, which calls :meth:`NpcBuilder.preview`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Static

from app.commands.npcs import MAX_NAME, beyond_table
from rulesets import npc as npc_rules
from rulesets.npc import CONVERTED_RANGE
from rulesets.text import MAX_TEXT, too_long
from widgets.literal import literal
from widgets.npc_attribute import AttributeField
from widgets.statblock import StatblockView
from widgets.text_field import TextField

ATTRIBUTE_IDS = ("npc-brawl", "npc-wit", "npc-will")

HINTS: dict[str, tuple[str, str]] = {
    "npc-name": ("n: new NPC", "n: new NPC"),
    "npc-concepts": ("up to three, comma-separated", "a, b, c (max 3)"),
    "npc-hd": ("h: 0-20 for a quick build (empty: attributes)", "h: 0-20 or empty"),
    "npc-powers": ("names, separated by ;", "name; name"),
}
"""Each builder field's hint, whole and for a narrow screen, where the field is 16 columns
wide: a hint cut at the field's edge read ``h: 0-20 for a``."""

QUICK_HD = "Quick HD must be a whole number from 0 to 20"


def source_note(source: dict[str, Any] | None) -> str:
    """One line saying where a library NPC came from (5e import, Without Number conversion)."""
    if not source:
        return ""
    if source.get("system") == "Without Number":
        extra = "".join(
            f", {label} {source[key]}"
            for key, label in (("hp", "HP"), ("hd", "HD"))
            if source.get(key) is not None
        )
        return (
            f"From Without Number: attack {source.get('attack', 0):+d}, skill "
            f"{source.get('skill', 0):+d}, morale {source.get('morale')}{extra}"
        )
    return f"From 5e: {source.get('name')} CR {source.get('cr')}"


class NpcBuilder(Vertical):
    """The builder's fields and its statblock preview."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.editing: int | None = None
        """The library id the builder edits; None = a new NPC."""
        self.pending_source: dict[str, Any] | None = None
        """Where the builder's numbers came from (a Without Number conversion), saved with it."""
        self.loaded: tuple[object, ...] = ("", "", "", 0, 0, 0, "")
        """The builder's fields as last loaded (or saved): anything else is an unsaved edit."""

    def compose(self) -> ComposeResult:
        yield Static("", id="npc-builder-title", markup=False)
        with Horizontal(classes="npc-row"):
            yield Label("Name", classes="npc-label")
            # No max_length: a paste past the bound is said in the preview, not a bell.
            yield TextField(placeholder=HINTS["npc-name"][0], id="npc-name")
        with Horizontal(classes="npc-row"):
            yield Label("Concepts", classes="npc-label")
            yield TextField(placeholder=HINTS["npc-concepts"][0], id="npc-concepts")
        low, high = CONVERTED_RANGE.start, CONVERTED_RANGE.stop - 1
        yield AttributeField("Brawl", minimum=low, maximum=high, id="npc-brawl")
        yield AttributeField("Wit", minimum=low, maximum=high, id="npc-wit")
        yield AttributeField("Will", minimum=low, maximum=high, id="npc-will")
        with Horizontal(classes="npc-row"):
            yield Label("Quick HD", classes="npc-label")
            yield TextField(
                placeholder=HINTS["npc-hd"][0],
                id="npc-hd",
                type="integer",
                max_length=3,
            )
        with Horizontal(classes="npc-row"):
            yield Label("Powers", classes="npc-label")
            yield TextField(placeholder=HINTS["npc-powers"][0], id="npc-powers")
        yield StatblockView(id="npc-statblock")

    # --- the fields --------------------------------------------------------------------------
    def text(self, field_id: str) -> str:
        return self.query_one(f"#{field_id}", Input).value

    @property
    def npc_name(self) -> str:
        return self.text("npc-name")

    def attributes(self) -> tuple[int, int, int]:
        a, b, c = (self.query_one(f"#{i}", AttributeField).value for i in ATTRIBUTE_IDS)
        return a, b, c

    def concepts(self) -> list[str]:
        return [c.strip() for c in self.text("npc-concepts").split(",") if c.strip()]

    def powers(self) -> list[str]:
        return [p.strip() for p in self.text("npc-powers").split(";")]

    def quick_hd(self) -> int | None:
        """The quick-build HD typed, None when empty; ValueError when it is not a number."""
        text = self.text("npc-hd").strip()
        return int(text) if text else None

    def fit_hints(self) -> None:
        for field_id, (whole, short) in HINTS.items():
            field = self.query_one(f"#{field_id}", Input)
            room = field.content_region.width
            field.placeholder = whole if len(whole) < room or not room else short

    def block(self) -> tuple[npc_rules.NPC | None, str]:
        """What the rules build from the form now, or None and the reason."""
        try:
            hd = self.quick_hd()
        except ValueError:
            return None, QUICK_HD
        for label, field_id, limit in (
            ("Name", "npc-name", MAX_NAME),
            ("Concepts", "npc-concepts", MAX_TEXT),
            ("Powers", "npc-powers", MAX_TEXT),
        ):
            # Said before the rules build anything from a paste gone wrong.
            if problem := too_long(label, self.text(field_id).strip(), limit):
                return None, problem
        try:
            if hd is not None:
                return npc_rules.quick_build(hd), ""
            return npc_rules.build(
                *self.attributes(), name=self.npc_name, concepts=self.concepts()
            ), ""
        except npc_rules.NPCError as exc:
            return None, str(exc)

    def preview(
        self,
        as_foe: Callable[[npc_rules.NPC], list[str]],
        editing_name: str,
        *,
        narrow: bool,
        short: bool,
    ) -> None:
        """The statblock the fields build (or why not), the foe the game makes of it, and the
        builder's title (``editing_name``: the library NPC being edited)."""
        block, problem = self.block()
        view = self.query_one("#npc-statblock", StatblockView)
        if block is None:
            view.show(None, notes=[problem])
        else:
            notes = [note] if (note := source_note(self.pending_source)) else []
            if isinstance(block, npc_rules.Statblock):
                notes += [w] if (w := beyond_table(block.brawl, block.wit, block.will)) else []
            # Narrow: the Concepts field just above says them; the preview keeps its rows.
            concepts = () if narrow else self.concepts()
            # Short: what the game makes of it is one line (the statblock must fit 80x24).
            foe = as_foe(block)
            notes += foe[:1] if short else foe
            view.show(block, self.npc_name, concepts, self.powers(), notes=notes)
        quick = isinstance(block, npc_rules.QuickBuild)
        for field_id in ATTRIBUTE_IDS:
            self.query_one(f"#{field_id}", AttributeField).set_class(quick, "-disabled")
        title = "New NPC" if self.editing is None else f"Editing {editing_name}"
        # Short, and wrapped rather than cut where a long name does not fit; a narrow
        # screen's footer shows ctrl+s itself.
        self.query_one("#npc-builder-title", Static).update(
            literal(title + ("" if narrow else " (ctrl+s saves)"), style="bold")
        )

    def load(self, doc: dict[str, Any], npc_id: int | None) -> None:
        """Put a document into the form (edit, or a conversion to review before saving)."""
        self.editing = npc_id
        self.query_one("#npc-name", Input).value = str(doc.get("name", ""))
        self.query_one("#npc-concepts", Input).value = ", ".join(doc.get("concepts", []))
        quick = doc.get("quick_hd")
        self.query_one("#npc-hd", Input).value = "" if quick is None else str(quick)
        for key, field_id in zip(npc_rules.ATTRIBUTES, ATTRIBUTE_IDS, strict=True):
            # never clamped: a converted +10 stays +10 (the builder warns beyond the table)
            self.query_one(f"#{field_id}", AttributeField).value = int(doc.get(key, 0))
        self.query_one("#npc-powers", Input).value = "; ".join(doc.get("powers", []))
        self.loaded = self.form()

    def form(self) -> tuple[object, ...]:
        texts = [self.text(i) for i in ("npc-name", "npc-concepts", "npc-hd")]
        numbers = [self.query_one(f"#{i}", AttributeField).value for i in ATTRIBUTE_IDS]
        return (*texts, *numbers, self.text("npc-powers"))

    @property
    def unsaved(self) -> bool:
        return self.form() != self.loaded
