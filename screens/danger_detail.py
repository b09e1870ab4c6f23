"""The danger meter's detail: the estimate whole, each PC's chance to drop, the rounds as a
small chart, how targets are chosen and what the estimate leaves out."""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from rulesets import danger
from widgets.odds_chart import chart_text

LONGEST = 10
"""Rounds shown one bar each; the longer fights share the last bar."""


def rounds_chart(found: danger.Estimate) -> dict[str, Fraction]:
    """Each round's share of the decided fights, the rounds from :data:`LONGEST` on as one."""
    total = sum(found.rounds)
    if not total:
        return {}
    bars: dict[str, Fraction] = {}
    for n, count in enumerate(found.rounds, start=1):
        name = f"round {n}" if n < LONGEST else f"round {LONGEST}+"
        bars[name] = bars.get(name, Fraction(0)) + Fraction(count, total)
    return {k: v for k, v in bars.items() if v}


def _bar(p: float, top: float, width: int = 20) -> str:
    return "█" * round(p / top * width) if top > 0 else ""


def detail_text(found: danger.Estimate) -> Text:
    """The estimate as the detail reads it: each chance with its 95% interval."""
    text = Text()
    low, high = found.win_interval
    flee_low, flee_high = found.interval(found.foes_flee)
    text.append("Party wins ", style="bold")
    text.append(f"{found.win_chance:.0%} ({low:.0%}–{high:.0%})")
    text.append(
        f" · foes flee {found.chance(found.foes_flee):.0%} ({flee_low:.0%}–{flee_high:.0%})"
    )
    text.append(f" · {danger.band(found)}\n", style="bold")
    text.append(
        f"Rounds: median {found.rounds_at(0.5)}, 90% by {found.rounds_at(0.9)} · "
        f"the party spends {found.health_spent:.1f} health a fight · {found.runs} fights "
        "· (95% intervals)\n"
    )
    text.append("\nEach PC drops\n", style="bold")
    width = max((len(name) for name in found.drops), default=0)
    top = max((found.chance(k) for k in found.drops.values()), default=0.0)
    for name, count in found.drops.items():
        p = found.chance(count)
        lo, hi = found.interval(count)
        text.append(f"{name:<{width}} ", style="bold")
        text.append(f"{p:4.0%} ({lo:.0%}–{hi:.0%}) ")
        text.append(_bar(p, top) + "\n", style="cyan")
    text.append("\nRounds\n", style="bold")
    text.append_text(chart_text(rounds_chart(found), width=20))
    choices = found.choices
    text.append("\n\nTargets: ", style="bold")
    text.append(
        f"the party, {danger.TARGET_RULES[choices.party]}; the foes, "
        f"{danger.TARGET_RULES[choices.foes]}\n"
    )
    text.append("Not modelled: ", style="bold")
    text.append("; ".join(found.not_modelled), style="dim")
    return text


class DangerDetail(ModalScreen[danger.Choices | None]):
    """The meter's estimate whole; escape or enter closes it, p and f change how the party and
    the foes pick their targets (the meter counts again with them)."""

    DEFAULT_CSS = """
    DangerDetail { align: center middle; }
    DangerDetail > VerticalScroll { width: 90%; height: auto; max-height: 90%;
                                    border: thick $primary; padding: 0 1; background: $surface; }
    DangerDetail #danger-hint { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter", "close", "Close", id="danger.close"),
        Binding("p", "party_targets", "The party's targets: next rule", id="danger.party"),
        Binding("f", "foe_targets", "The foes' targets: next rule", id="danger.foes"),
    ]

    def __init__(self, found: danger.Estimate) -> None:
        super().__init__()
        self.found = found

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(detail_text(self.found), id="danger-detail", markup=False)
            yield Label(
                "escape closes · p, f: how the party, the foes pick targets", id="danger-hint"
            )

    def action_close(self) -> None:
        self.dismiss(None)

    def action_party_targets(self) -> None:
        choices = self.found.choices
        self.dismiss(danger.Choices(danger.next_rule(choices.party), choices.foes))

    def action_foe_targets(self) -> None:
        choices = self.found.choices
        self.dismiss(danger.Choices(choices.party, danger.next_rule(choices.foes)))
