from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        """Hear of every game that ends, and make an event's games strict (games' hooks)."""
        from games.services import endings

        from . import results

        if results.game_ended not in endings.ended_hooks:
            endings.ended_hooks.append(results.game_ended)
            endings.event_hooks.append(results.is_event_game)
