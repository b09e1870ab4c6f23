"""What the players see of a campaign, as plain data: the settings, the codes, the view.

The players' view (``tableside serve``) renders a :class:`PlayerView` built here from a save as
read from disk; nothing here writes. What differs per game is asked of the open game's
:class:`rulesets.players.PlayerViewRules`; what the GM chose is :class:`PlayerSettings`, kept in
the campaign's ``meta`` document as ``player_view`` (optional: absent means the defaults, so no
schema version bump was needed). The code a player types to see their own hand is derived from
``meta.player_secret`` and the PC's id (:func:`pc_code`), so it is the same after a restart.
"""

from __future__ import annotations

import hashlib
import hmac
import inspect
from collections.abc import Mapping
from typing import Any

from app.player_settings import FOE_HEALTH, SECRET_KEY, SETTINGS_KEY
from rulesets import encounter as er
from rulesets.decks import deck_hands
from rulesets.game import Game
from rulesets.players import Band, Hand, band_of, no_hands
from rulesets.table import Field
from rulesets.turn_orders import turn_order
from rulesets.values import frozen

Data = Mapping[str, Mapping[str, dict[str, Any]]]
"""A campaign as read: ``{table: {doc_id: document}}``."""


CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""No 0/O, 1/I/L: a code read off a screen and typed on a phone must not be ambiguous."""
CODE_LENGTH = 5


@frozen
class PlayerSettings:
    """What the GM lets the players see."""

    foe_health: str = "label"
    """``label`` (healthy, hurt … in the game's words), ``hidden`` or ``numbers``."""
    show_round: bool = True
    show_ap: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "foe_health": self.foe_health,
            "show_round": self.show_round,
            "show_ap": self.show_ap,
        }

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any]) -> PlayerSettings:
        raw = meta.get(SETTINGS_KEY)
        if not isinstance(raw, dict):
            return cls()
        default = cls()
        return cls(
            foe_health=str(raw.get("foe_health", default.foe_health)),
            show_round=bool(raw.get("show_round", default.show_round)),
            show_ap=bool(raw.get("show_ap", default.show_ap)),
        )


# --- codes -----------------------------------------------------------------------------------
def pc_code(secret: str, pc_id: int) -> str:
    """The short code for one PC: an HMAC of its id under the campaign's secret."""
    digest = hmac.new(secret.encode(), f"pc:{pc_id}".encode(), hashlib.sha256).digest()
    number = int.from_bytes(digest[:8], "big")
    chars = []
    for _ in range(CODE_LENGTH):
        number, index = divmod(number, len(CODE_ALPHABET))
        chars.append(CODE_ALPHABET[index])
    return "".join(chars)


def code_matches(secret: str, pc_id: int, typed: str) -> bool:
    wanted = pc_code(secret, pc_id)
    given = typed.strip().upper().replace(" ", "").replace("-", "")
    return hmac.compare_digest(wanted.encode(), given.encode())


class Lockout:
    """Three wrong codes in a row, then a growing wait before the next try (per session)."""

    FREE_TRIES = 3
    FIRST_WAIT = 5.0
    LONGEST_WAIT = 300.0

    def __init__(self) -> None:
        self.wrong = 0
        self.until = 0.0

    def wait_left(self, now: float) -> float:
        return max(0.0, self.until - now)

    def record(self, right: bool, now: float) -> None:
        if right:
            self.wrong, self.until = 0, 0.0
            return
        self.wrong += 1
        if self.wrong >= self.FREE_TRIES:
            doublings = self.wrong - self.FREE_TRIES
            self.until = now + min(self.LONGEST_WAIT, self.FIRST_WAIT * 2**doublings)


# --- the view --------------------------------------------------------------------------------
@frozen
class Row:
    """One visible combatant as the players see it."""

    name: str
    side: str
    current: bool
    order: str
    """Initiative, AP left (``"3/5 AP"``) or ``"acted"``; empty where the GM hides it."""
    health: str
    conditions: str
    extras: tuple[str, ...] = ()
    state: str = ""
    """A PC out of the fight or worse, in the game's words ("incapacitated", "dead")."""


@frozen
class PlayerView:
    campaign: str
    game: str
    fight: str
    """The encounter's name, or a line saying there is none."""
    round: str
    turn: str
    rows: tuple[Row, ...]
    order_title: str
    time: str = ""
    """The time of day and the light left (:func:`clock_for_players`); empty unless the GM
    lets the players see it."""


def meta_of(data: Data) -> dict[str, Any]:
    return next(iter(data["meta"].values()), {})


