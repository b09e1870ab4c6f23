"""``tableside attack``: the contract's form, JSON keys and exit codes, and its dry run held
against an enumeration written here by brute force over the dice's faces."""

from __future__ import annotations

import itertools
import json
import shutil
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.demo import write_demo
from app.store import CampaignStore, read_campaign

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def go(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return go


def demo(tmp_path: Path, game: str, change: Callable[[dict[str, Any]], None] | None = None) -> Path:
    """A demo save of ``game``, changed as the test needs before anything opens it."""
    path = write_demo(game, tmp_path / f"{game}.json", seed=3)
    if change is not None:
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))
    return path


def combatants(data: dict[str, Any]) -> list[dict[str, Any]]:
    encounter = next(iter(data["encounters"].values()))
    found: list[dict[str, Any]] = encounter["combatants"]
    return found


def party(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in data["party"].values() if p["name"] == name)


def near(found: dict[str, float], exact: dict[int, Fraction]) -> None:
    assert set(found) == {str(k) for k, v in exact.items() if v}
    for amount, p in exact.items():
        if p:
            assert found[str(amount)] == pytest.approx(float(p), abs=1e-12)


# --------------------------------------------------------------------------- independent odds


def wn_modifier(score: int) -> int:
    """The Without Number attribute modifier, written out: 3 -2, 4-7 -1, 8-13 0, 14-17 +1, 18 +2."""
    return -2 if score <= 3 else -1 if score <= 7 else 0 if score <= 13 else 1 if score <= 17 else 2


def test_resolution_dry_run_equals_a_brute_force_count_of_d20_vs_ac_and_its_damage(
    tmp_path: Path, run: Run
) -> None:
    def arm(data: dict[str, Any]) -> None:
        party(data, "Mara Quell")["attack"] = {"attribute": "str", "bonus": 2, "damage": "1d8"}
        goblin = next(c for c in combatants(data) if c["name"] == "Goblin 1")
        goblin["stats"]["hp"] = 6  # within the damage's reach: the drop chance is not 0

    path = demo(tmp_path, "resolution", arm)
    data = read_campaign(path)
    ac = next(iter(data["npcs"].values()))["statblock"]["ac"]
    mod = wn_modifier(party(data, "Mara Quell")["attributes"]["str"])
    hp = 6
    damage: dict[int, Fraction] = {}
    hit = drops = Fraction(0)
    for d20, d8 in itertools.product(range(1, 21), range(1, 9)):
        p = Fraction(1, 20 * 8)
        lands = d20 + mod + 2 >= ac
        dealt = max(0, d8 + mod) if lands else 0
        damage[dealt] = damage.get(dealt, Fraction(0)) + p
        hit += p if lands else 0
        drops += p if dealt >= hp else 0
    code, out, err = run("attack", str(path), "Mara", "Goblin 1", "--dry-run", "--json")
    assert (code, err) == (0, "")
    found = json.loads(out)
    assert (found["attacker"], found["target"]) == ("Mara Quell", "Goblin 1")
    assert found["hit"] == pytest.approx(float(hit), abs=1e-12)
    assert found["drops"] == pytest.approx(float(drops), abs=1e-12) and drops > 0
    near(found["damage"], damage)
    assert found["steps"][0].startswith(f"d20{mod + 2:+d} vs AC {ac}")
    assert read_campaign(path) == data  # the dry run wrote nothing


