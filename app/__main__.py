"""``python -m app`` is the same as ``tableside``."""

from app.cli import main

raise SystemExit(main())