def _encounter(data: Data) -> dict[str, Any] | None:
    encounters = data.get("encounters", {})
    wanted = meta_of(data).get("current_encounter")
    if wanted is not None and str(wanted) in encounters:
        return encounters[str(wanted)]
    return next(iter(encounters.values()), None)


def _sheet_of(data: Data, c: er.Combatant) -> dict[str, Any] | None:
    if c.side == "pc" and c.ref is not None and str(c.ref).isdigit():
        found = data.get("party", {}).get(str(c.ref))
        if found is not None:
            return found
    sheet = c.stats.get("sheet")
    return sheet if isinstance(sheet, dict) else None


def _foe_band(game: Game, c: er.Combatant, sheet: dict[str, Any] | None) -> Band:
    rules = game.players
    try:
        if sheet is not None:
            return rules.band(game.ruleset.sheet, sheet)
        hp = int(c.stats.get("hp", 0))
        return band_of(hp, int(c.stats.get("hp_max", hp)))
    except (KeyError, TypeError, ValueError, AttributeError):
        return "healthy"  # a hand-edited sheet the game cannot read: say nothing alarming


def _foe_numbers(game: Game, c: er.Combatant, sheet: dict[str, Any] | None) -> str:
    if sheet is not None:
        return game.ruleset.health(sheet)
    hp = c.stats.get("hp", 0)
    return f"{hp}/{c.stats.get('hp_max', hp)} HP"


def _order(enc: er.Encounter, c: er.Combatant, game: Game, settings: PlayerSettings) -> str:
    order = turn_order(enc.model, game)
    if order.uses_ap or (game.players.ap_per_combatant and c.ap_max):
        return f"{c.ap}/{c.ap_max} AP" if settings.show_ap else ""
    if order.uses_initiative:
        return "" if c.initiative is None else str(c.initiative)
    if order.heading:  # a game's own order: its own column, as the GM sees it
        return order.cell(enc, c)
    return "acted" if c.acted else ""


def clock_for_players(data: Data, game: Game) -> str:
    """The campaign clock as the players may see it, ``Day 2, evening · Torch 40 min left``:
    the time of day and the light left, never the hour, the other effects or what an
    encounter check brought up. Empty unless the GM allows it (ctrl+t, settings)."""
    from rulesets import clock

    now = clock.read(meta_of(data))
    return clock.players_line(now, game.time) if now.players else ""


def build_view(data: Data, game: Game, settings: PlayerSettings) -> PlayerView:
    """The players' view of a campaign: the current encounter without what the GM hides."""
    meta = meta_of(data)
    campaign = str(meta.get("name", ""))
    raw = _encounter(data)
    time = clock_for_players(data, game)
    if raw is None:
        return PlayerView(campaign, game.name, "No fight yet", "", "", (), "Order", time=time)
    enc = er.Encounter.from_dict(raw)
    defeated = {
        str(c.get("id", ""))
        for c in raw.get("combatants", [])
        if isinstance(c, dict) and (c.get("defeated") is True)
    }
    rows = []
    for c in enc.combatants:
        sheet = _sheet_of(data, c)
        out = c.id in defeated or c.stats.get("defeated") is True
        # A PC stays, whatever its state: its player must never lose it from the phone.
        if c.hidden or (out and c.side != "pc"):
            continue
        extras: tuple[str, ...] = ()
        state = ""
        if c.side == "pc":
            health = game.players.pc_health(game.ruleset.sheet, sheet) if sheet else ""
            extras = game.players.pc_extras(sheet) if sheet else ()
            state = _pc_state(game, sheet, out)
        else:
            band = _foe_band(game, c, sheet)
            if band == "down":
                continue  # out of the fight: as good as gone for the players
            if settings.foe_health == "numbers":
                health = _foe_numbers(game, c, sheet)
            elif settings.foe_health == "label":
                health = game.players.label(band)
            else:
                health = ""
        rows.append(
            Row(
                name=c.name,
                side=c.side,
                current=c.id == enc.current,
                order=_order(enc, c, game, settings),
                health=health,
                conditions=", ".join(e.label() for e in c.conditions),
                extras=extras,
                state=state,
            )
        )
    current = er.current_combatant(enc)
    if not enc.started:
        turn = "not started"
    elif current is None or not any(r.current for r in rows):
        turn = "—"
    else:
        turn = f"{current.name}'s turn"
    show_round = settings.show_round and enc.started
    order = turn_order(enc.model, game)
    title = (
        "AP left" if order.uses_ap else "Init" if order.uses_initiative else order.heading or "Acted"
    )
    return PlayerView(
        campaign=campaign,
        game=game.name,
        fight=enc.name,
        round=f"Round {enc.round}" if show_round else "",
        turn=turn,
        rows=tuple(rows),
        order_title=title,
        time=time,
    )


