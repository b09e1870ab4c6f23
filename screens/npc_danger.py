"""Build to a danger from the NPC panel: how many of the selected NPC bring the running
encounter into a band the GM picks (easy, hard, deadly), counted in a worker thread; the add
screen then opens with that many filled in, for enter to add them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.worker import Worker, WorkerState

from app.queries import current_encounter
from screens.combat.danger import in_thread, proposal_line, search, tables
from screens.form import Field, FormScreen
from screens.npc_add import AddToEncounterScreen

if TYPE_CHECKING:
    from screens.npcs import NpcScreen

GROUP = "npc-danger"
COUNTS = (1, 12)
"""How many of the NPC a build tries."""


def ask_band(screen: NpcScreen, npc_id: int, name: str) -> None:
    """ctrl+b on the NPC panel: the band, then the search."""
    from app.commands.npcs import AddNpcsToEncounter
    from rulesets.danger import BANDS

    found = current_encounter(screen.campaign)
    if found is None:
        screen.notify("No encounter to build to (ctrl+n in the tracker makes one)")
        return
    eid = found[0]
    fields = [Field("band", "Band (easy, hard, deadly)", "hard", "choice", choices=tuple(BANDS))]

    def chosen(values: dict[str, Any] | None) -> None:
        if values is None:
            return
        wanted = str(values["band"])
        data = tables(screen.campaign)
        game = screen.campaign.game

        def add(tx: Any, count: int) -> object:
            return AddNpcsToEncounter(npc_id, count, "fixed").run(tx)

        screen.show_result([f"Danger: finding how many {name} make it {wanted}…"])
        screen.danger_npc = npc_id
        in_thread(screen, lambda: search(data, game, eid, wanted, COUNTS, add), GROUP)

    screen.app.push_screen(FormScreen(f"Build to a danger with {name}", fields), chosen)


def proposal_done(screen: NpcScreen, worker: Worker[Any]) -> None:
    """The search finished: the add screen with the count filled in, or why none fits."""
    from app.commands.npcs import AddNpcsToEncounter
    from rulesets.danger import Proposal

    if worker.group != GROUP or worker.state != WorkerState.SUCCESS:
        return
    found = worker.result
    if isinstance(found, str):
        screen.show_result([found])
        return
    if not isinstance(found, Proposal):
        return
    npc_id = screen.danger_npc
    doc = screen.campaign.doc("npcs", npc_id) or {}
    name = str(doc.get("name", "NPC"))
    if found.value is None:
        screen.show_result([proposal_line(found, "count")])
        return
    said = f"{found.value} × {name}: {proposal_line(found, 'count')}"
    screen.show_result([said])
    enc = current_encounter(screen.campaign)
    fight = str(enc[1].get("name", "the encounter")) if enc else "a new encounter"
    count = found.value

    def added(answer: tuple[int, str] | None) -> None:
        if answer is None:
            return
        how_many, mode = answer
        screen.hp_mode = mode
        screen.tableside.apply(AddNpcsToEncounter(npc_id, how_many, mode))  # type: ignore[arg-type]

    screen.app.push_screen(
        AddToEncounterScreen(name, fight, screen.hp_mode, count=count, note=said), added
    )
