from django.urls import path

from . import (
    converters,  # noqa: F401  (registers <event:...>)
    views,
)

app_name = "tournaments"
urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.create, name="create"),
    path("<event:pk>/", views.detail, name="detail"),
    path("<event:pk>/edit/", views.edit, name="edit"),
    path("<event:pk>/enter/", views.enter, name="enter"),
    path("<event:pk>/withdraw/", views.withdraw, name="withdraw"),
    path("<event:pk>/computer/", views.add_computer, name="add_computer"),
    path("<event:pk>/remove/<event:entrant>/", views.remove, name="remove"),
    path("<event:pk>/feature/", views.feature, name="feature"),
    path("<event:pk>/cancel/", views.cancel, name="cancel"),
    path("<event:pk>/next/", views.next_game, name="next_game"),
]
