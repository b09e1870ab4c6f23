"""Nothing is far: group initiative, jumping to a combatant by name, the NPC picker
that filters the library, Resolution's opposed check and Shadows' opposed draw with exact odds,
the aspects game's invokes and rerolls, Shadows' redraw, AP and act-on-later, Somnihil's closer,
Nemron's limbs by the location die's number, quick add in a chosen-next fight and `+`'s message.

Pilot tests press the keys a GM would press, at 80x24 where the item is about space; each
failed on main (817e239).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Input, OptionList

from screens.form import FormScreen
from tests.apphelpers import combatant_named, demo_app, running_encounter, select_named

NARROW = (80, 24)


def said(app: object) -> str:
    """The line under the tracker's table (what the last change did), as one line."""
    from textual.widgets import Static

    screen = app.screen  # type: ignore[attr-defined]
    return " ".join(str(screen.query_one("#combat-last", Static).render()).split())


# --------------------------------------------------------------------------- (h) quick add, +


async def test_quick_add_in_a_chosen_next_fight_does_not_ask_for_initiative(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("q")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen)
        assert "initiative" not in [f.key for f in form.fields]
        await pilot.press(*"Thug", "enter")
        await pilot.pause()
        assert combatant_named(app, "Thug")["initiative"] is None
    app.campaign.store.close()
    # An initiative fight still asks it.
    app = demo_app(tmp_path / "s", "somnihil")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("q")
        await pilot.pause()
        assert "initiative" in [f.key for f in app.screen.fields]  # type: ignore[attr-defined]
    app.campaign.store.close()


async def test_mark_says_whether_it_moved_the_cursor(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=NARROW) as pilot:
        names = [c["name"] for c in running_encounter(app)["combatants"]]
        await select_named(pilot, names[0])
        await pilot.press("plus")
        await pilot.pause()
        line = said(app)
        assert f"{names[0]} marked" in line and f"cursor moved down to {names[1]}" in line
        assert "lands on all 1 marked" in line
        await select_named(pilot, names[-1])
        await pilot.press("plus")
        await pilot.pause()
        line = said(app)
        assert "cursor stays" in line and "all 2 marked" in line
        await pilot.press("plus")
        await pilot.pause()
        assert f"{names[-1]} unmarked" in said(app)
    app.campaign.store.close()


# --------------------------------------------------------------------------- (f) Somnihil


async def test_som11_z_moves_farther_and_shift_z_closer_without_wrapping(tmp_path: Path) -> None:
    """z wrapped through all four bands: from Too Far the next z was In Reach again."""
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=NARROW) as pilot:
        foe = next(c for c in running_encounter(app)["combatants"] if c["side"] == "npc")
        await select_named(pilot, foe["name"])

        def band() -> str:
            return str(combatant_named(app, foe["name"])["stats"].get("distance"))

        await pilot.press("z", "z", "z", "z")
        await pilot.pause()
        assert band() == "Too Far"
        await pilot.press("z")  # never back to In Reach
        await pilot.pause()
        assert band() == "Too Far"
        await pilot.press("Z")
        await pilot.pause()
        assert band() == "In Range"
        assert f"{foe['name']} is In Range" in said(app)
        await pilot.press("Z", "Z", "Z")
        await pilot.pause()
        assert band() == "In Reach"
    app.campaign.store.close()


# --------------------------------------------------------------------------- (g) Nemron


async def test_nem08_a_limb_is_named_by_the_location_dies_number(tmp_path: Path) -> None:
    """The damage form took only a limb's name: 6 (the location die's head) was refused."""
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=NARROW) as pilot:
        await select_named(pilot, "Kesh Varn")
        # The line under the table numbers the limbs as the location die does.
        line = " ".join(str(app.screen.query_one("#combat-amount").render()).split())
        assert "1 right arm 10/10" in line and "6 head 10/10" in line, line
        await pilot.press("t", "4", "tab", "6", "enter")  # the whole form: limb 6
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        ref = int(combatant_named(app, "Kesh Varn")["ref"])
        limbs = app.campaign.doc("party", ref)["tracks"]["limbs"]  # type: ignore[index]
        assert limbs["head"]["hp"] == 6 and limbs["torso"]["hp"] == 10
        await pilot.press("l", "2", "tab", "6", "enter")  # heal names it the same way
        await pilot.pause()
        limbs = app.campaign.doc("party", ref)["tracks"]["limbs"]  # type: ignore[index]
        assert limbs["head"]["hp"] == 8
    app.campaign.store.close()


