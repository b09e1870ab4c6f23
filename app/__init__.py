"""Tableside: the app shell, the campaign store, the one state path and the command line."""

import gc

__version__ = "0.1.0"

START_UP_THRESHOLDS = (100_000, 10, 10)
"""The collector's thresholds until the first frame (the app restores Python's own then, and
freezes what start-up built: app.tui). Start-up allocates some 90,000 objects that live all
session (modules, classes, the widget tree) and makes almost no garbage: at Python's 700 the
collector ran 140 times before the first frame and took 35 ms of it, traversing the same live
objects again and again (issue 26)."""
USUAL_THRESHOLDS = gc.get_threshold()

gc.set_threshold(*START_UP_THRESHOLDS)
