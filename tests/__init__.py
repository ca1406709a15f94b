"""The test suite (a package, so `tests.server` is ours: glicko2 installs a top-level `tests`)."""
