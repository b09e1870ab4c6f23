"""What the players may see of a game at the table: the players' view part of a game's declaration.

The players' view (``tableside serve``) shows foes' health as a label rather than numbers, as
Improved Initiative's "Colored Label" does, PCs' health in numbers, and a few things each game
adds. Everything that differs per game is asked of the open game's :class:`PlayerViewRules`;
the defaults suit a new game whose first sheet resource is its health.

A foe's health falls in one of four :data:`BANDS`; a game names them in its own words
(``labels``) and decides where a sheet falls (``band``). A foe in the last band is out of the
fight and is left out of the view, like a hidden one. A PC never is: its player sees it
whatever its state, in words (:meth:`PlayerViewRules.pc_state`: "incapacitated", "dead").

What a player sees of their own PC once their code opened it (``own``: its pools by default;
the aspects game: fate points, aspects, consequences) and of the scene (``scene``: the aspects
game's scene aspects) is each game's declaration; the page shows it to that player only.

Reading: the bands split a health pool at full, above half, above 0 and at 0, as Improved
Initiative's labels do (healthy, hurt, bloodied at half or less, down).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import Any, Literal

from rulesets.base import Character, SheetSpec
from rulesets.values import frozen

Band = Literal["healthy", "hurt", "bloodied", "down"]
BANDS: tuple[Band, ...] = ("healthy", "hurt", "bloodied", "down")

Rows = Sequence[tuple[int, dict[str, Any]]]
"""The documents of one table as ``(doc_id, document)`` pairs."""


@frozen
class Hand:
    """Cards one player holds privately: a title and one line per card."""

    title: str
    cards: tuple[str, ...]
    problem: str = ""
    """What of the hand could not be read (a hand-edited save), in words for the player."""


def band_of(current: int, maximum: int) -> Band:
    """A pool's band: full is healthy, above half hurt, above 0 bloodied, 0 down."""
    if current <= 0:
        return "down"
    if maximum <= 0 or current >= maximum:
        return "healthy"
    return "hurt" if current * 2 > maximum else "bloodied"


def pool(character: Character, key: str) -> tuple[int, int] | None:
    """A resource's ``(current, max)``, or None where the sheet lacks it."""
    res = character.get("resources", {}).get(key)
    if not isinstance(res, dict):
        return None
    try:
        return int(res.get("current", 0)), int(res.get("max", 0))
    except (TypeError, ValueError):
        return None


def first_pool_band(sheet: SheetSpec, character: Character) -> Band:
    """The default: the band of the sheet's first resource (healthy where there is none)."""
    if not sheet.resources:
        return "healthy"
    found = pool(character, sheet.resources[0].key)
    return "healthy" if found is None else band_of(*found)


def no_extras(character: Character) -> tuple[str, ...]:
    return ()


def no_hands(decks: Rows, holder: str, character: Character) -> tuple[Hand, ...]:
    return ()


def own_pools(
    sheet: SheetSpec, character: Character, keys: tuple[str, ...] = ()
) -> tuple[Hand, ...]:
    """The default of what a player sees of their own PC: the pools of its sheet in numbers
    (those of ``keys`` only, where given)."""
    lines = []
    for spec in sheet.resources:
        if keys and spec.key not in keys:
            continue
        found = pool(character, spec.key)
        if found is not None:
            lines.append(f"{spec.label} {found[0]}/{found[1]}")
    return (Hand("Pools", tuple(lines)),) if lines else ()


def no_scene(encounter: Mapping[str, Any]) -> tuple[Hand, ...]:
    return ()


@frozen
class PlayerViewRules:
    """The players' view's questions to a game."""

    labels: Mapping[Band, str] = field(default_factory=lambda: {b: b for b in BANDS})
    """Each band in the game's own words (``"down"`` → ``"taken out"``)."""
    band: Callable[[SheetSpec, Character], Band] = first_pool_band
    """Where a foe's character-like sheet falls; plain HD foes use :func:`band_of` on HP."""
    pc_pools: tuple[str, ...] = ()
    """The PC resources that are health, shown in numbers; empty: the sheet's first one."""
    pc_numbers: Callable[[Character], str] | None = None
    """A PC's health in numbers where it is not a resource (Nemron's limbs); replaces pools."""
    pc_extras: Callable[[Character], tuple[str, ...]] = no_extras
    """More lines the players see of a PC (Nemron's limbs, the aspects game's consequences)."""
    ap_per_combatant: bool = False
    """AP left is shown beside every combatant (a game of AP rounds)."""
    hands: Callable[[Rows, str, Character], tuple[Hand, ...]] = no_hands
    """A PC's private cards, from the ``decks`` rows, the PC's id as text and its sheet."""
    own: Callable[[SheetSpec, Character], tuple[Hand, ...]] = own_pools
    """What a player sees of their own PC once their code opened it, besides its cards (and
    its conditions in the fight, which the shell adds)."""
    scene: Callable[[Mapping[str, Any]], tuple[Hand, ...]] = no_scene
    """What a player who opened their PC sees of the scene, from the running encounter's
    document (the aspects game's scene aspects)."""
    state: Callable[[SheetSpec, Character], str] | None = None
    """A PC's state in words where the game has more to say than its status; None: see
    :meth:`pc_state`."""

    def label(self, band: Band) -> str:
        return self.labels.get(band, band)

    def pc_state(self, sheet: SheetSpec, character: Character) -> str:
        """A PC's state in words when it is out of the fight or worse ("incapacitated",
        "dead"), empty while it fights on: the game's own :attr:`state`; else its status when
        not the usual one; else the game's word for "down" when its sheet falls there."""
        if self.state is not None:
            return self.state(sheet, character)
        status = character.get("status")
        if isinstance(status, str) and status and status != sheet.usual_status:
            return status
        return self.label("down") if self.band(sheet, character) == "down" else ""

    def pc_health(self, sheet: SheetSpec, character: Character) -> str:
        """A PC's health pools in numbers: ``"Vitality 7/10"``, several joined by ``·``."""
        if self.pc_numbers is not None:
            return self.pc_numbers(character)
        keys = self.pc_pools or tuple(spec.key for spec in sheet.resources[:1])
        names = {spec.key: spec.label for spec in sheet.resources}
        parts = []
        for key in keys:
            found = pool(character, key)
            if found is not None:
                parts.append(f"{names.get(key, key)} {found[0]}/{found[1]}")
        return " · ".join(parts)
