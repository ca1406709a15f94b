from django.urls import path

from . import api

app_name = "tournaments_api"
urlpatterns = [
    path("", api.events, name="events"),
    path("<int:pk>/", api.event, name="event"),
    path("<int:pk>/enter/", api.enter, name="enter"),
    path("<int:pk>/withdraw/", api.withdraw, name="withdraw"),
    path("<int:pk>/pairings/", api.pairings, name="pairings"),
]