def test_nemron_dry_run_equals_a_brute_force_count_of_a_pool_against_an_active_defence(
    tmp_path: Path, run: Run
) -> None:
    def wound(data: dict[str, Any]) -> None:
        ylva = party(data, "Ylva Rask")
        ylva["tracks"] = {
            "limbs": {
                limb: {"hp": 2 if limb == "torso" else 9, "max": 9}
                for limb in ("right_arm", "left_arm", "right_leg", "left_leg", "torso", "head")
            }
        }

    path = demo(tmp_path, "nemron", wound)
    data = read_campaign(path)
    goblin = next(c for c in combatants(data) if c["name"] == "Goblin 1")["stats"]["sheet"]
    sides = {0: 4, 1: 6, 2: 8, 3: 10, 4: 12}  # NEM-01's rank dice, written out
    attack = [sides[goblin["attributes"]["power"]], sides[goblin["skills"]["combat"]]]
    minimum = max(1, goblin["skills"]["combat"]) + 1  # its weapon's rank + 1 (NEM-04)
    ylva = party(data, "Ylva Rask")
    best_skill = max(ylva["skills"].values())
    defence = [sides[ylva["attributes"]["agility"]], sides[best_skill]]
    damage: dict[int, Fraction] = {}
    drops = Fraction(0)
    faces = [range(1, s + 1) for s in (*attack, *defence)]
    total = attack[0] * attack[1] * defence[0] * defence[1]
    for a, b, x, y in itertools.product(*faces):
        p = Fraction(1, total)
        rolled = max(a, b)
        dealt = max(0, rolled - max(x, y)) if rolled >= minimum else 0
        damage[dealt] = damage.get(dealt, Fraction(0)) + p
        for location in range(1, 7):  # 5 is the torso, at 2 HP: downed at 0
            drops += p / 6 if location == 5 and dealt >= 2 else 0
    code, out, _ = run("attack", str(path), "Goblin 1", "Ylva", "--dry-run", "--json")
    assert code == 0
    found = json.loads(out)
    near(found["damage"], damage)
    assert found["hit"] == pytest.approx(float(1 - damage[0]), abs=1e-12)
    assert found["drops"] == pytest.approx(float(drops), abs=1e-12) and drops > 0
    assert "d6 › d4" in found["steps"][0]


# --------------------------------------------------------------------------- the contract


@pytest.mark.parametrize(
    ("attacker", "target", "said"),
    [("Gob", "Mara", "ambiguous: Goblin 1, Goblin 2, Goblin 3"), ("Zed", "Mara", "no combatant")],
)
def test_an_unknown_or_ambiguous_name_is_exit_2_and_one_line(
    tmp_path: Path, run: Run, attacker: str, target: str, said: str
) -> None:
    path = demo(tmp_path, "resolution")
    for dry in ((), ("--dry-run",)):
        code, out, err = run("attack", str(path), attacker, target, *dry, "--json")
        assert code == 2 and out == "" and err.count("\n") == 1 and said in err
    code, _, err = run("attack", str(path), "Mara", "Gob 1", "--encounter", "Nowhere", "--json")
    assert code == 2 and "no encounter named 'Nowhere'" in err


def test_landing_while_the_tui_holds_the_save_is_exit_3_and_changes_nothing(
    tmp_path: Path, run: Run
) -> None:
    path = demo(tmp_path, "resolution")
    before = path.read_bytes()
    store = CampaignStore.open(path)
    try:
        code, out, err = run("attack", str(path), "Goblin 1", "Mara", "--seed", "1", "--json")
        assert code == 3 and out == "" and err.count("\n") == 1
        # The dry run only reads: it still answers.
        code, out, _ = run("attack", str(path), "Goblin 1", "Mara", "--dry-run", "--json")
        assert code == 0 and json.loads(out)["target"] == "Mara Quell"
    finally:
        store.close()
    assert path.read_bytes() == before


def test_landing_prints_steps_and_pools_before_and_after_and_repeats_with_its_seed(
    tmp_path: Path, run: Run
) -> None:
    first = demo(tmp_path, "resolution")
    second = shutil.copy(first, tmp_path / "copy.json")
    argv = ("Goblin 2", "Mara", "--seed", "4", "--json")
    code, out, err = run("attack", str(first), *argv)
    assert (code, err) == (0, "")
    code, again, _ = run("attack", str(second), *argv)
    assert code == 0 and again == out
    found = json.loads(out)
    assert set(found) == {"attacker", "target", "steps", "landed"}
    assert found["steps"][0].startswith("d20+3 vs AC 10: ")
    before, after = found["landed"]["hp"]
    saved = party(read_campaign(first), "Mara Quell")["resources"]["hp"]["current"]
    assert after == saved and before == 8
    dealt = before - after
    assert ("hit" in found["steps"][0]) == (dealt > 0 and "shock" not in " ".join(found["steps"]))


def test_landing_works_before_and_after_the_fight_starts(tmp_path: Path, run: Run) -> None:
    path = demo(tmp_path, "nemron")
    code, out, _ = run("attack", str(path), "Kesh", "Goblin 3", "--seed", "2", "--json")
    assert code == 0
    landed = json.loads(out)["landed"]
    assert set(landed) == {"right_arm", "left_arm", "right_leg", "left_leg", "torso", "head"}