# --------------------------------------------------------------------------- (e) Shadows


def ap_of(app: object, name: str) -> tuple[int, int]:
    ap = combatant_named(app, name)["ap"]  # type: ignore[arg-type]
    return int(ap["current"]), int(ap["max"])


def current_name(app: object) -> str:
    enc = running_encounter(app)  # type: ignore[arg-type]
    return str(next(c["name"] for c in enc["combatants"] if c["id"] == enc["current"]))


async def test_soh10_a_spends_the_actors_ap_and_slower_act_before_extra_actions(
    tmp_path: Path,
) -> None:
    """The Goblins (9 AP) spent three AP each before a PC (7 AP) acted; `a` spent the AP of
    the row the GM had moved to for a hit, not of whose turn it was."""
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("alt+r")
        await pilot.pause()
        first = current_name(app)
        assert first == "Goblin 1"
        # The GM hits Agnes (moves to her, t 2), then records the Goblin's 1 AP with a.
        await select_named(pilot, "Agnes Thorne")
        await pilot.press("t", "2", "enter", "a", "enter")
        await pilot.pause()
        assert ap_of(app, "Goblin 1") == (8, 9) and ap_of(app, "Agnes Thorne") == (7, 7)
        # Every Goblin's first action, then the PCs' first ones, before any Goblin's second.
        order = [current_name(app)]
        for _ in range(5):
            await pilot.press("a", "enter")
            await pilot.pause()
            order.append(current_name(app))
        assert order[:2] == ["Goblin 2", "Goblin 3"], order
        assert not any(name.startswith("Goblin") for name in order[2:]), order
        # A row the GM moved to (a counter, a defence) spends its own AP: the form says whose.
        await select_named(pilot, "Bram Okafor")
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen) and "Bram Okafor" in app.screen.title_text
        await pilot.press("enter")
        await pilot.pause()
        assert ap_of(app, "Bram Okafor") == (5, 6)
    app.campaign.store.close()


async def test_soh11_redraw_up_to_three_costs_the_first_ap_once_a_round(tmp_path: Path) -> None:
    """r redrew one card at a time, for free, as often as the GM pressed it."""
    from rulesets.shadows.tarot import find_deck

    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("alt+r", "2", "h")
        await pilot.pause()
        while app.screen.who_name != "Agnes Thorne":  # type: ignore[attr-defined]
            await pilot.press("p")
        await pilot.press("s")
        await pilot.pause()
        ref = str(combatant_named(app, "Agnes Thorne")["ref"])
        hand = find_deck(app.campaign.rows("decks"), "minor")[1].hand(ref)
        await pilot.press("r")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen) and "once a round" in form.title_text
        two = [hand[0].label, hand[1].label]
        await pilot.press(*", ".join(two), "enter")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        deck = find_deck(app.campaign.rows("decks"), "minor")[1]
        assert len(deck.hand(ref)) == len(hand)
        assert {c.label for c in deck.discard} >= set(two)
        assert ap_of(app, "Agnes Thorne") == (6, 7)  # the first AP
        await pilot.press("r", "enter")  # a second redraw this round is refused, and says why
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen)
        assert "already redrawn this round" in str(form.query_one("#form-error").render())
        await pilot.press("escape")
    app.campaign.store.close()


# --------------------------------------------------------------------------- (c) opposed


def setup_text(app: object) -> str:
    return " ".join(str(app.screen.query_one("#check-setup").render()).split())  # type: ignore[attr-defined]


async def palette_finds(pilot: object, app: object, typed: str) -> list[str]:
    """What the command palette lists for ``typed``."""
    from tests.apphelpers import screen_text

    await pilot.press("ctrl+p")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    await pilot.press(*typed)  # type: ignore[attr-defined]
    await pilot.pause(0.3)  # type: ignore[attr-defined]
    found = [line.strip(" ▁▔") for line in screen_text(app)]  # type: ignore[arg-type]
    await pilot.press("escape")  # type: ignore[attr-defined]
    return found


