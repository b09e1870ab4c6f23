"""Time against the texts: a round's length, rests refused in a fight, a dead character who
rests nothing back."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from app.commands import combat as cmd
from app.commands.clock import Advance
from app.commands.party import PartyAction
from app.state import Campaign, CommandError
from rulesets import clock
from rulesets.nemron import rules as nemron
from rulesets.somnihil import clock as somnihil_clock
from tests.apphelpers import open_demo


def test_somnihil_round_is_ten_seconds_as_its_movement_reads() -> None:
    """SOM-11: a turn's move is "within ten seconds of time within the scene"."""
    assert somnihil_clock.TIME_RULES.round_seconds == 10
    assert "Reading: a round lasts 10 seconds" in (somnihil_clock.__doc__ or "")


def _fight(campaign: Campaign) -> None:
    enc_id = campaign.rows("encounters")[0][0]
    campaign.apply(cmd.StartEncounter(enc_id))


@pytest.mark.parametrize(
    ("game", "rest", "words"),
    [
        ("somnihil", "regroup", "without conflict"),
        ("somnihil", "rest", "in a safe place"),
        ("nemron", "regroup", "when resting"),
        ("nemron", "rest", "when resting"),
        ("resolution", "rest", "night's sleep"),
    ],
)
def test_a_rest_is_refused_while_a_fight_runs(
    tmp_path: Path, game: str, rest: str, words: str
) -> None:
    campaign = open_demo(tmp_path, game)
    _fight(campaign)
    before_party, before_clock = campaign.rows("party"), clock.read(campaign.meta).seconds
    with pytest.raises(CommandError, match=f"No rest while the fight .* runs: .*{words}"):
        campaign.apply(PartyAction(rest, hours=1 if rest == "regroup" else 0))
    with pytest.raises(CommandError, match="No rest while the fight"):
        campaign.apply(Advance("1h", clock.REST))  # the clock's own rest: the same rule
    assert campaign.rows("party") == before_party
    assert clock.read(campaign.meta).seconds == before_clock  # the fight's clock did not jump
    campaign.store.close()


def test_a_rest_after_the_fight_is_taken(tmp_path: Path) -> None:
    campaign = open_demo(tmp_path, "somnihil")
    enc_id = campaign.rows("encounters")[0][0]
    campaign.apply(cmd.StartEncounter(enc_id))
    campaign.apply(cmd.EndEncounter(enc_id))
    assert any("Regroup" in line for line in campaign.apply(PartyAction("regroup")))
    campaign.store.close()


def test_a_dead_nemron_character_rests_nothing_back() -> None:
    """Dead, torso 0, Energy 0, then 8 hours of rest gave torso 4, Energy 6, still dead."""
    pc = nemron.new_character("Nadia", power=1, constitution=2)
    pc["status"] = "dead"
    pc["resources"]["energy"]["current"] = 0
    torso = nemron.limbs_of(pc)["torso"]
    torso["hp"] = 0
    said = nemron.rest(pc, 8, random.Random(1))
    assert said == ["Nadia is dead: no Energy or healing comes back"]
    assert pc["resources"]["energy"]["current"] == 0 and torso["hp"] == 0


def test_a_shadows_rest_says_the_text_has_no_recovery(tmp_path: Path) -> None:
    """``%`` changed nothing and said nothing."""
    campaign = open_demo(tmp_path, "shadows")
    party = campaign.rows("party")
    said = campaign.apply(Advance(step="rest"))
    assert any("the text gives no rest and no recovery" in line for line in said), said
    assert campaign.rows("party") == party
    campaign.store.close()


def test_the_shadows_rules_no_longer_say_only_pcs_are_dealt_hands() -> None:
    from rulesets.shadows import rules as shadows

    assert "Only PCs are dealt hands" not in (shadows.__doc__ or "")
    assert "PCs and foes are dealt hands" in (shadows.__doc__ or "")
