"""A module imported when first used, for code the first frame does not need.

The tracker's commands (``app.commands.combat``: 32 frozen dataclasses) are a noticeable part
of a start and are first needed when the GM presses a key; the app imports them in its
warm-up thread once the first frame is on screen (:func:`app.first_frame.warm_up`), so the first key
finds them loaded. Used as::

    if TYPE_CHECKING:
        from app.commands import combat as cmd
    else:
        cmd = LazyModule("app.commands.combat")

so type checkers see the real module. The import itself is :func:`importlib.import_module`,
which holds the import lock: a first use on the UI thread while the warm-up thread imports the
same module waits for it rather than running the module twice (``importlib.util.LazyLoader``
is not thread-safe before Python 3.12).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule:
    """Stands for the module ``name``; its first attribute read imports it."""

    __slots__ = ("_module", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name)
        return getattr(module, attr)

    def __repr__(self) -> str:
        state = "imported" if self._module is not None else "not imported yet"
        return f"<LazyModule {self._name} ({state})>"
