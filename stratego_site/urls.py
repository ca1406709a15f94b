from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("lobby.account_urls")),
    path("", include("lobby.urls")),
    path("", include("moderation.urls")),  # reports (before games/ and players/)
    path("games/", include("games.review_urls")),  # replay, export, client data (before <id>/)
    path("games/", include("games.urls")),
    path("players/", include("players.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("api/bot/tournaments/", include("tournaments.api_urls")),  # (before api/bot/)
    path("api/bot/", include("botapi.urls")),  # a bot account opens games (docs/bots.md)
]
