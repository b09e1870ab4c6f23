"""Tableside: the app shell, the campaign store, the one state path and the command line.

Importing it changes nothing for the process: the command that opens the TUI raises the
garbage collector's thresholds for its start-up (``app.cli.cmd_open``, ``app.launch.launch``)
and puts them back; the app restores the collector as it found it when it ends (``app.collector``).
The players' server and the other commands keep Python's own.
"""

import gc

__version__ = "0.1.0"

START_UP_THRESHOLDS = (100_000, 10, 10)
"""The collector's thresholds while the TUI starts (app.cli.cmd_open, app.launch; the app
then stops the collector until its first frame and freezes what start-up built: app.collector).
Start-up allocates some 90,000 objects that live all session (modules, classes, the widget
tree) and makes almost no garbage: at Python's 700 the collector ran again and again before
the first frame, traversing the same live objects each time (docs/performance.md)."""
USUAL_THRESHOLDS = gc.get_threshold()
"""Python's own thresholds: once the app runs, it collects by them itself when the keys pause
(app.collector.collect_due)."""
BACKSTOP_THRESHOLDS = (20_000, 10, 10)
"""The collector's own thresholds once the app runs: high enough that a keypress (a 300-
combatant fight's `n` makes some 8,000 containers) finishes before it, low enough that a long
burst with no key (an import, a night left open) is still collected as it goes."""
