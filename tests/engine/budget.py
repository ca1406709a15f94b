"""How many examples a costly property runs: its own budget in the default Hypothesis profile,
ten times that in the thorough one (tests/conftest.py, `make test-thorough`)."""

import os

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"


def examples(budget: int) -> int:
    return budget * 10 if THOROUGH else budget
