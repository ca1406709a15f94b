"""The domain: the game as the site stores it (models), its clocks, options and identities.
It uses the engine and nothing above it (docs/architecture.md)."""
