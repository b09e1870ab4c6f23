"""A game's hooks, guarded: a game that fails costs one message, never the session.

:mod:`rulesets.registry` hands the shell a guarded copy of every game's declaration. Each
callable the game declares (``ruleset.health_summary``, ``fight.foe.health``,
``checks.checks[duel].spec`` …), and each one in a declaration a hook returns (the
``odds`` of the :class:`~rulesets.checks.CheckSpec` a check's ``spec`` makes), is wrapped: an
exception that is not a refusal comes out as a :class:`GameHookError` naming the game and the
hook. A :class:`GameHookError` is a :class:`~rulesets.base.RuleError`, so wherever the shell
already turns a refusal into a message (``Campaign.apply`` rolls the change back and says why;
a panel shows the text, or ``?`` for a reading it cannot make) a broken hook is one message too.

A refusal passes through as it is: a :class:`ValueError` (``RuleError`` is one) is how a rule
says no, or how a typed input is refused ("a whole number, not 'x'"). Anything else (a
``ZeroDivisionError``, a ``KeyError`` on a sheet, a ``TypeError``) is the game's fault.

A command a game makes runs its own code inside ``Campaign.apply``; :func:`culprit` reads a
traceback for the game's outermost frame there, so that failure is named the same way.

What a hook returns is checked here too, where the shell receives it (:data:`CONTRACTS`, by the
hook's place in the declaration): a ``hurt`` that returns ``None``, ``tags`` that are ``42``,
odds that are not chances summing to 1 are the game's fault like a raise, a
:class:`WrongValue` said the same way, before the shell unpacks or draws them. A hook that only
feeds a panel's text (:data:`STAND_INS`) answers with a stand-in (``"?"``) when it fails, so
a panel never loses its rows to one game's bug; the fault is still told once.

A game's turn orders are objects, not declarations: each is guarded by a copy whose hooks
(``cell``, ``next_turn`` …) are wrapped the same way (:func:`guard_turn_order`).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import re
import sys
from collections.abc import Callable, Mapping
from fractions import Fraction
from types import BuiltinFunctionType, FunctionType, MethodType, TracebackType
from typing import Any, TypeVar

from rulesets.base import RuleError

T = TypeVar("T")

listeners: list[Callable[[GameHookError], None]] = []
"""Told of every hook failure as it is raised (the TUI says it once, where it is not already
said as a refusal)."""


def one_line(error: BaseException) -> str:
    """``ZeroDivisionError: division by zero``, on one line whatever the message held (a
    :class:`WrongValue` is its words alone)."""
    text = " ".join(str(error).split())
    if isinstance(error, WrongValue):
        return text
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class WrongValue(Exception):
    """A hook returned something the shell cannot use; the message says what and what was
    wanted (``it returned None, not (sheet, log lines)``)."""


class GameHookError(RuleError):
    """A game's hook raised: the message names the game, the hook and what it raised."""

    def __init__(self, game: str, hook: str, error: BaseException) -> None:
        self.game = game
        self.hook = hook
        self.error = error
        self.said = False
        """Set where the message has been shown as a refusal (nothing more to say)."""
        super().__init__(f"The game {game} failed in {hook} ({one_line(error)})")


def report(fault: GameHookError) -> None:
    """Tell the listeners of a hook's failure the shell met itself (a hook past its time)."""
    for listener in list(listeners):
        listener(fault)


_report = report


_HOOKS = (FunctionType, BuiltinFunctionType, MethodType, functools.partial)


# --- what a hook must return ------------------------------------------------------------------
Contract = Callable[[Any], str]
"""What is wrong with a hook's result ("" when nothing is)."""

ODDS_TOLERANCE = 1e-9
"""How far from 1 chances may sum (floats' rounding; exact Fractions sum to 1 exactly)."""


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


def _text(value: object) -> str:
    return "" if isinstance(value, str) else f"it returned {_shown(value)}, not text"


