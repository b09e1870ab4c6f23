"""NPC-02/03: both statblock tables of the rules text, parsed from the text, cell for cell."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets import npc

RULES = Path(__file__).resolve().parents[1] / "fixtures" / "resolution-rules.txt"
"""A copy of shared/rules/001_da82afe167610624.txt (see tests/fixtures/README.md)."""


def _tables(text: str) -> list[list[list[str]]]:
    """Every markdown table of the text as rows of stripped cells (separator rows dropped)."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.lstrip().startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= {"-", ":"} and c for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


def _table(header_first_cell: str) -> list[dict[str, str]]:
    for table in _tables(RULES.read_text(encoding="utf-8")):
        header = table[0]
        if header[0] == header_first_cell:
            rows = [r for r in table[1:] if not r[0].startswith("*")]
            return [dict(zip(header, row, strict=True)) for row in rows]
    raise AssertionError(f"no table starting with {header_first_cell!r} in {RULES}")


ATTRIBUTE_ROWS = _table("Stat")
QUICK_ROWS = _table("HD")


def test_npc02_tables_parsed_from_the_text() -> None:
    assert [int(r["Stat"]) for r in ATTRIBUTE_ROWS] == list(range(-3, 9))
    assert [int(r["HD"]) for r in QUICK_ROWS] == list(range(21))
    assert set(ATTRIBUTE_ROWS[0]) == {
        "Stat", "AC", "Hit die", "Move", "Effort", "Atk mod", "# Atks", "Atk Dmg", "Shock",
    }  # fmt: skip


@pytest.mark.parametrize("row", ATTRIBUTE_ROWS, ids=lambda r: r["Stat"])
def test_npc02_attribute_table_cell_for_cell(row: dict[str, str]) -> None:
    value = int(row["Stat"])
    block = npc.build(value, value, value).to_json()
    assert block["ac"] == int(row["AC"])
    assert block["hit_die"] == row["Hit die"]
    assert block["move"] == int(row["Move"])
    assert block["effort"] == row["Effort"]
    assert block["atk_mod"] == {"brawl": int(row["Atk mod"])} | {
        "wit": int(row["Atk mod"]),
        "will": int(row["Atk mod"]),
    }
    assert block["attacks"] == int(row["# Atks"])
    assert block["atk_dmg"] == {"brawl": row["Atk Dmg"], "will": row["Atk Dmg"]}
    assert block["shock"] == row["Shock"]


@pytest.mark.parametrize("row", ATTRIBUTE_ROWS, ids=lambda r: r["Stat"])
def test_npc02_attribute_table_columns_follow_their_attribute(row: dict[str, str]) -> None:
    """Each column depends on the attribute its header names, and only on it."""
    value, low = int(row["Stat"]), -3
    # AC is "!Will": the better of Brawl and Wit.
    assert npc.build(value, low, 8).ac == int(row["AC"])
    assert npc.build(low, value, 8).ac == int(row["AC"])
    by_brawl = npc.build(value, low, low)
    assert f"d{by_brawl.hit_die}" == row["Hit die"]
    assert by_brawl.shock == row["Shock"]
    assert by_brawl.atk_dmg["brawl"] == row["Atk Dmg"]
    by_wit = npc.build(low, value, low)
    assert by_wit.move == int(row["Move"])
    assert by_wit.attacks == int(row["# Atks"])
    by_will = npc.build(low, low, value)
    assert by_will.effort == row["Effort"]
    assert by_will.atk_dmg["will"] == row["Atk Dmg"]
    assert npc.attack_modifier(value) == int(row["Atk mod"])


@pytest.mark.parametrize("row", QUICK_ROWS, ids=lambda r: r["HD"])
def test_npc03_quick_build_table_cell_for_cell(row: dict[str, str]) -> None:
    build = npc.quick_build(int(row["HD"])).to_json()
    assert build["hd"] == int(row["HD"])
    assert build["hp"] == int(row["HP"])
    assert build["ac"] == int(row["AC"])
    assert build["stats"] == int(row["E (stats)"])
    assert build["save"] == int(row["Save"])
    assert build["effort"] == row["Effort"]
    assert build["atk_mod"] == int(row["Atk mod"])
    assert build["attacks"] == int(row["# Atks"])
    assert build["atk_dmg"] == int(row["Atk Dmg"])
    assert build["shock"] == row["Shock"]


def test_npc04_hp_text_example_25_5d8() -> None:
    build = npc.quick_build(5)
    assert (build.hp, build.hp_roll) == (25, "5d8")
    block = npc.build(2, 2, 2)
    assert block.hd == 5
    assert block.hp_text() == "25 (5d8)"


@given(
    st.integers(min_value=-3, max_value=8),
    st.integers(min_value=-3, max_value=8),
    st.integers(min_value=-3, max_value=8),
)
def test_npc01_npc02_statblock_complete_and_consistent(brawl: int, wit: int, will: int) -> None:
    block = npc.build(brawl, wit, will)
    data = block.to_json()
    assert block.hd == max(0, brawl + wit + will - 1)
    assert data["hd"] >= 0
    assert data["hp"] >= 1
    assert data["attacks"] >= 1
    assert data["ac"] == 11 + max(brawl, wit)
    assert data["hit_die"] in {"d4", "d6", "d8", "d10", "d12", "d20"}
    assert data["hp_roll"] == (f"{block.hd}d{block.hit_die}" if block.hd else "1")
    assert data["powers"] == block.hd // 2
    assert data["save"] == 16 - round(block.hd / 5)
    assert data["effort"] in {"0", "1", "1d4", "1d6", "1d8", "1d10", "1d12", "1d20"}
    assert data["shock"] == "-" or "/" in data["shock"]
    assert set(data["atk_mod"]) == {"brawl", "wit", "will"}
    assert data["morale"] == 7 + will
