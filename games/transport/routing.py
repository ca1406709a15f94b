"""Websocket routes. A path that matches no route gets NotFoundConsumer (an error frame
`not_found`, then close 4404), not the router's "No route found" exception (HTTP 500 and a
logged traceback).

Rules: `/ws/lobby/`, and `/ws/games/<id>/` where <id> is 1-32 letters, digits, `_` or `-`;
both with the trailing slash.
"""

from django.urls import re_path

from .consumers import GameConsumer, LobbyConsumer, NotFoundConsumer

websocket_urlpatterns = [
    re_path(r"^ws/games/(?P<game_id>[A-Za-z0-9_-]{1,32})/$", GameConsumer.as_asgi()),
    re_path(r"^ws/lobby/$", LobbyConsumer.as_asgi()),
    re_path(r"", NotFoundConsumer.as_asgi()),  # last: everything else
]
