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
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import sys
from collections.abc import Callable, Mapping
from types import BuiltinFunctionType, FunctionType, MethodType, TracebackType
from typing import Any, TypeVar

from rulesets.base import RuleError

T = TypeVar("T")

listeners: list[Callable[[GameHookError], None]] = []
"""Told of every hook failure as it is raised (the TUI says it once, where it is not already
said as a refusal)."""


def one_line(error: BaseException) -> str:
    """``ZeroDivisionError: division by zero``, on one line whatever the message held."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class GameHookError(RuleError):
    """A game's hook raised: the message names the game, the hook and what it raised."""

    def __init__(self, game: str, hook: str, error: BaseException) -> None:
        self.game = game
        self.hook = hook
        self.error = error
        self.said = False
        """Set where the message has been shown as a refusal (nothing more to say)."""
        super().__init__(f"The game {game} failed in {hook} ({one_line(error)})")


def _report(fault: GameHookError) -> None:
    for listener in list(listeners):
        listener(fault)


_HOOKS = (FunctionType, BuiltinFunctionType, MethodType, functools.partial)


def _wrap(fn: Callable[..., Any], game: str, path: str) -> Callable[..., Any]:
    if getattr(fn, "__tableside_hook__", None):
        return fn

    @functools.wraps(fn)
    def hook(*args: Any, **kwargs: Any) -> Any:
        try:
            result = fn(*args, **kwargs)
        except (ValueError, GameHookError):
            raise
        except Exception as exc:
            fault = GameHookError(game, path, exc)
            _report(fault)
            raise fault from exc
        return guard_value(result, game, f"{path}()", results=True)

    hook.__tableside_hook__ = path  # type: ignore[attr-defined]
    return hook


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
