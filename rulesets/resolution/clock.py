"""Resolution's time: the Without Number games' nightly rest for HP and system strain (RR-05).

Reading: a night's rest takes eight hours and restores HP equal to the character's level and
sheds one point of system strain, as in the Without Number games the text builds on; the sheet
keeps no level (HP is hand-set, as the rules module records), so a character without a
``level`` on its sheet heals 1 HP a night.
Reading: every whole eight hours of one rest is a night (a rest of 16 hours is two nights); a
rest under eight hours heals nothing, and neither does time passing without rest.
Reading: a dead character does not heal, and a lost one (0 Grip) rests like anyone: Grip comes
back only by the Delirium rule.
Reading: a night's rest is refused while a fight runs: the rest the text builds on is a night's
sleep, and no one sleeps through a fight.
"""

from __future__ import annotations

from rulesets.base import Character
from rulesets.clock import TimeRules
from rulesets.resolution import rules

NIGHT_HOURS = 8


def night_rest(pc: Character, nights: int = 1) -> list[str]:
    """RR-05: ``nights`` nights of rest: +level HP and -1 system strain each (never past the
    bounds). Mutates the character."""
    if pc.get("status") == rules.DEAD or nights < 1:
        return []
    level = pc.get("level", 1)
    per_night = level if isinstance(level, int) and not isinstance(level, bool) else 1
    lines = rules.heal(pc, max(0, per_night) * nights)
    if "system_strain" in pc.get("resources", {}):
        lines += rules.recover_system_strain(pc, nights)
    return [f"{pc['name']}: {nights} night{'s' if nights != 1 else ''} of rest", *lines]


TIME_RULES = TimeRules(
    rest_hours={"rest": NIGHT_HOURS},
    rest_names={"rest": "A night's rest"},
    rest_needs_peace="a night's rest is a night's sleep, and no one sleeps through a fight",
)
