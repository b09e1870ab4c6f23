"""Panel 3: the NPC library (left) and the statblock builder (right), keyboard first.

Left: a filter Input over the library table and the selected NPC's statblock; the table keeps
focus on arrival so digits still switch panels. Right: name, concepts, Brawl / Wit / Will
(+ and - on the focused attribute), an optional quick-build HD and power names, with the
statblock rebuilt by ``rulesets.npc`` on every keystroke. Every change is a command from
``app.commands.npcs``; this screen never writes and never computes a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Static
from textual.worker import Worker

from app.commands.encounter_import import ImportEncounters
from app.commands.npcs import (
    MAX_NAME,
    AddNpcsToEncounter,
    DeleteNpc,
    DuplicateNpc,
    ImportNpcs,
    SaveNpc,
    beyond_table,
    npc_block,
    npc_document,
)
from app.importing import Converted
from app.queries import current_encounter
from app.state import CommandError
from rulesets import npc as npc_rules
from rulesets.npc import CONVERTED_RANGE
from rulesets.text import MAX_TEXT, too_long
from screens.npc_add import AddToEncounterScreen
from screens.npc_confirm import NpcConfirm
from screens.npc_convert import WithoutNumberForm
from screens.npc_import import NpcImportScreen
from screens.npc_roll import NpcRollScreen
from screens.panel import PanelScreen
from widgets.literal import literal
from widgets.npc_attribute import AttributeField
from widgets.npc_library import NpcLibrary
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


class NpcScreen(PanelScreen):
    PANEL_ID = "npcs"
    PANEL_TITLE = "NPCs"
    CSS_PATH = "npcs.tcss"
    AUTO_FOCUS = "#npc-library"
    WATCHES = frozenset({"npcs", "encounters"})
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "list_move(1)", "Down", show=False, id="npcs.down"),
        Binding("k", "list_move(-1)", "Up", show=False, id="npcs.up"),
        Binding("slash", "filter", "Filter", id="npcs.filter"),
        Binding("n", "new", "New NPC", id="npcs.new"),
        Binding("e", "edit", "Edit", id="npcs.edit"),
        Binding("ctrl+s", "save", "Save NPC", id="npcs.save", priority=True),
        Binding("c", "duplicate", "Duplicate", id="npcs.duplicate"),
        Binding("x,delete", "delete", "Delete", id="npcs.delete"),
        Binding("a", "add", "Add to encounter", id="npcs.add"),
        Binding("r", "roll", "Roll", id="npcs.roll"),
        Binding("h", "quick", "Quick build HD", id="npcs.quick"),
        Binding(
            "ctrl+b", "build_danger", "Build to a danger: how many", show=False, id="npcs.danger"
        ),
        Binding("w", "convert", "From Without Number", id="npcs.convert"),
        Binding("i", "import", "Import", id="npcs.import"),
        Binding("b", "attributes", "Brawl/Wit/Will", show=False, id="npcs.attributes"),
        Binding("escape", "leave", "Back to library", show=False, id="npcs.leave"),
    ]
    FOOTER: ClassVar[tuple[str, ...]] = (
        *("npcs.new", "npcs.edit", "npcs.save", "npcs.add", "npcs.roll", "npcs.filter"),
        *("app.help", "npcs.quick", "npcs.import"),
    )
    FOOTER_WORDS: ClassVar[dict[str, str]] = {
        "npcs.new": "New",
        "npcs.save": "Save",
        "npcs.add": "Add to fight",
    }

    def __init__(self) -> None:
        super().__init__()
        self.editing: int | None = None
        """The library id the builder edits; None = a new NPC."""
        self.hp_mode = "rolled"
        """The GM's last choice of rolled or fixed HP when adding to an encounter."""
        self._rows: list[tuple[int, dict[str, Any]]] = []
        self.pending_source: dict[str, Any] | None = None
        """Where the builder's numbers came from (a Without Number conversion), saved with it."""

    # --- layout ------------------------------------------------------------------------------
    def compose_body(self) -> ComposeResult:
        with Horizontal(id="npc-body"):
            with Vertical(id="npc-left"):
                yield Label("NPC library", classes="panel-title")
                yield TextField(
                    placeholder="/ filter by name or concept", id="npc-filter", max_length=MAX_TEXT
                )
                yield NpcLibrary(id="npc-library")
                yield StatblockView(id="npc-selected")
            with Vertical(id="npc-builder"):
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

    def on_mount(self) -> None:
        super().on_mount()
        self._update_builder()

    def _fit_size(self, width: int, height: int) -> None:
        super()._fit_size(width, height)
        self.call_after_refresh(self._fit_hints)
        if self.is_mounted:
            self._update_builder()

    def _fit_hints(self) -> None:
        for field_id, (whole, short) in HINTS.items():
            field = self.query_one(f"#{field_id}", Input)
            room = field.content_region.width
            field.placeholder = whole if len(whole) < room or not room else short

    # --- library -----------------------------------------------------------------------------
    def refresh_data(self) -> None:
        self._rows = self.campaign.rows("npcs")
        self._fill_table()

    def _matches(self, doc: dict[str, Any], needle: str) -> bool:
        if not needle:
            return True
        source = doc.get("source", {}) or {}
        hay = " ".join(
            [
                str(doc.get("name", "")),
                *map(str, doc.get("concepts", [])),
                str(source.get("name", "")),
            ]
        )
        return needle in hay.casefold()

    def _fill_table(self) -> None:
        # The list formats only the rows in view (widgets.npc_library): filling it with
        # 10,000 NPCs is one list, not 10,000 rows built before the first paint.
        needle = self.query_one("#npc-filter", Input).value.strip().casefold()
        rows = self._rows if not needle else [r for r in self._rows if self._matches(r[1], needle)]
        library = self.query_one(NpcLibrary)
        library.show(rows)
        # After an undo or redo, the cursor goes to the NPC it put back (a deleted one returns).
        for npc_id in self.stepped_ids("npcs")[:1]:
            library.select_id(npc_id)
        self._show_selected()

    def selected_id(self) -> int | None:
        return self.query_one(NpcLibrary).selected_id

    def _selected_doc(self) -> tuple[int, dict[str, Any]] | None:
        npc_id = self.selected_id()
        if npc_id is None:
            self.notify("No NPC selected", severity="warning")
            return None
        doc = self.campaign.doc("npcs", npc_id)
        if doc is None:
            self.notify("That NPC is no longer in the library", severity="warning")
            return None
        return npc_id, doc

    def _show_selected(self) -> None:
        view = self.query_one("#npc-selected", StatblockView)
        npc_id = self.selected_id()
        doc = self.campaign.doc("npcs", npc_id) if npc_id is not None else None
        if doc is None:
            view.show(None, notes=["No NPC selected: n builds one"])
            return
        notes = [note] if (note := source_note(doc.get("source"))) else []
        brawl, wit, will = (int(doc.get(k, 0)) for k in npc_rules.ATTRIBUTES)
        if doc.get("quick_hd") is None and (warning := beyond_table(brawl, wit, will)):
            notes.append(warning)
        block = npc_block(doc)
        notes += self._as_foe(block)
        view.show(
            block,
            str(doc.get("name", "")),
            doc.get("concepts", []),
            doc.get("powers", []),
            notes=notes,
            effort_left=doc.get("effort_left"),
        )

    @on(NpcLibrary.Highlighted)
    def _highlighted(self) -> None:
        self._show_selected()

    @on(NpcLibrary.Selected)
    def _selected(self) -> None:
        self.action_edit()

    @on(Input.Changed, "#npc-filter")
    def _filter_changed(self) -> None:
        self._fill_table()

    @on(Input.Submitted, "#npc-filter")
    def _filter_done(self) -> None:
        self.query_one(NpcLibrary).focus()

    # --- builder -----------------------------------------------------------------------------
    def _attributes(self) -> tuple[int, int, int]:
        a, b, c = (self.query_one(f"#{i}", AttributeField).value for i in ATTRIBUTE_IDS)
        return a, b, c

    def _concepts(self) -> list[str]:
        text = self.query_one("#npc-concepts", Input).value
        return [c.strip() for c in text.split(",") if c.strip()]

    def _powers(self) -> list[str]:
        return [p.strip() for p in self.query_one("#npc-powers", Input).value.split(";")]

    def _quick_hd(self) -> int | None:
        """The quick-build HD typed, None when empty; ValueError when it is not a number."""
        text = self.query_one("#npc-hd", Input).value.strip()
        return int(text) if text else None

    def builder_block(self) -> tuple[npc_rules.NPC | None, str]:
        """What the rules build from the form now, or None and the reason."""
        try:
            hd = self._quick_hd()
        except ValueError:
            return None, "Quick HD must be a whole number from 0 to 20"
        name = self.query_one("#npc-name", Input).value
        for label, field_id, limit in (
            ("Name", "npc-name", MAX_NAME),
            ("Concepts", "npc-concepts", MAX_TEXT),
            ("Powers", "npc-powers", MAX_TEXT),
        ):
            # Said before the rules build anything from a paste gone wrong.
            text = self.query_one(f"#{field_id}", Input).value.strip()
            if problem := too_long(label, text, limit):
                return None, problem
        try:
            if hd is not None:
                return npc_rules.quick_build(hd), ""
            return npc_rules.build(*self._attributes(), name=name, concepts=self._concepts()), ""
        except npc_rules.NPCError as exc:
            return None, str(exc)

    def _as_foe(self, block: npc_rules.NPC) -> list[str]:
        """The foe this statblock becomes in the open game, beside the statblock."""
        try:
            return [str(line) for line in self.game.foes.preview(block)]
        except Exception:  # noqa: BLE001 - a game's hook: its failure costs the line only
            return [f"({self.game.name} could not say what this NPC becomes)"]

    def _update_builder(self) -> None:
        block, problem = self.builder_block()
        name = self.query_one("#npc-name", Input).value
        view = self.query_one("#npc-statblock", StatblockView)
        narrow = self.has_class("-narrow")
        if block is None:
            view.show(None, notes=[problem])
        else:
            notes = [note] if (note := source_note(self.pending_source)) else []
            if isinstance(block, npc_rules.Statblock):
                notes += [w] if (w := beyond_table(block.brawl, block.wit, block.will)) else []
            # Narrow: the Concepts field just above says them; the preview keeps its rows.
            concepts = () if narrow else self._concepts()
            # Short: what the game makes of it is one line (the statblock must fit 80x24).
            foe = self._as_foe(block)
            notes += foe[:1] if self.has_class("-short") else foe
            view.show(block, name, concepts, self._powers(), notes=notes)
        quick = isinstance(block, npc_rules.QuickBuild)
        for field_id in ATTRIBUTE_IDS:
            self.query_one(f"#{field_id}", AttributeField).set_class(quick, "-disabled")
        title = "New NPC" if self.editing is None else "Editing"
        if self.editing is not None:
            doc = self.campaign.doc("npcs", self.editing) or {}
            title += f" {doc.get('name', '')}"
        # Short, and wrapped rather than cut where a long name does not fit; a narrow
        # screen's footer shows ctrl+s itself.
        self.query_one("#npc-builder-title", Static).update(
            literal(title + ("" if narrow else " (ctrl+s saves)"), style="bold")
        )

    @on(Input.Changed, "#npc-name, #npc-concepts, #npc-hd, #npc-powers")
    def _form_changed(self) -> None:
        self._update_builder()

    @on(AttributeField.Changed)
    def _attribute_changed(self) -> None:
        self._update_builder()

    @on(Input.Submitted, "#npc-name, #npc-concepts, #npc-hd, #npc-powers")
    def _next_field(self) -> None:
        self.focus_next()

    def load_builder(self, doc: dict[str, Any], npc_id: int | None) -> None:
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
        self._loaded = self._builder_form()
        self._update_builder()

    _loaded: tuple[object, ...] = ("", "", "", 0, 0, 0, "")
    """The builder's fields as last loaded (or saved): anything else is an unsaved edit."""

    def _builder_form(self) -> tuple[object, ...]:
        texts = [
            self.query_one(f"#{i}", Input).value for i in ("npc-name", "npc-concepts", "npc-hd")
        ]
        numbers = [self.query_one(f"#{i}", AttributeField).value for i in ATTRIBUTE_IDS]
        return (*texts, *numbers, self.query_one("#npc-powers", Input).value)

    def _unless_unsaved(self, then: Callable[[], None]) -> None:
        """Run ``then`` now, or after the GM agrees to drop the builder's unsaved edits."""
        if self._builder_form() == self._loaded:
            then()
            return
        name = self.query_one("#npc-name", Input).value.strip() or "the new NPC"

        def answered(drop: bool | None) -> None:
            if drop:
                then()

        self.app.push_screen(NpcConfirm(f"Drop the unsaved changes to {name}?"), answered)

    # --- actions -----------------------------------------------------------------------------
    def action_filter(self) -> None:
        self.query_one("#npc-filter", Input).focus()

    def action_leave(self) -> None:
        self.query_one(NpcLibrary).focus()

    def action_new(self) -> None:
        self._unless_unsaved(self._new)

    def _new(self) -> None:
        self.pending_source = None
        self.load_builder({}, None)
        self.query_one("#npc-name", Input).focus()

    def action_edit(self) -> None:
        picked = self._selected_doc()
        if picked is None:
            return
        npc_id, doc = picked
        self.pending_source = None
        self.load_builder(doc, npc_id)
        self.query_one("#npc-name", Input).focus()

    def action_quick(self) -> None:
        self.query_one("#npc-hd", Input).focus()

    def action_attributes(self) -> None:
        self.query_one("#npc-brawl", AttributeField).focus()

    def action_save(self) -> None:
        try:
            hd = self._quick_hd()
        except ValueError:
            self.notify("Quick HD must be a whole number from 0 to 20", severity="warning")
            return
        brawl, wit, will = self._attributes()
        try:
            doc = npc_document(
                self.query_one("#npc-name", Input).value,
                self._concepts(),
                brawl,
                wit,
                will,
                quick_hd=hd,
                powers=self._powers(),
                source=self.pending_source if hd is None else None,
                attribute_range=CONVERTED_RANGE,
            )
        except CommandError as exc:
            self.notify(str(exc), title="Not saved", severity="warning", markup=False)
            return
        if self.editing is not None:
            before = self.campaign.doc("npcs", self.editing) or {}
            doc["notes"] = before.get("notes", "")
        lines = self.tableside.apply(SaveNpc(doc, self.editing))
        if lines is None:
            return
        self.pending_source = None
        self._loaded = self._builder_form()
        if self.editing is None:
            self.editing = self.campaign.rows("npcs")[-1][0]
        self.show_result(lines[:1])
        self.refresh_data()
        self._select(self.editing)
        self._update_builder()
        self.query_one(NpcLibrary).focus()

    def _select(self, npc_id: int) -> None:
        if self.query_one(NpcLibrary).select_id(npc_id):
            self._show_selected()

    def action_duplicate(self) -> None:
        picked = self._selected_doc()
        if picked and self.tableside.apply(DuplicateNpc(picked[0])) is not None:
            self.refresh_data()
            self._select(self.campaign.rows("npcs")[-1][0])

    def action_delete(self) -> None:
        picked = self._selected_doc()
        if picked is None:
            return
        npc_id, doc = picked

        def answered(yes: bool | None) -> None:
            if not yes or not (lines := self.tableside.apply(DeleteNpc(npc_id))):
                return
            if self.editing == npc_id:
                self.editing = None
                self._update_builder()
            self.show_result([f"{lines[0]} (u undoes)"])

        name = str(doc.get("name", "")) or "this NPC"
        self.app.push_screen(NpcConfirm(f"Delete {name} from the library?"), answered)

    def action_convert(self) -> None:
        """NPC-10: numbers off a Without Number statblock fill the builder (name kept)."""
        name = self.query_one("#npc-name", Input).value.strip()

        def converted(made: npc_rules.WNConversion | None) -> None:
            if made is None:
                return
            block = made.statblock
            form = {
                "name": self.query_one("#npc-name", Input).value,
                "concepts": self._concepts(),
                "powers": [p for p in self._powers() if p],
                "brawl": block.brawl,
                "wit": block.wit,
                "will": block.will,
            }
            self.pending_source = {
                "system": "Without Number",
                "attack": made.source_attack,
                "skill": made.source_skill,
                "morale": made.source_morale,
                "hp": made.source_hp,
                "hd": made.source_hd,
            }
            self.load_builder(form, self.editing)
            self.show_result(
                [
                    f"Converted: HD {block.hd}, Save {block.save}+, HP {block.hp_text()}"
                    " recalculated; review, then ctrl+s saves"
                ]
            )
            self.query_one("#npc-name", Input).focus()

        self.app.push_screen(WithoutNumberForm(name), converted)

    def action_import(self) -> None:
        """NPC-09: preview a statblock file, then import it all as one undoable command."""

        def chosen(converted: Converted | None) -> None:
            if not converted or not (converted.conversions or converted.encounters):
                return
            before = {doc_id for doc_id, _ in self.campaign.rows("npcs")}
            lines = self.tableside.apply(
                ImportEncounters(converted.conversions, converted.encounters, converted.source_hp)
                if converted.encounters
                else ImportNpcs(converted.conversions, converted.kind)
            )
            if not lines:
                return
            self.show_result([*lines[:-1], f"{lines[-1]} (u undoes)"])
            self.refresh_data()
            new = [doc_id for doc_id, _ in self.campaign.rows("npcs") if doc_id not in before]
            if new:
                self._select(new[0])
            self.query_one(NpcLibrary).focus()

        self.app.push_screen(NpcImportScreen(), chosen)

    def action_add(self) -> None:
        picked = self._selected_doc()
        if picked is None:
            return
        npc_id, doc = picked
        found = current_encounter(self.campaign)
        fight = found[1].get("name", "the encounter") if found else "a new encounter"

        def added(answer: tuple[int, str] | None) -> None:
            if answer is None:
                return
            count, mode = answer
            self.hp_mode = mode
            lines = self.tableside.apply(AddNpcsToEncounter(npc_id, count, mode))  # type: ignore[arg-type]
            summary = [line for line in lines or [] if line.startswith("Added to ")]
            if summary:
                self.show_result(summary[:1])

        self.app.push_screen(
            AddToEncounterScreen(str(doc.get("name", "")), str(fight), self.hp_mode), added
        )

    danger_npc = 0
    """The library NPC a build to a danger is finding the number of."""

    def action_build_danger(self) -> None:
        """ctrl+b: how many of the selected NPC bring the encounter into a band."""
        from screens.npc_danger import ask_band

        picked = self._selected_doc()
        if picked is not None:
            ask_band(self, picked[0], str(picked[1].get("name", "")))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        from screens.npc_danger import proposal_done

        proposal_done(self, event.worker)

    def action_roll(self) -> None:
        picked = self._selected_doc()
        if picked is not None:
            self.app.push_screen(NpcRollScreen(picked[0]))
