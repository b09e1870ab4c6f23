"""Nemron on the party sheet: limbs as bars, attributes and skills as rank dice, skills and
domains bought with XP, energy spent by its rule, short and long rests, rank up and XP awards."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from rulesets import clock
from rulesets.base import Character, RuleError
from rulesets.nemron import rules
from rulesets.sheet import MAX_REST_HOURS, Adding, Parts, Rest, RestCall, SheetRow, SheetRules
from rulesets.table import Action, Command, Context, Field, PcChange, Reader, Tx, need_pc


def _energy(tx: Tx, pc: Character, delta: int) -> list[str] | None:
    """NEM-10: spending Energy goes through its rule; regaining it is a plain +1."""
    return [rules.spend_energy(pc, -delta)] if delta < 0 else None


def _limb(tx: Tx, pc: Character, limb: str, delta: int) -> list[str]:
    """NEM-08/11: - on a limb deals it damage (and what follows), + heals it."""
    if delta < 0:
        return list(rules.apply_damage(pc, -delta, tx.rng, limb).log)
    return [rules.heal_limb(pc, limb, delta)]


def _rank(rank: int) -> str:
    return f"d{rules.rank_die(rank)}  (rank {rank}; rank up {rules.rank_up_cost(rank)} XP)"


def _rows(pc: Character) -> list[SheetRow]:
    rows = [
        SheetRow(
            f"limb:{limb}",
            rules.limb_label(limb).capitalize(),
            bar=(int(track["hp"]), int(track["max"])),
            place="resources",
        )
        for limb, track in rules.limbs_of(pc).items()
    ]
    skills = pc.get("skills", {})
    training = pc.get("training") or {}
    named = ", ".join(map(str, training)) if isinstance(training, dict) else ""
    learning = f" · training {named}" if named else ""
    rows.append(
        SheetRow(
            "list:skills", "Skills",
            ((f"{len(skills)} · learn {rules.NEW_SKILL_XP} XP{learning}", ""),),
            adds="skills",
        )
    )
    for skill, rank in skills.items():
        die, cost = rules.rank_die(int(rank)), rules.rank_up_cost(int(rank))
        skill_text: Parts = ((str(skill), ""), (f"  d{die} (rank {rank}; rank up {cost} XP)", ""))
        rows.append(SheetRow(f"skill:{skill}", "  skill", skill_text, entry=True, adds="skills"))
    domains = pc.get("domains", {})
    rows.append(
        SheetRow(
            "list:domains",
            "Domains",
            ((f"{len(domains)} · make one {rules.DOMAIN_UPGRADE_XP} XP", ""),),
            adds="domains",
        )
    )
    for domain, features in domains.items():
        value: Parts = (
            (str(domain), ""),
            (f"  features: {len(features)} ({rules.DOMAIN_FEATURE_XP} XP each) ", "dim"),
            (", ".join(str(f) for f in features), ""),
        )
        rows.append(SheetRow(f"domain:{domain}", "  domain", value, entry=True, adds="features"))
    return rows


def _now(tx: Tx) -> tuple[int, Callable[[int], str]]:
    """NEM-13's calendar: the campaign clock's time, and how it names a day (``Day 31``)."""
    now = clock.read(tx)
    return now.seconds, lambda at: now.date(tx.game.time, at)


def _refresh(pc: Character) -> None:
    """NEM-08/10: limb HP and Energy follow the attributes."""
    rules.refresh(pc)


ADDING = {
    "skills": Adding(
        f"New skill: {rules.TRAINING_DAYS} days' training, then {rules.NEW_SKILL_XP} XP",
        lambda pc, target: (Field("skill", "Skill"),),
        lambda tx, pc, v: [rules.learn_skill(pc, str(v.get("skill", "")).strip(), *_now(tx))],
    ),
    "domains": Adding(
        f"Skill to make a domain ({rules.DOMAIN_UPGRADE_XP} XP)",
        lambda pc, target: (Field("skill", "Skill"),),
        lambda tx, pc, v: [rules.upgrade_to_domain(pc, str(v.get("skill", "")).strip())],
    ),
    "features": Adding(
        f"Feature for a domain ({rules.DOMAIN_FEATURE_XP} XP)",
        lambda pc, target: (Field("domain", "Domain", target), Field("feature", "Feature")),
        lambda tx, pc, v: [
            rules.buy_domain_feature(
                pc, str(v.get("domain", "")).strip(), str(v.get("feature", "")).strip(), *_now(tx)
            )
        ],
    ),
}


def _hours_form(read: Reader) -> tuple[Field, ...]:
    return (
        Field(
            "hours",
            "Rest how many hours? (1 Energy per hour)",
            "1",
            kind="int",
            maximum=MAX_REST_HOURS,
        ),
    )


def _short_rest(tx: Tx, pc: Character, call: RestCall) -> list[str]:
    """NEM-10: a short rest of the hours asked (one by default)."""
    return rules.rest(pc, call.hours or 1, tx.rng)


def _long_rest(tx: Tx, pc: Character, call: RestCall) -> list[str]:
    """NEM-11: a rest of one healing interval."""
    return rules.rest(pc, call.hours or rules.HEALING_INTERVAL_HOURS, tx.rng)


def _problems(pc: Character) -> Iterator[tuple[str, str]]:
    """A hand-edited sheet the rules cannot read: skill ranks outside 0..4 (NEM-01's
    rank-dice stop at d12), domains that are not lists of features, limbs without whole HP."""
    skills = pc.get("skills", {})
    if not isinstance(skills, dict):
        yield "skills", "must be an object of skill: rank"
    else:
        for name, rank in skills.items():
            if isinstance(rank, bool) or not isinstance(rank, int):
                yield f"skills.{name}", f"must be a whole rank 0..{rules.MAX_RANK}, not {rank!r}"
            elif not 0 <= rank <= rules.MAX_RANK:
                yield f"skills.{name}", f"must be a rank 0..{rules.MAX_RANK}, not {rank}"
    domains = pc.get("domains", {})
    if not isinstance(domains, dict) or not all(
        isinstance(f, list) and all(isinstance(x, str) for x in f) for f in domains.values()
    ):
        yield "domains", "must be an object of skill: [feature, ...]"
    limbs = pc.get("tracks", {}).get("limbs", {})
    for limb, track in limbs.items() if isinstance(limbs, dict) else ():
        if not (
            isinstance(track, dict)
            and all(
                isinstance(track.get(k), int) and not isinstance(track.get(k), bool)
                for k in ("hp", "max")
            )
        ):
            yield f"tracks.limbs.{limb}", "needs whole-number 'hp' and 'max'"


SHEET = SheetRules(
    problems=_problems,
    adjust={"energy": _energy},
    counters=frozenset({"luck", "xp"}),
    steps={"limb": _limb},
    adding=ADDING,
    derive=_refresh,
    attribute_text=_rank,
    rows=_rows,
    rests={
        "regroup": Rest(_short_rest, form=_hours_form),
        "rest": Rest(_long_rest),
    },
)


def _rank_up(ctx: Context, values: Mapping[str, Any]) -> Command:
    """NEM-13: the highlighted attribute or skill goes up a rank for its rank in XP."""
    kind, _, node = ctx.row.partition(":")
    if kind not in ("attr", "skill"):
        raise RuleError("Highlight an attribute or a skill to rank it up")
    pc_id = need_pc(ctx, "Ranking up")
    return PcChange(pc_id, "Rank up", lambda tx, pc: [rules.rank_up(pc, node, *_now(tx))])


def _award_xp(ctx: Context, values: Mapping[str, Any]) -> Command:
    xp = int(values.get("xp") or 0)
    if xp <= 0:
        raise RuleError("award at least 1 XP")
    return PcChange(need_pc(ctx, "XP"), "Award XP", lambda tx, pc: [rules.award_xp(pc, xp)])


ACTIONS: tuple[Action, ...] = (
    Action(
        "rank_up",
        "party",
        "r",
        "Rank up",
        _rank_up,
        description="Rank up the highlighted attribute or skill (its rank in XP)",
        needs="pc",
    ),
    Action(
        "award_xp",
        "party",
        "x",
        "Award XP",
        _award_xp,
        needs="pc",
        form=lambda ctx: (Field("xp", "Award how much XP?", "1", kind="int", minimum=1),),
    ),
)
