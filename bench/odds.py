"""Exact odds (GEN-02) of each game's check and a three-card draw: ms per computation, goal ≤ 50 ms.

Each case runs in a fresh interpreter so "cold" is what a GM sees the first time the tray (or
``tableside odds``) shows that check: the import of icepool is timed on its own (it is paid once
per session, whichever check comes first), then the first call, then the median of warm calls.
The cases are the rulesets' own odds functions, the ones the tray and ``tableside odds`` call:
a typical check for each game, and the largest setup each game allows; plus free dice
expressions through :mod:`rulesets.odds`, up to its limits (100 dice, 1000 sides), and two it
does not model, counted by running the roller once per possible roll (goal not expected: the
tray never shows those; ``tableside odds`` refuses past 4,096 rolls).

    python bench/odds.py [--warm 21]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL_MS = 50.0

# name → Python expression evaluated with the rulesets imported; each is one odds computation.
CASES: dict[str, str] = {
    "somnihil d20 (typical)": "somnihil.odds(0)",
    "somnihil 2d20 keep highest (advantage)": "somnihil.odds(1)",
    "resolution 2d6+1 vs DC 8 (typical)": "resolution.odds(8, 1, '2d6')",
    "resolution d20+3 vs DC 10 (5e DC 20)": "resolution.odds(10, 3, 'd20')",
    "resolution opposed 2d6 with morale floor": "resolution.opposed_odds(1, 2, '2d6', 9)",
    "resolution opposed d20 with morale floor (largest)": (
        "resolution.opposed_odds(1, 2, 'd20', 9)"
    ),
    "resolution Grip check": "resolution.grip_odds(12)",
    "nemron d6›d10›d8 vs DC 7 (typical)": "nemron.odds([6, 10, 8], 7)",
    "nemron 8×d12 + greater boon vs DC 12 (largest)": (
        "nemron.odds([12] * 8, 12, 'greater boon', specialised=True)"
    ),
    "nemron 20×d12 nodes + weapon + greater boon": (
        "nemron.odds([12] * 20, 12, 'greater boon', weapon_rank=4)"
    ),
    "aspects 2d6+2 vs 1 (typical)": "aspects.odds(2, 1)",
    "aspects 2d6+5 vs 5 (largest)": "aspects.odds(5, 5)",
    "shadows single card, Normal (typical)": "shadows.draw_odds(DECK, 4, 'Normal', 'single')",
    "shadows middle of three, full deck (largest)": (
        "shadows.draw_odds(DECK, 12, 'Absurd', 'three')"
    ),
    "shadows middle of three, 2 left + 54 discards (reshuffle)": (
        "shadows.draw_odds(DECK[:2], 12, 'Absurd', 'three', DECK[2:])"
    ),
    "shadows single card, 1 left (certain)": (
        "shadows.draw_odds(DECK[:1], 16, 'Normal', 'single', DECK[1:])"
    ),
    "expression 2d6+1 >= 8": "odds.odds('2d6+1 >= 8')",
    "expression (1d6-4)/2 (d20's division)": "odds.odds('(1d6-4)/2')",
    "expression 4d6ra1 (one added die)": "odds.odds('4d6ra1')",
    "expression 4d6kh3": "odds.odds('4d6kh3')",
    "expression (1d6,1d10,1d8)kh1 >= 7": "odds.odds('(1d6,1d10,1d8)kh1 >= 7')",
    "expression 10d6e6 (exploding)": "odds.odds('10d6e6')",
    "expression 10d20kh5": "odds.odds('10d20kh5')",
    "expression 100d1000kh1 (largest pool, one kept)": "odds.odds('100d1000kh1')",
    "expression 80d20 (a sum near the largest allowed)": "odds.odds('80d20')",
    "expression 100d6kh10 (largest keep allowed)": "odds.odds('100d6kh10')",
    "expression 100d1000 (refused: too large)": "refused('100d1000')",
    "expression 100d20 (refused: too large)": "refused('100d20')",
    "expression 4d6ph1pl1 (drop highest and lowest)": "odds.odds('4d6ph1pl1')",
    "expression 15d6ph1pl1 (largest such allowed)": "odds.odds('15d6ph1pl1')",
    # Not modelled: the roller itself runs once per possible sequence of dice (each a run).
    "expression 3d6kh2ro1 (roller run per roll: 326)": "odds.odds('3d6kh2ro1')",
    "expression 2d6e6kh1 (roller run per roll: 2,601)": "odds.odds('2d6e6kh1')",
}

CHILD = """
import json, statistics, sys, time
t0 = time.perf_counter()
import icepool
t1 = time.perf_counter()
from rulesets import odds
from rulesets.aspects import rules as aspects
from rulesets.nemron import rules as nemron
from rulesets.resolution import rules as resolution
from rulesets.shadows import rules as shadows
from rulesets.somnihil import rules as somnihil
from rulesets.shadows.tarot import full_deck
DECK = full_deck("minor")
def refused(expression):
    try:
        odds.odds(expression)
    except odds.OddsError:
        return
    raise SystemExit(f"{expression} was expected to be refused")
t2 = time.perf_counter()
case, warm = sys.argv[1], int(sys.argv[2])
start = time.perf_counter()
eval(case)
cold = time.perf_counter() - start
times = []
for _ in range(warm):
    start = time.perf_counter()
    eval(case)
    times.append(time.perf_counter() - start)
print(json.dumps({"icepool": t1 - t0, "rules": t2 - t1, "cold": cold,
                  "warm": statistics.median(times)}))
"""


def run_case(expression: str, warm: int) -> dict[str, float]:
    """Times (s) of one case measured in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, expression, str(warm)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--warm", type=int, default=21, help="warm calls per case (median)")
    args = parser.parse_args()
    print(
        f"{datetime.date.today()}  python {platform.python_version()}  "
        f"{platform.system()} {platform.machine()}  {os.cpu_count()} cores"
    )
    print(f"{'case':52} {'cold ms':>8} {'warm ms':>8}  goal ≤ {GOAL_MS:.0f} ms")
    imports: list[float] = []
    rules: list[float] = []
    over = []
    for name, expression in CASES.items():
        r = run_case(expression, args.warm)
        imports.append(r["icepool"])
        rules.append(r["rules"])
        cold, warm = r["cold"] * 1000, r["warm"] * 1000
        flag = "" if max(cold, warm) <= GOAL_MS else "  OVER"
        if flag:
            over.append(name)
        print(f"{name:52} {cold:8.2f} {warm:8.2f}{flag}")
    imports.sort()
    print(
        f"import icepool (once per session, before the first odds): "
        f"median {imports[len(imports) // 2] * 1000:.1f} ms"
    )
    rules.sort()
    print(
        f"import of the rulesets + d20's grammar (paid at start-up or by the app's warm-up): "
        f"median {rules[len(rules) // 2] * 1000:.1f} ms"
    )
    print("all within goal" if not over else f"over goal: {', '.join(over)}")


if __name__ == "__main__":
    main()