def _pc_state(game: Game, sheet: dict[str, Any] | None, defeated: bool) -> str:
    try:
        said = game.players.pc_state(game.ruleset.sheet, sheet) if sheet else ""
    except Exception:  # a hand-edited sheet or a failing hook: the PC shows all the same
        said = ""
    return said or (game.players.label("down") if defeated else "")


@frozen
class OwnView:
    """What the player whose code opened a PC sees of it and of the scene."""

    state: str
    """The PC's state in words ("" while it fights on)."""
    own: tuple[Hand, ...]
    """The game's declaration (:attr:`rulesets.players.PlayerViewRules.own`), then the PC's
    conditions in the fight."""
    scene: tuple[Hand, ...]


def own_view(data: Data, game: Game, pc_id: int) -> OwnView:
    """One PC as its own player sees it, whatever its state (hidden, down, dead)."""
    pc = data.get("party", {}).get(str(pc_id))
    if pc is None:
        return OwnView("", (), ())
    own = list(game.players.own(game.ruleset.sheet, pc))
    raw = _encounter(data)
    defeated = False
    scene: tuple[Hand, ...] = ()
    if raw is not None:
        enc = er.Encounter.from_dict(raw)
        mine = next(
            (c for c in enc.combatants if c.side == "pc" and str(c.ref) == str(pc_id)), None
        )
        if mine is not None:
            defeated = mine.defeated or mine.stats.get("defeated") is True
            own.append(Hand("Conditions", tuple(e.label() for e in mine.conditions)))
        scene = tuple(game.players.scene(raw))
    return OwnView(_pc_state(game, pc, defeated), tuple(own), scene)


def headline(view: PlayerView) -> str:
    """The round and whose turn in words, as the GM's title says them: ``Round 1 · Goblin 1's
    turn``; a fight not started or none at all says that instead. A hidden foe's turn (``—``)
    leaves the round alone, so the line never hints at who is hidden."""
    if not view.turn:
        return view.fight
    if view.turn == "not started":
        return f"{view.fight} · not started"
    parts = [view.round, view.turn if view.turn != "—" else ""]
    return " · ".join(p for p in parts if p) or view.fight


def party(data: Data) -> list[tuple[int, str]]:
    """Every PC as ``(doc_id, name)``, in the order the GM made them."""
    return sorted(
        (int(doc_id), str(doc.get("name", "?"))) for doc_id, doc in data.get("party", {}).items()
    )


def hands_of(data: Data, game: Game, pc_id: int) -> tuple[Hand, ...]:
    """The private cards of one PC (none where the game has no hands or the PC is gone)."""
    pc = data.get("party", {}).get(str(pc_id))
    if pc is None:
        return ()
    decks = [(int(k), v) for k, v in data.get("decks", {}).items()]
    if _own_hands(game):
        return game.players.hands(decks, str(pc_id), pc)
    return deck_hands(decks, game.decks, str(pc_id))


def _own_hands(game: Game) -> bool:
    # The open game is handed out guarded (rulesets.guard): its hooks are wrappers of them.
    return inspect.unwrap(game.players.hands) is not no_hands


def has_hands(game: Game) -> bool:
    """Whether the game's PCs hold private cards: its own hands, or a hand of a deck it
    declares (the tray shows it; the players' page then shows each PC its own). Every game
    has a private view of a PC all the same (:func:`own_view`)."""
    return _own_hands(game) or any(spec.hand for spec in game.decks)


def code_for(meta: Mapping[str, Any], pc_id: int) -> str | None:
    """The PC's code, or None before the GM first saved the players' view settings."""
    secret = meta.get(SECRET_KEY)
    return pc_code(secret, pc_id) if isinstance(secret, str) and secret else None


# --- the GM's settings form ------------------------------------------------------------------
YES_NO = ("yes", "no")


def settings_fields(current: PlayerSettings) -> list[Field]:
    """The form the GM fills in (rendered by the app's one form screen)."""
    return [
        Field("foe_health", "Foe health", current.foe_health, "choice", choices=FOE_HEALTH),
        Field("show_round", "Show the round", YES_NO[not current.show_round], "choice", YES_NO),
        Field("show_ap", "Show AP left", YES_NO[not current.show_ap], "choice", YES_NO),
    ]


def settings_from_form(values: Mapping[str, Any]) -> PlayerSettings:
    return PlayerSettings(
        foe_health=str(values["foe_health"]),
        show_round=values["show_round"] == "yes",
        show_ap=values["show_ap"] == "yes",
    )
