from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # The services register with presence, and the computer players with the services,
        # when imported (neither of those imports the other way): load them with the app.
        from . import computer, services  # noqa: F401
