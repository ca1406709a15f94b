from django.urls import re_path

from .consumers import TournamentConsumer

websocket_urlpatterns = [
    re_path(r"^ws/tournaments/(?P<pk>[0-9]{1,9})/$", TournamentConsumer.as_asgi()),
]