def _lines(value: object) -> str:
    if isinstance(value, str) or not isinstance(value, list | tuple):
        return f"it returned {_shown(value)}, not a list of lines"
    wrong = next((line for line in value if not isinstance(line, str)), None)
    return "" if wrong is None else f"it returned {_shown(wrong)} among its lines, not text"


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: object) -> str:
    return "" if _whole(value) else f"it returned {_shown(value)}, not a whole number"


def _document(value: object) -> str:
    return "" if isinstance(value, dict) else f"it returned {_shown(value)}, not a document"


def _pair(value: object, first: Contract, second: Contract, what: str) -> str:
    if not isinstance(value, tuple | list) or len(value) != 2:
        return f"it returned {_shown(value)}, not {what}"
    problem = first(value[0]) or second(value[1])
    return problem.replace("it returned", f"its {what} held", 1) if problem else ""


def _paired(first: Contract, second: Contract, what: str) -> Contract:
    return lambda value: _pair(value, first, second, what)


def _optional(contract: Contract) -> Contract:
    return lambda value: "" if value is None else contract(value)


def _a(kind: type, what: str) -> Contract:
    return lambda value: (
        "" if isinstance(value, kind) else f"it returned {_shown(value)}, not {what}"
    )


def _dealt(value: object) -> str:
    return "" if value is None else _number(value)


def _strike(value: object, kind: type) -> str:
    """A foe's attack: a Strike whose line is text, whose hits are amounts and lines lines."""
    if not isinstance(value, kind):
        return f"it returned {_shown(value)}, not a Strike"
    said, hits, lines = (getattr(value, name) for name in ("said", "hits", "lines"))
    if not isinstance(said, str):
        return f"its Strike says {_shown(said)}, not text"
    if not isinstance(hits, tuple | list) or not all(isinstance(h, str) for h in hits):
        return f"its Strike's hits are {_shown(hits)}, not amounts as text (\"5\", \"2d6\")"
    return _lines(lines).replace("it returned", "its Strike's lines are", 1)


def odds_problem(value: object) -> str:
    """Odds are chances by band's name: numbers from 0 to 1 that sum to 1 (within
    :data:`ODDS_TOLERANCE`: exact Fractions sum to 1 exactly)."""
    if not isinstance(value, Mapping):
        return f"its odds are {_shown(value)}, not chances by band"
    total: Fraction | float = Fraction(0)
    chance: object
    for band, chance in value.items():
        if not isinstance(band, str):
            return f"its odds name a band {_shown(band)}, not text"
        if isinstance(chance, bool) or not isinstance(chance, int | float | Fraction):
            return f"its odds give {band} {_shown(chance)}, not a chance"
        if not 0 <= chance <= 1:
            return f"its odds give {band} {float(chance):.1%}, not a chance from 0 to 1"
        total += chance
    if abs(float(total) - 1) > ODDS_TOLERANCE:
        return f"its odds sum to {float(total):.1%}, not 100%"
    return ""


def _contracts() -> dict[str, Contract]:
    # Imported on first use: the declarations' modules import this one's neighbours.
    from rulesets.base import CheckResult
    from rulesets.checks import CheckSpec, Preset
    from rulesets.foes import Strike

    sheet_change = _paired(_document, _lines, "(sheet, log lines)")
    rolled = _a(CheckResult, "a CheckResult")
    contracts: dict[str, Contract] = {
        "ruleset.health_summary": _text,
        "ruleset.new_character": _document,
        "fight.hurt": sheet_change,
        "fight.heal": sheet_change,
        "fight.foe.hurt": sheet_change,
        "fight.foe.heal": sheet_change,
        "fight.foe.make": _document,
        "fight.foe.health": _text,
        "fight.foe.share": _optional(_paired(_number, _number, "(now, most)")),
        "fight.damage_amount": _paired(_dealt, _lines, "(amount or None, log lines)"),
        "fight.hp_damage": _paired(_number, _text, "(amount, note)"),
        "fight.initiative": rolled,
        "fight.ap_per_round": _number,
        "fight.quickness": _number,
        "fight.tags": _lines,
        "fight.turn_note": _text,
        "fight.detail": _text,
        "fight.notes": _lines,
        "fight.fight_start": _lines,
        "fight.fight_end": _lines,
        "fight.scene_start": _lines,
        "fight.roll_edge": _paired(_text, _text, "(edge, why)"),
        "foes.make": _document,
        "foes.shows": _lines,
        "foes.preview": _lines,
        "foes.roll": rolled,
        "foes.attack": lambda value: _strike(value, Strike),
        "checks.checks.spec": _a(CheckSpec, "a CheckSpec"),
        "checks.checks.spec().odds": odds_problem,
        "checks.preset": _optional(_a(Preset, "a Preset or None")),
        "checks.checks.inputs.options": _lines,
        "sheet.attribute_text": _text,
        "ruleset.sheet.attributes.text": _text,
    }
    for hook in ("cell", "status", "turn_state"):
        contracts[f"turn_orders.{hook}"] = _text
    for hook in TURN_ORDER_MOVES:
        contracts[f"turn_orders.{hook}"] = _lines
    return contracts


