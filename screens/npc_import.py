"""Modal: import an Improved Initiative or 5e monster file into the NPC library (NPC-09).

A full SRD file is a few megabytes and hundreds of monsters, so reading and converting it runs
in a thread worker; the preview lists every conversion (HD against 2 x CR, how far off, and
whether that is acceptable) and every skipped entry with its index and reason, so the GM sees
what the rules did before anything lands in the library. Enter imports them all; the panel
applies one :class:`app.commands.npcs.ImportNpcs` (an Improved Initiative encounter file:
one :class:`app.commands.encounter_import.ImportEncounters`, its fight recreated in the
tracker), so a single undo takes the import back.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Label, Static

from app.importing import Converted, convert_file
from rulesets import npc as npc_rules
from widgets.literal import clean, literal
from widgets.text_field import TextField

Preview = Converted
"""What a file converts to: its format, the conversions and the skipped (index, name, reason)."""


def read_monster_file(path: Path) -> Preview:
    """NPC-09: read and convert an Improved Initiative or 5e SRD file (blocking: call it from a
    worker). Raises ImportFileError (a ValueError, one line) when it cannot be imported."""
    return convert_file(path)


def _off(conversion: npc_rules.Conversion) -> str:
    off = conversion.hd_off
    return "0" if off == 0 else f"{'+' if off > 0 else '-'}{abs(off)}"


class NpcImportScreen(ModalScreen[Converted | None]):
    """Dismisses with the file's conversions to import, or None (escape)."""

    DEFAULT_CSS = """
    NpcImportScreen { align: center middle; }
    NpcImportScreen > Vertical { width: 90; height: 90%; border: thick $accent; background: $panel; padding: 0 1; }
    NpcImportScreen #npc-import-path { height: 1; border: none; padding: 0 1; background: $boost; }
    NpcImportScreen #npc-import-path:focus { background: $accent 30%; }
    NpcImportScreen #npc-import-status { height: auto; margin: 1 0 0 0; }
    NpcImportScreen #npc-import-preview { height: 1fr; min-height: 4; }
    NpcImportScreen #npc-import-skipped { height: auto; max-height: 8; color: $warning; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="npc_import.cancel"),
        Binding("ctrl+s", "import_all", "Import all", id="npc_import.all", priority=True),
        Binding("ctrl+o", "path", "File path", id="npc_import.path"),
    ]

    def __init__(self, path: str | None = None) -> None:
        super().__init__()
        self.start_path = "" if path is None else path
        self.preview: Preview | None = None
        """The last file read and converted; what enter imports."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                Text("Import statblocks (Improved Initiative or 5e SRD JSON)", style="bold")
            )
            yield Label("File (enter reads it, then enter imports all; escape cancels)")
            yield TextField(self.start_path, placeholder="path to a .json file", id="npc-import-path")
            yield Static("", id="npc-import-status")
            yield DataTable(id="npc-import-preview", cursor_type="row", zebra_stripes=True)
            yield Static("", id="npc-import-skipped")

    def on_mount(self) -> None:
        table = self.query_one("#npc-import-preview", DataTable)
        for label, width in (
            ("Name", 26),
            ("CR", 5),
            ("HD", 3),
            ("2×CR", 5),
            ("Off", 6),
            ("Verdict", 17),
        ):
            table.add_column(label, width=width)
        self.query_one("#npc-import-path", Input).focus()

    def _typed_path(self) -> Path:
        return Path(self.query_one("#npc-import-path", Input).value.strip()).expanduser()

    def _status(self, text: str | Text) -> None:
        self.query_one("#npc-import-status", Static).update(
            text if isinstance(text, Text) else literal(text)
        )

    @on(Input.Submitted, "#npc-import-path")
    def _read_typed(self) -> None:
        if not self.query_one("#npc-import-path", Input).value.strip():
            self._status(Text("Type the path of a statblock file", style="bold red"))
            return
        path = self._typed_path()
        self.preview = None
        self.query_one("#npc-import-preview", DataTable).clear()
        self.query_one("#npc-import-skipped", Static).update("")
        self._status(f"Reading {path} …")
        self._read(path)

    @work(thread=True, exclusive=True, group="npc-import")
    def _read(self, path: Path) -> None:
        """Read and convert off the event loop; the screen shows the result if still wanted."""
        try:
            preview = read_monster_file(path)
        except ValueError as exc:
            reason = str(exc)
            self.app.call_from_thread(self._failed, path, reason[:1].upper() + reason[1:])
            return
        self.app.call_from_thread(self._show, preview)

    def _failed(self, path: Path, reason: str) -> None:
        if path == self._typed_path():
            self._status(literal(reason, style="bold red"))

    def _show(self, preview: Preview) -> None:
        if preview.path != self._typed_path():
            return  # the GM typed another path meanwhile
        self.preview = preview
        table = self.query_one("#npc-import-preview", DataTable)
        table.clear()
        table.add_rows(
            (
                literal(c.source_name, limit=40),
                Text(c.cr_text),
                Text(str(c.statblock.hd)),
                Text(str(c.hd_target)),
                Text(_off(c)),
                Text("acceptable", style="green")
                if c.acceptable
                else Text("adjust attributes", style="yellow"),
            )
            for c in preview.conversions
        )
        skipped = Text()
        for index, name, reason in preview.skipped:
            skipped.append(f"skipped #{index} {clean(name or '(no name)', 40)}: {clean(reason)}\n")
        self.query_one("#npc-import-skipped", Static).update(skipped)
        count = len(preview.conversions)
        off = sum(1 for c in preview.conversions if not c.acceptable)
        fights = "".join(
            f"\nEncounter {clean(e.name, 40)}: {len(e.entries)} combatants join the tracker"
            for e in preview.encounters[:3]
        )
        wanted = count or preview.encounters
        status = (
            f"{preview.kind}: {count} converted ({off} off target), {len(preview.skipped)} "
            "skipped: " + ("enter imports all" if wanted else "nothing to import") + fights
        )
        self._status(Text(status, style="bold"))
        if count:
            table.focus()

    @on(DataTable.RowSelected, "#npc-import-preview")
    def _enter_on_preview(self) -> None:
        self.action_import_all()

    def action_import_all(self) -> None:
        if self.preview is None or not (self.preview.conversions or self.preview.encounters):
            self._status(Text("Read a file with monsters first (enter on the path)", "bold red"))
            return
        self.dismiss(self.preview)

    def action_path(self) -> None:
        self.query_one("#npc-import-path", Input).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)
