from django.urls import path

from . import views

app_name = "tournaments"
urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.create, name="create"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/edit/", views.edit, name="edit"),
    path("<int:pk>/enter/", views.enter, name="enter"),
    path("<int:pk>/withdraw/", views.withdraw, name="withdraw"),
    path("<int:pk>/computer/", views.add_computer, name="add_computer"),
    path("<int:pk>/remove/<int:entrant>/", views.remove, name="remove"),
    path("<int:pk>/feature/", views.feature, name="feature"),
    path("<int:pk>/cancel/", views.cancel, name="cancel"),
    path("<int:pk>/next/", views.next_game, name="next_game"),
]
