"""Every change a GM can make, as commands for :meth:`app.state.Campaign.apply`.

One module per GM area (``dice``, ``party``, ``npcs``, ``combat``); each command is a small
dataclass with a ``label`` and a ``run(tx)`` that calls the pure rules in ``rulesets/``. A game's
own commands (its checks, Shadows' cards) live in its package, ``rulesets/<game>/``.
"""
