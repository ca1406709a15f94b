from django.urls import path

from . import (
    api,
    converters,  # noqa: F401  (registers <event:...>)
)

app_name = "tournaments_api"
urlpatterns = [
    path("", api.events, name="events"),
    path("<event:pk>/", api.event, name="event"),
    path("<event:pk>/enter/", api.enter, name="enter"),
    path("<event:pk>/withdraw/", api.withdraw, name="withdraw"),
    path("<event:pk>/pairings/", api.pairings, name="pairings"),
]
