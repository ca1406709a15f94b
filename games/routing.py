from django.urls import re_path

from .consumers import GameConsumer, LobbyConsumer

websocket_urlpatterns = [
    re_path(r"^ws/games/(?P<game_id>[A-Za-z0-9_-]{1,32})/$", GameConsumer.as_asgi()),
    re_path(r"^ws/lobby/$", LobbyConsumer.as_asgi()),
]