async def test_rr02_the_opposed_check_in_the_tray_with_exact_odds(tmp_path: Path) -> None:
    """RR-02 was nowhere in the UI: the palette found nothing for "oppos"."""
    from rulesets.resolution import rules as resolution
    from widgets.odds_chart import OddsChart

    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("2", "p")
        assert "NPC's modifier" not in setup_text(app)
        await pilot.press("k", "k", "k")  # check → Grip → Grip major → opposed
        await pilot.press("right_square_bracket", "right_curly_bracket", "right_curly_bracket")
        await pilot.press("greater_than_sign", "greater_than_sign", "greater_than_sign")
        await pilot.pause()
        text = setup_text(app)
        assert "Roll: opposed: the NPC's roll is the DC" in text, text
        assert "NPC's modifier: +2" in text and "Minimum DC: 6 (the NPC's morale)" in text
        assert "2d6+1 vs the NPC's 2d6+2, DC at least 6" in text
        assert "DC: 8" not in text  # the NPC's roll is the DC
        chart = app.screen.query_one(OddsChart)
        assert chart.bands == resolution.opposed_odds(1, 2, "2d6", 6)
        assert "vs the NPC's roll" in str(chart.border_title)
        await pilot.press("c")
        await pilot.pause()
        npc, pc = [e for e in app.campaign.log_entries() if e.get("kind") == "roll"][-2:]
        assert npc["who"] == "NPC" and npc["expression"].startswith("2d6+2 (NPC sets the DC)")
        dc = max(npc["total"], 6)
        assert pc["expression"] == f"2d6+1 vs DC {dc}"
        assert pc["detail"] == "opposed: the NPC's roll is the DC"
        assert pc["band"] == ("success" if pc["total"] >= dc else "failure")
        found = await palette_finds(pilot, app, "oppos")
        assert any("Opposed check: the NPC's roll sets the DC" in line for line in found)
    app.campaign.store.close()


async def test_soh08_the_opposed_draw_asks_the_oppositions_bonus_with_exact_odds(
    tmp_path: Path,
) -> None:
    """o ran +0 vs +0 whatever the opposition."""
    from rulesets.shadows import rules as shadows
    from rulesets.shadows.tarot import find_deck
    from widgets.odds_chart import OddsChart

    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("2")
        while app.screen.who_name != "Agnes Thorne":  # type: ignore[attr-defined]
            await pilot.press("p")
        await pilot.press("t", "t")  # single → three → opposed
        await pilot.press(*["right_square_bracket"] * 4, *["right_curly_bracket"] * 3)
        await pilot.pause()
        text = setup_text(app)
        assert "Draw: opposed draw" in text and "Opposition: +3" in text
        assert "Difficulty" not in text
        minor = find_deck(app.campaign.rows("decks"), "minor")[1]
        chart = app.screen.query_one(OddsChart)
        odds = shadows.opposed_odds(minor.draw_pile, 4, 3, minor.discard)
        assert chart.bands == {f"Agnes Thorne {k}": v for k, v in odds.items()}
        await pilot.press("c")
        await pilot.pause()
        entry = [e for e in app.campaign.log_entries() if e.get("kind") == "roll"][-1]
        assert entry["expression"] == "opposed Agnes Thorne +4 vs opposition +3"
        assert entry["who"] == "Agnes Thorne"
        # o asks the opposition's bonus (the setup's by default), its odds in the title.
        await pilot.press("o")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen) and "% to win" in form.title_text
        await pilot.press("1", "2", "enter")
        await pilot.pause()
        entry = [e for e in app.campaign.log_entries() if e.get("kind") == "roll"][-1]
        assert entry["expression"] == "opposed Agnes Thorne +4 vs opposition +12"
        assert any("Opposed draw" in line for line in await palette_finds(pilot, app, "oppos"))
    app.campaign.store.close()


# --------------------------------------------------------------------------- (d) aspects


def fate(app: object, name: str) -> int:
    pc = next(d for _, d in app.campaign.rows("party") if d["name"] == name)  # type: ignore[attr-defined]
    return int(pc["resources"]["fate_points"]["current"])


def newest_roll(app: object) -> dict[str, Any]:
    rolls: list[dict[str, Any]] = [
        e for e in app.campaign.log_entries() if e.get("kind") == "roll"  # type: ignore[attr-defined]
    ]
    return rolls[-1]


async def roller(pilot: object, app: object, name: str) -> None:
    while app.screen.who_name != name:  # type: ignore[attr-defined]
        await pilot.press("p")  # type: ignore[attr-defined]


