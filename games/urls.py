from django.urls import path

from . import chat, computer, views

app_name = "games"

urlpatterns = [
    path("new/", views.new_game, name="new"),
    path("computer/play/", computer.new_vs_computer, name="vs_computer"),
    path("computer/watch/", computer.new_computer_game, name="watch_computers"),
    path("<str:game_id>/", views.detail, name="detail"),
    path("<str:game_id>/join/", views.join, name="join"),
    path("<str:game_id>/chat.json", chat.history, name="chat"),
]
