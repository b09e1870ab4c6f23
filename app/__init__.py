"""Tableside: the app shell, the campaign store, the one state path and the command line."""

__version__ = "0.1.0"