async def test_asp03_an_invoke_against_is_paid_by_its_invoker_and_offered_on_a_gm_roll(
    tmp_path: Path,
) -> None:
    """V on Rowan's roll with Juno's aspect charged Rowan's fate point, and was not offered on
    a GM roll."""
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("alt+r", "2")  # the scene starts: one fate point each
        await roller(pilot, app, "Rowan Pike")
        await pilot.press("c")
        await pilot.pause()
        before = newest_roll(app)["total"]
        await pilot.press("V")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen) and "against Rowan Pike's roll" in form.title_text
        assert form.query_one("#field-who", Input).value == "Juno Hart"  # never the roller
        await pilot.press("tab", *"Street Surgeon", "enter")
        await pilot.pause()
        assert newest_roll(app)["total"] == before - 2
        assert (fate(app, "Juno Hart"), fate(app, "Rowan Pike")) == (0, 1)
        # The GM's roll (an NPC's): V is offered, and the invoker pays.
        await roller(pilot, app, "GM")
        await pilot.press("c")
        await pilot.pause()
        gm = newest_roll(app)["total"]
        await pilot.press("V")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        await pilot.press(*"Casimir Dunn", "tab", *"Loud and Proud", "enter")
        await pilot.pause()
        assert newest_roll(app)["total"] == gm - 2 and fate(app, "Casimir Dunn") == 0
    app.campaign.store.close()


async def test_asp03_after_a_reroll_the_player_keeps_either_and_no_form_opens_to_refuse(
    tmp_path: Path,
) -> None:
    """The reroll kept the better by itself; v then opened a form that said "already spent a
    Fate Point on this roll" before asking anything."""
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("alt+r", "2")
        await roller(pilot, app, "Rowan Pike")
        await pilot.press("c", "f")
        await pilot.pause()
        entry = newest_roll(app)
        first, second = entry["aspects_roll"]["rerolled"]
        kept = entry["dice"]
        other = first if kept == second else second
        assert f"k keeps {sum(other)} instead" in " ".join(app.screen.query_one("#event-line").render().plain.split())  # type: ignore[union-attr]
        await pilot.press("k")
        await pilot.pause()
        entry = newest_roll(app)
        assert entry["dice"] == other and entry["total"] == sum(other)
        assert f"Rowan Pike keeps {sum(other)}" in entry["detail"]
        await pilot.press("v")  # Rowan has spent his fate point on this roll: said at once
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        said = [str(n.message) for n in app.notices]
        assert any("already spent a Fate Point on this roll" in m for m in said), said
    app.campaign.store.close()


# --------------------------------------------------------------------------- (b) find, picker


def selected_name(app: object) -> str:
    cid = app.screen.table.selected_id  # type: ignore[attr-defined]
    return str(next(c["name"] for c in running_encounter(app)["combatants"] if c["id"] == cid))  # type: ignore[arg-type]


async def test_slash_jumps_to_a_combatant_by_part_of_its_name(tmp_path: Path) -> None:
    """A target was up to N−1 presses of j away."""
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("slash", *"gob")
        await pilot.pause()
        assert selected_name(app) == "Goblin 1"
        line = " ".join(str(app.screen.query_one("#combat-find").render()).split())
        assert "Find: gob" in line and "Goblin 1 (1 of 3)" in line
        await pilot.press("tab", "tab")  # the next matches
        await pilot.pause()
        assert selected_name(app) == "Goblin 3"
        await pilot.press("enter", "t", "2", "enter")  # found: the keys work on it again
        await pilot.pause()
        assert "Goblin 3" in said(app)
        await pilot.press("slash", *"ylv")  # anywhere in the name, any case
        await pilot.pause()
        assert selected_name(app) == "Ylva Rask"
        await pilot.press("escape")  # back where it was
        await pilot.pause()
        assert selected_name(app) == "Goblin 3"
    app.campaign.store.close()


