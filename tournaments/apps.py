from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """An event's games are normal games; what an event does when one ends is wired with the
    games' other reactions, in games/reactions.py."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"
