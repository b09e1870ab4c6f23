"""What every ``tableside`` subcommand shares: the exit codes, the one-line usage error, JSON out.

Its own module so each subcommand's module imports it, and :mod:`app.cli` imports the
subcommands, without either importing the other.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

import orjson

from rulesets.text import json_safe, visible

EXIT_OK = 0
EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """Bad usage or bad input: printed as one line, exit 2."""


class Parser(argparse.ArgumentParser):
    """argparse prints usage and exits on error; we want one line and our exit code."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def print_json(obj: object, option: int = 0) -> None:
    # C1, bidi and zero-width characters as \uXXXX escapes: the same data for a JSON reader,
    # nothing a terminal acts on (orjson escapes only C0 itself).
    sys.stdout.write(json_safe(orjson.dumps(obj, option=option).decode()) + "\n")


def print_text(text: str) -> None:
    """A line of text for a terminal, every control character in it made visible."""
    sys.stdout.write("\n".join(visible(line) for line in text.split("\n")) + "\n")
