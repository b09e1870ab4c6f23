"""NEM-13 on the campaign clock: a new skill trained 2 hours a day for 30 in-game days, one rank
a month per node, one domain feature a month; a refusal names the day it becomes possible."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.commands.clock import Advance
from app.commands.party import ChangePC
from app.state import Campaign, CommandError
from rulesets.nemron import rules as nemron
from rulesets.table import Context, PcChange
from tests.apphelpers import open_demo

NADIA = 4


def nadia(campaign: Campaign) -> dict[str, object]:
    doc = campaign.doc("party", NADIA)
    assert doc is not None and doc["name"] == "Nadia Fel"
    return doc


def rank_up(campaign: Campaign, node: str) -> list[str]:
    """``r`` on the sheet with the node highlighted: the game's own action."""
    action = campaign.game.action("party", "rank_up")
    ctx = Context(campaign, campaign.game, "party", pc_id=NADIA, row=f"attr:{node}")
    return campaign.apply(action.make(ctx, {}))


def test_a_node_ranks_up_once_a_month_and_the_refusal_names_the_day(tmp_path: Path) -> None:
    """rank_up twice on Day 1 was accepted."""
    campaign = open_demo(tmp_path, "nemron")
    campaign.apply(PcChange(NADIA, "XP", lambda tx, pc: [nemron.award_xp(pc, 20)]))
    rank_up(campaign, "control")
    assert nadia(campaign)["attributes"]["control"] == 2  # type: ignore[index]
    with pytest.raises(
        CommandError, match="was ranked up on Day 1: one a month, the next from Day 31"
    ):
        rank_up(campaign, "control")
    rank_up(campaign, "power")  # another node has its own month
    campaign.apply(Advance("29d"))
    with pytest.raises(CommandError, match="from Day 31"):
        rank_up(campaign, "power")
    campaign.apply(Advance("1d"))
    rank_up(campaign, "power")
    assert nadia(campaign)["attributes"]["power"] == 3  # type: ignore[index]
    campaign.store.close()


def test_a_new_skill_is_trained_thirty_days_then_learnt_for_one_xp(tmp_path: Path) -> None:
    """A new skill was learnt at once."""
    campaign = open_demo(tmp_path, "nemron")
    xp = nadia(campaign)["resources"]["xp"]["current"]  # type: ignore[index]
    said = campaign.apply(ChangePC(NADIA, "add_item", ("skills", "Medicine"), "Nadia Fel"))
    assert "starts training Medicine: 2 h a day for 30 in-game days" in " ".join(said)
    assert "Medicine" not in nadia(campaign)["skills"]  # type: ignore[operator]
    with pytest.raises(CommandError, match="0 of 30 days .0 h. logged, learnt from Day 31"):
        campaign.apply(ChangePC(NADIA, "add_item", ("skills", "Medicine"), "Nadia Fel"))
    said = campaign.apply(Advance("10d"))
    assert "Nadia Fel: Medicine training, day 10 of 30 (20 h)" in said
    said = campaign.apply(Advance("20d"))
    assert any("learns Medicine at rank 1 after 30 days' training (60 h" in s for s in said)
    pc = nadia(campaign)
    assert pc["skills"]["Medicine"] == 1  # type: ignore[index]
    assert pc["resources"]["xp"]["current"] == xp - 1  # type: ignore[index]
    assert not pc.get("training")
    campaign.store.close()


def test_one_domain_feature_a_month() -> None:
    pc = nemron.new_character("Ada", skills={"Arcana": 3})
    nemron.award_xp(pc, 10)
    nemron.upgrade_to_domain(pc, "Arcana")
    nemron.buy_domain_feature(pc, "Arcana", "Ward", now=0)
    with pytest.raises(nemron.RuleError, match="feature was bought on Day 1: .* from Day 31"):
        nemron.buy_domain_feature(pc, "Arcana", "Blink", now=86_400)
    nemron.buy_domain_feature(pc, "Arcana", "Blink", now=30 * 86_400)
    assert pc["domains"]["Arcana"] == ["Ward", "Blink"]


def test_the_module_no_longer_leaves_the_cool_downs_to_the_gm() -> None:
    assert "no in-game calendar" not in (nemron.__doc__ or "")
    assert "Reading: the cool-downs and the training (NEM-13) run on the campaign clock" in (
        nemron.__doc__ or ""
    )
