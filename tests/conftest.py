"""Hypothesis profiles for the whole suite.

`default`: about 100 examples per property, derandomized (the same examples on every run and
every machine, so a failure reproduces and the suite's time is steady), no example database.
`thorough`: ten times the budgets with fresh random examples, for a nightly-style run:
`make test-thorough` (HYPOTHESIS_PROFILE=thorough).
"""

import os

from hypothesis import settings

settings.register_profile(
    "default", max_examples=100, derandomize=True, database=None, deadline=None, print_blob=True
)
settings.register_profile("thorough", max_examples=1200, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