async def test_b_lists_the_library_and_filters_it_as_the_gm_types(tmp_path: Path) -> None:
    """b needed the exact name: `No NPC called 'Ogr'`."""
    from screens.npc_pick import NpcPickScreen

    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("b")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, NpcPickScreen)
        assert picker.query_one("#npc-pick-list", OptionList).option_count == 4  # the whole library
        await pilot.press(*"Ogr")
        await pilot.pause()
        assert picker.query_one("#npc-pick-list", OptionList).option_count == 1
        await pilot.press("enter")  # the Ogre; then how many
        await pilot.pause()
        assert isinstance(app.screen, FormScreen) and "Ogre" in app.screen.title_text
        await pilot.press("2", "enter")
        await pilot.pause()
        names = [c["name"] for c in running_encounter(app)["combatants"]]
        assert names[-2:] == ["Ogre 1", "Ogre 2"]
        await pilot.press("b", *"cu")  # Cult Fanatic (its name) first, Hedge Witch (curse-weaver)
        await pilot.pause()
        assert app.screen.query_one("#npc-pick-list", OptionList).option_count == 2
        await pilot.press("down", "enter")
        await pilot.pause()
        assert "Hedge Witch" in app.screen.title_text
    app.campaign.store.close()


# --------------------------------------------------------------------------- (a) group initiative


async def test_gen04_group_initiative_one_roll_for_a_group_that_acts_together(
    tmp_path: Path,
) -> None:
    """The most asked-for tracker feature elsewhere: one roll for a group of the same NPC, the
    group acting together, chosen per encounter and saved."""
    from rulesets import encounter as er

    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("G", "i")
        await pilot.pause()
        enc = running_encounter(app)
        assert enc["group_initiative"] is True
        goblins = [c for c in enc["combatants"] if c["name"].startswith("Goblin")]
        assert len({c["initiative"] for c in goblins}) == 1  # one number for the group
        rolls = [e for e in app.campaign.log_entries() if e.get("kind") == "roll"]
        assert [r["who"] for r in rolls].count("Goblin (group of 3)") == 1
        assert not any(r["who"][len("Goblin ") :].isdigit() for r in rolls)
        order = [c["name"] for c in enc["combatants"]]
        first = order.index("Goblin 1")
        assert order[first : first + 3] == ["Goblin 1", "Goblin 2", "Goblin 3"]  # together
        title = str(app.screen.query_one("#encounter-title").render())
        assert "(grouped)" in title
        await pilot.press("alt+r")
        while current_name(app) != "Goblin 1":
            await pilot.press("n")
        await pilot.pause()
        title = str(app.screen.query_one("#encounter-title").render())
        assert "Goblin 1's turn (its group of 3)" in title
        from tests.apphelpers import screen_text

        marked = [line for line in screen_text(app) if line.lstrip().startswith("▶")]
        assert len(marked) == 3 and all("Goblin" in line for line in marked)
        round_before = running_encounter(app)["round"]
        await pilot.press("n")  # one n: the whole group has acted
        await pilot.pause()
        after = er.Encounter.from_dict(running_encounter(app))
        assert not current_name(app).startswith("Goblin")
        # Acted this round, or (last in the order) the round is over.
        assert after.round == round_before + 1 or all(
            after.get(c["id"]).acted for c in goblins
        )
    app.campaign.store.close()


async def test_gen04_a_new_encounter_chooses_group_initiative(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("ctrl+n", "tab", "tab", *"yes", "enter")
        await pilot.pause()
        assert running_encounter(app).get("group_initiative") is True
        await pilot.press("q", *"Wolf", "tab", "3", "enter", "i")
        await pilot.pause()
        wolves = running_encounter(app)["combatants"]
        assert len({c["initiative"] for c in wolves}) == 1 and {c["group"] for c in wolves} == {
            "name:wolf"
        }
        await pilot.press("G")  # off again: each wolf acts alone
        await pilot.pause()
        assert not running_encounter(app).get("group_initiative")
    app.campaign.store.close()


async def test_A_on_a_pc_with_no_one_acting_is_that_pcs_attack(tmp_path: Path) -> None:
    """Tried at 80x24 in the aspects demo: A on a PC before anyone acts did nothing at all; a PC
    attacks as a foe does (the exchange), at the foe the GM names or its default."""
    from tests.apphelpers import demo_app, under_table

    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+r")
        await pilot.pause()
        await pilot.press("A")
        await pilot.pause()
        line = " ".join(under_table(app).split())
        assert "Rowan Pike → Goblin 1" in line, line
        await pilot.press("escape", "j", "j", "j", "j", "c", "A", "enter")  # Goblin 1 acts
        await pilot.pause()
        assert "Goblin 1 attacks Rowan Pike" in str(app.screen.query_one("#combat-last").render())
    app.campaign.store.close()
