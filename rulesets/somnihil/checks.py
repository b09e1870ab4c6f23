"""Somnihil in the tray: the d20 check with an edge (SOM-01/02/04/06)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets.checks import (
    Check,
    CheckInput,
    CheckRules,
    CheckSpec,
    CliFlag,
    Preset,
    Setup,
    require_game,
    roller,
)
from rulesets.somnihil import rules as somnihil
from rulesets.somnihil.fight import inside_anomaly
from rulesets.table import Action, Doc, Tx
from rulesets.values import frozen

EDGE_NAMES = {0: "none", 1: "advantage", -1: "disadvantage"}
DICE = {0: "d20", 1: "2d20 keep highest", -1: "2d20 keep lowest"}


@frozen
class SomnihilCheck:
    """SOM-01/02/04/06: d20 (two with an edge), the band and its setbacks; a natural 1 gives
    the rolling Cipher 1 AP back."""

    who: int | None = None
    edge: int = 0
    """+1 advantage, -1 disadvantage, 0 plain (SOM-02)."""

    @property
    def label(self) -> str:
        return {1: "Check with advantage", -1: "Check with disadvantage"}.get(self.edge, "Check")

    def run(self, tx: Tx) -> list[str]:
        require_game(tx, somnihil.RULESET.id)
        name, doc = roller(tx, self.who)
        result = somnihil.check(tx.rng, advantage=self.edge)
        lines = [tx.log_roll(name, result)]
        if doc is not None and self.who is not None:
            gained = somnihil.recover_ap_from_roll(doc, result)
            if gained:
                tx.put("party", self.who, doc)
                lines += gained
        return lines


def _spec(setup: Setup) -> CheckSpec:
    """The GM's edge and the fight's (the Anomaly) are sources of SOM-02's one edge: advantage
    and disadvantage cancel, so the GM's advantage inside the Anomaly rolls one d20."""
    called = int(setup.values["edge"])
    inside = bool(setup.values.get("anomaly"))
    edge = somnihil.edge(int(called > 0), int(called < 0) + int(inside))
    notes = ("advantage and the Anomaly's disadvantage cancel (SOM-02): one d20",) if (
        called > 0 and inside
    ) else ()
    return CheckSpec(
        summary=DICE[edge],
        odds=lambda: somnihil.odds(edge),
        command=SomnihilCheck(setup.who, edge),
        odds_title="d20",
        notes=notes,
    )


def _from_flags(given: Mapping[str, Any]) -> dict[str, Any]:
    return {"edge": somnihil.edge(int(bool(given.get("adv"))), int(bool(given.get("dis"))))}


CHECK = Check(
    id="check",
    name="d20 check",
    inputs=(
        CheckInput(
            "edge",
            "Edge",
            "cycle",
            default=0,
            press="a",
            choices=(0, 1, -1),
            show=lambda v: EDGE_NAMES[int(v)],
            keep="roll",
        ),
        # SOM-05, set from the fight (the tray's preset): a source of disadvantage of its own,
        # so the GM's edge above is never overwritten by it and cancels with it (SOM-02).
        CheckInput(
            "anomaly",
            "Inside the Anomaly",
            "cycle",
            default=False,
            choices=(False, True),
            show=lambda v: "yes (disadvantage)" if v else "no",
        ),
    ),  # fmt: skip
    spec=_spec,
    legend="20 Triumph · 11-19 Success · 6-10 Tough Choice · 2-5 Failure · 1 Catastrophe "
    "(a natural 1 restores 1 AP)",
    flags=(
        CliFlag("adv", "advantage", "switch"),
        CliFlag("dis", "disadvantage", "switch"),
    ),
    from_flags=_from_flags,
)


def preset(encounter: Doc | None, who: int | None) -> Preset | None:
    """SOM-05: a roller inside the Anomaly rolls with disadvantage (the GM: for whoever's turn
    it is, when that is not a PC), a source beside the GM's own edge (SOM-02)."""
    if not encounter:
        return None
    for c in encounter.get("combatants") or []:
        if who is not None:
            mine = c.get("side") == "pc" and str(c.get("ref")) == str(who)
        else:
            mine = c.get("id") == encounter.get("current") and c.get("side") != "pc"
        if mine and inside_anomaly(c) is not None:
            why = f"{c.get('name', '?')} is inside the Anomaly: disadvantage"
            return Preset({"anomaly": True}, why)
    return None


CHECKS = CheckRules(checks=(CHECK,), preset=preset)
ACTIONS: tuple[Action, ...] = ()