TURN_ORDER_TEXT = ("cell", "status", "turn_state")
TURN_ORDER_MOVES = ("start", "next_turn", "previous_turn", "joined", "left", "defeated")
"""A turn order's hooks (:func:`guard_turn_order` wraps them): what it shows, how it moves."""

CONTRACTS: dict[str, Contract] = {}
"""What each hook must return, by its place with the names taken out (``fight.hurt``,
``checks.checks.spec().odds``, ``turn_orders.cell``); filled on first use."""

STAND_INS: dict[str, Callable[[], Any]] = {
    "ruleset.health_summary": lambda: "?",
    "fight.foe.health": lambda: "?",
    "fight.foe.share": lambda: None,
    "fight.tags": lambda: ["?"],
    "fight.turn_note": lambda: "?",
    "fight.detail": lambda: "",
    "fight.notes": lambda: [],
    "fight.roll_edge": lambda: ("", ""),
    "foes.shows": lambda: ["?"],
    "foes.preview": lambda: ["?"],
    "checks.preset": lambda: None,
    "sheet.attribute_text": lambda: "?",
    "ruleset.sheet.attributes.text": lambda: "?",
    "turn_orders.cell": lambda: "?",
    "turn_orders.status": lambda: "",
    "turn_orders.turn_state": lambda: "?",
}
"""A panel's text hooks, by place: what the panel shows instead when the hook fails (the
fault is told once). Only text: a hook whose answer changes the game has no stand-in."""

_NAMES = re.compile(r"\[[^\]]*\]")


def place(path: str) -> str:
    """A hook's place without the names in it: ``checks.checks[duel].spec().odds`` ->
    ``checks.checks.spec().odds``."""
    return _NAMES.sub("", path)


def problem_with(path: str, value: object) -> str:
    """What is wrong with ``value`` as the result of the hook at ``path`` ("" if nothing)."""
    if not CONTRACTS:
        CONTRACTS.update(_contracts())
    contract = CONTRACTS.get(place(path))
    return contract(value) if contract is not None else ""


def _wrap(fn: Callable[..., Any], game: str, path: str) -> Callable[..., Any]:
    if getattr(fn, "__tableside_hook__", None):
        return fn
    stand_in = STAND_INS.get(place(path))

    def failed(error: BaseException) -> Any:
        fault = GameHookError(game, path, error)
        _report(fault)
        if stand_in is not None:
            return stand_in()
        raise fault from error

    @functools.wraps(fn)
    def hook(*args: Any, **kwargs: Any) -> Any:
        try:
            result = fn(*args, **kwargs)
        except GameHookError:
            raise
        except ValueError as exc:
            # A refusal is the game's word to the GM, except from a hook that only draws text.
            if stand_in is None:
                raise
            return failed(exc)
        except Exception as exc:
            return failed(exc)
        problem = problem_with(path, result)
        if problem:
            return failed(WrongValue(problem))
        return guard_value(result, game, f"{path}()", results=True)

    hook.__tableside_hook__ = path  # type: ignore[attr-defined]
    return hook


