"""Django loads an app's models from here; they are defined in the domain layer
(games/domain/models.py)."""

from .domain.models import *  # noqa: F403
