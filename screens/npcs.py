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
from textual.widgets import Input, Label
from textual.worker import Worker

from app.commands.encounter_import import ImportEncounters
from app.commands.npcs import (
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
from rulesets.text import MAX_TEXT
from screens.npc_add import AddToEncounterScreen
from screens.npc_builder import QUICK_HD, NpcBuilder, source_note
from screens.npc_confirm import NpcConfirm
from screens.npc_convert import WithoutNumberForm
from screens.npc_import import NpcImportScreen
from screens.npc_roll import NpcRollScreen
from screens.panel import PanelScreen
from widgets.npc_attribute import AttributeField
from widgets.npc_library import NpcLibrary
from widgets.statblock import StatblockView
from widgets.text_field import TextField


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
        self.hp_mode = "rolled"
        """The GM's last choice of rolled or fixed HP when adding to an encounter."""
        self._rows: list[tuple[int, dict[str, Any]]] = []
        self.builder = NpcBuilder(id="npc-builder")
        """The statblock builder: the NPC being edited and its fields."""

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
            self.builder = NpcBuilder(id="npc-builder")
            yield self.builder

    def on_mount(self) -> None:
        super().on_mount()
        self._update_builder()

    def _fit_size(self, width: int, height: int) -> None:
        super()._fit_size(width, height)
        self.call_after_refresh(self._fit_hints)
        if self.is_mounted:
            self._update_builder()

    def _fit_hints(self) -> None:
        self.builder.fit_hints()

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
    def _as_foe(self, block: npc_rules.NPC) -> list[str]:
        """The foe this statblock becomes in the open game, beside the statblock."""
        try:
            return [str(line) for line in self.game.foes.preview(block)]
        except Exception:  # noqa: BLE001 - a game's hook: its failure costs the line only
            return [f"({self.game.name} could not say what this NPC becomes)"]

    def _update_builder(self) -> None:
        editing = self.builder.editing
        doc = (self.campaign.doc("npcs", editing) or {}) if editing is not None else {}
        self.builder.preview(
            self._as_foe,
            str(doc.get("name", "")),
            narrow=self.has_class("-narrow"),
            short=self.has_class("-short"),
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
        self.builder.load(doc, npc_id)
        self._update_builder()

    def _unless_unsaved(self, then: Callable[[], None]) -> None:
        """Run ``then`` now, or after the GM agrees to drop the builder's unsaved edits."""
        if not self.builder.unsaved:
            then()
            return
        name = self.builder.npc_name.strip() or "the new NPC"

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
        self.builder.pending_source = None
        self.load_builder({}, None)
        self.query_one("#npc-name", Input).focus()

    def action_edit(self) -> None:
        picked = self._selected_doc()
        if picked is None:
            return
        npc_id, doc = picked
        self.builder.pending_source = None
        self.load_builder(doc, npc_id)
        self.query_one("#npc-name", Input).focus()

    def action_quick(self) -> None:
        self.query_one("#npc-hd", Input).focus()

    def action_attributes(self) -> None:
        self.query_one("#npc-brawl", AttributeField).focus()

    def action_save(self) -> None:
        builder = self.builder
        try:
            hd = builder.quick_hd()
        except ValueError:
            self.notify(QUICK_HD, severity="warning")
            return
        brawl, wit, will = builder.attributes()
        try:
            doc = npc_document(
                builder.npc_name,
                builder.concepts(),
                brawl,
                wit,
                will,
                quick_hd=hd,
                powers=builder.powers(),
                source=builder.pending_source if hd is None else None,
                attribute_range=CONVERTED_RANGE,
            )
        except CommandError as exc:
            self.notify(str(exc), title="Not saved", severity="warning", markup=False)
            return
        if builder.editing is not None:
            before = self.campaign.doc("npcs", builder.editing) or {}
            doc["notes"] = before.get("notes", "")
        lines = self.tableside.apply(SaveNpc(doc, builder.editing))
        if lines is None:
            return
        builder.pending_source = None
        builder.loaded = builder.form()
        if builder.editing is None:
            builder.editing = self.campaign.rows("npcs")[-1][0]
        self.show_result(lines[:1])
        self.refresh_data()
        self._select(builder.editing)
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
            if self.builder.editing == npc_id:
                self.builder.editing = None
                self._update_builder()
            self.show_result([f"{lines[0]} (u undoes)"])

        name = str(doc.get("name", "")) or "this NPC"
        self.app.push_screen(NpcConfirm(f"Delete {name} from the library?"), answered)

    def action_convert(self) -> None:
        """NPC-10: numbers off a Without Number statblock fill the builder (name kept)."""
        name = self.builder.npc_name.strip()

        def converted(made: npc_rules.WNConversion | None) -> None:
            if made is None:
                return
            block = made.statblock
            form = {
                "name": self.builder.npc_name,
                "concepts": self.builder.concepts(),
                "powers": [p for p in self.builder.powers() if p],
                "brawl": block.brawl,
                "wit": block.wit,
                "will": block.will,
            }
            self.builder.pending_source = {
                "system": "Without Number",
                "attack": made.source_attack,
                "skill": made.source_skill,
                "morale": made.source_morale,
                "hp": made.source_hp,
                "hd": made.source_hd,
            }
            self.load_builder(form, self.builder.editing)
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
