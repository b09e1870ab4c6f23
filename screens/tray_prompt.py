"""A one-line prompt for the tray (a delirium's name, an aspect, a counter, helpers' skills).

The parsers below turn what the GM typed into the numbers a card command needs. They raise
``ValueError`` with a message meant for the GM, and the prompt runs the same parser as its
``check`` so bad input is answered inside the prompt (it stays open) instead of after it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from rulesets.tarot import SUITS

MAX_SKILL = 60
"""Skills on a Shadows sheet stay far below this; it only catches typos (120 for 12)."""


class TrayPrompt(ModalScreen[str | None]):
    """Ask for one line of text; enter gives it back (stripped), escape gives None.

    ``check`` (text → error message or None) refuses bad input with the message shown under
    the field; ``password`` hides what is typed (the contest's secret margin).
    """

    DEFAULT_CSS = """
    TrayPrompt { align: center middle; }
    TrayPrompt > Vertical { width: 70; height: auto; border: thick $primary; padding: 1 2;
                            background: $surface; }
    TrayPrompt Label { width: 100%; }
    TrayPrompt #tray-prompt-error { color: $error; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="tray_prompt.cancel"),
    ]

    def __init__(
        self,
        question: str,
        placeholder: str = "",
        *,
        value: str = "",
        check: Callable[[str], str | None] | None = None,
        password: bool = False,
    ) -> None:
        super().__init__()
        self.question = question
        self.placeholder = placeholder
        self.initial = value
        self.checker = check
        self.password = password

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, markup=False)
            yield Input(
                self.initial,
                placeholder=self.placeholder,
                id="tray-prompt-input",
                max_length=80,
                password=self.password,
                select_on_focus=False,  # the GM adds to a suggested value, not retypes it
            )
            yield Static("", id="tray-prompt-error", markup=False)

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        problem = self.checker(value) if self.checker is not None else None
        if not value and problem is None:
            problem = "Type something, or press escape"
        if problem:
            self.query_one("#tray-prompt-error", Static).update(problem)
            self.notify(problem, severity="warning", markup=False)
            return
        self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss(None)


# --- parsers ---------------------------------------------------------------------------------


def _whole(word: str, what: str) -> int:
    # isascii: str.isdigit also passes "²" and "١", which int() then refuses with its own
    # message; six digits: no skill, margin or bonus comes near, and int() stays cheap.
    if not (word.isascii() and word.isdigit()) or len(word) > 6:
        raise ValueError(f"{what} is a whole number, not {word[:20]!r}")
    return int(word)


def parse_helpers(text: str) -> tuple[int, ...]:
    """SOH-07: up to two helpers' skills ("12 8"); "0" or nothing clears them."""
    words = text.replace(",", " ").split()
    if len(words) > 2:
        raise ValueError("at most two helpers: the second helper's skill, then the third's")
    skills = tuple(_whole(w, "a helper's skill") for w in words)
    if any(s > MAX_SKILL for s in skills):
        raise ValueError(f"a helper's skill is at most {MAX_SKILL}")
    if skills and skills[0] == 0:
        if any(skills[1:]):
            raise ValueError("a third helper needs a second helper first")
        return ()
    return skills[:1] if len(skills) == 2 and skills[1] == 0 else skills


def parse_suits(words: list[str]) -> tuple[str, ...]:
    """Suit names or unambiguous starts (cu, co, s, w); none or "any" means every suit."""
    if not words or [w.lower() for w in words] == ["any"]:
        return SUITS
    suits: list[str] = []
    for word in words:
        matches = [s for s in SUITS if s.lower().startswith(word.lower())]
        if len(matches) != 1:
            raise ValueError(f"{word!r} is not a suit: write cups, coins, swords or wands")
        if matches[0] not in suits:
            suits.append(matches[0])
    return tuple(suits)


def parse_counter(text: str) -> tuple[int, int, tuple[str, ...]]:
    """SOH-09: "9 31 cups wands" → the target's card value, its total, the allowed suits."""
    words = text.replace(",", " ").split()
    if len(words) < 2:
        raise ValueError("type the target's card value and its total, e.g. 9 31")
    value = _whole(words[0], "the target's card value")
    if not 1 <= value <= 14:
        raise ValueError("the target's card value is 1 (Ace) to 14 (King)")
    total = _whole(words[1], "the target's total")
    return value, total, parse_suits(words[2:])


def parse_contest(text: str) -> tuple[int, int, Literal["draws", "points"]]:
    """SOH-08: "3 15 points" → the hidden margin, the opposition's bonus, the scoring."""
    words = text.replace(",", " ").split()
    scoring: Literal["draws", "points"] = "draws"
    if words and words[-1].lower() in ("points", "draws"):
        scoring = "points" if words.pop().lower() == "points" else "draws"
    if not 1 <= len(words) <= 2:
        raise ValueError("type the hidden margin, then the opposition's bonus, e.g. 3 15")
    margin = _whole(words[0], "the margin")
    if margin < 1:
        raise ValueError("the margin is at least 1")
    bonus = _whole(words[1], "the opposition's bonus") if len(words) == 2 else 0
    if bonus > MAX_SKILL * 2:
        raise ValueError(f"the opposition's bonus is at most {MAX_SKILL * 2}")
    return margin, bonus, scoring


def parse_fumble(text: str) -> int:
    """SOH-06: the weapon's fumble value, a card value 1..14."""
    value = _whole(text.strip(), "the fumble value")
    if not 1 <= value <= 14:
        raise ValueError("the fumble value is a card value from 1 to 14")
    return value
