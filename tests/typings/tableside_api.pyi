# The game API's public name for mypy: the package is the folder rulesets/api/ installed as
# tableside_api (pyproject.toml's package-dir), which a default editable install maps through an
# import hook mypy does not follow. The fixture games in tests/fixtures/ import it by that name.
from rulesets.api import *  # noqa: F403
from rulesets.api import __all__ as __all__
