from django.contrib import admin
from django.urls import include, path, re_path
from django.views.decorators.cache import cache_page
from django.views.i18n import JavaScriptCatalog

from .bundles import bundle_view

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("lobby.account_urls")),
    path("", include("lobby.urls")),
    path("", include("moderation.urls")),  # reports (before games/ and players/)
    path("games/", include("games.review_urls")),  # replay, export, client data (before <id>/)
    path("games/", include("games.urls")),
    path("players/", include("players.urls")),
    path("learn/", include("learn.urls")),
    path("i18n/", include("django.conf.urls.i18n")),  # setlang/: the language switch
    # The game client's words in the page's language (static/ui/i18n.js reads them); the pages
    # name the language in the address, so a browser's cached copy never speaks another.
    path("jsi18n/", cache_page(3600)(JavaScriptCatalog.as_view()), name="javascript-catalog"),
    # A page's script modules as one file, named by its content (stratego_site/bundles.py).
    re_path(
        r"^bundles/(?P<name>[\w/-]+)\.(?P<digest>[0-9a-f]{12})\.js$", bundle_view, name="bundle"
    ),
    path("tournaments/", include("tournaments.urls")),
    path("api/bot/tournaments/", include("tournaments.api_urls")),  # (before api/bot/)
    path("api/bot/", include("botapi.urls")),  # a bot account opens games (docs/bots.md)
]