def guard_turn_order(order: T, game: str, path: str) -> T:
    """A copy of a game's turn order whose hooks name ``game`` and the hook when they fail
    and whose answers are checked (a column that raises shows ``?``; a ``next_turn`` that
    raises refuses the turn)."""
    if getattr(order, "__tableside_hook__", None):
        return order
    clone = copy.copy(order)
    for name in (*TURN_ORDER_TEXT, *TURN_ORDER_MOVES):
        method = getattr(clone, name, None)
        if callable(method):
            setattr(clone, name, _wrap(method, game, f"{path}.{name}"))
    clone.__tableside_hook__ = path  # type: ignore[attr-defined]
    return clone


def _declaration(value: object) -> bool:
    """A frozen dataclass instance: a declaration (a game's rules, a check's spec), not the
    state a hook is handed (an encounter, a fight), which is never walked."""
    params = getattr(value, "__dataclass_params__", None)
    return params is not None and params.frozen and not isinstance(value, type)


def _name(item: Any, index: int) -> str:
    for attr in ("id", "key"):
        value = getattr(item, attr, None)
        if isinstance(value, str) and value:
            return value
    return str(index)


def guard_value(value: T, game: str, path: str, *, results: bool = False) -> T:
    """``value`` with every hook in it wrapped to name ``game`` and the hook when it raises
    (see :func:`map_hooks`; a hook's result is guarded the same way)."""
    return map_hooks(value, lambda where, fn: _wrap(fn, game, where), path, results=results)


def map_hooks(
    value: T,
    change: Callable[[str, Callable[..., Any]], Callable[..., Any]],
    path: str = "",
    *,
    results: bool = False,
) -> T:
    """``value`` with each callable in it replaced by ``change(path, callable)``: frozen
    dataclasses, tuples and (in a declaration) mappings are walked, and a new object made only
    where something changed. ``results``: walking what a hook returned, whose documents
    (mappings) are the caller's, as they are."""
    if isinstance(value, _HOOKS):
        return change(path, value)  # type: ignore[return-value]
    if _declaration(value):
        changed: dict[str, Any] = {}
        for spec in dataclasses.fields(value):  # type: ignore[arg-type]
            old = getattr(value, spec.name)
            new = map_hooks(old, change, f"{path}.{spec.name}".lstrip("."), results=results)
            if new is not old:
                changed[spec.name] = new
        if not changed:
            return value
        clone = copy.copy(value)  # not replace(): __post_init__ checks ran on the original
        for name, new in changed.items():
            object.__setattr__(clone, name, new)
        return clone
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        items = tuple(
            map_hooks(item, change, f"{path}[{_name(item, i)}]", results=results)
            for i, item in enumerate(value)
        )
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items  # type: ignore[return-value]
    if isinstance(value, Mapping) and not results:
        walked = {k: map_hooks(v, change, f"{path}[{k}]") for k, v in value.items()}
        if all(walked[k] is v for k, v in value.items()):
            return value
        return type(value)(walked) if isinstance(value, dict) else walked  # type: ignore[return-value]
    return value


def hooks(value: object) -> dict[str, Callable[..., Any]]:
    """Every hook a declaration holds, by its path (``fight.foe.health``)."""
    found: dict[str, Callable[..., Any]] = {}

    def note(where: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        found.setdefault(where, fn)
        return fn

    map_hooks(value, note)
    return found


def culprit(tb: TracebackType | None, origin: str) -> str | None:
    """The game's outermost frame in a traceback (``DuelCheck.run``): where the shell called
    into the game's own code. ``origin`` is the game's package (``rulesets.shadows``)."""
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        if module == origin or module.startswith(f"{origin}."):
            code = tb.tb_frame.f_code
            return str(getattr(code, "co_qualname", code.co_name))
        tb = tb.tb_next
    return None


def package_of(module: str) -> str:
    """The package a module belongs to (``rulesets.shadows.game`` -> ``rulesets.shadows``; a
    package is its own): where a game's own code lives."""
    found = sys.modules.get(module)
    if found is not None and hasattr(found, "__path__"):
        return module
    return module.rpartition(".")[0] or module
