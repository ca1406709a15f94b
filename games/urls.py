from django.urls import path

from . import url_converters, views

url_converters.register()

app_name = "games"

urlpatterns = [
    path("new/", views.new_game, name="new"),
    path("terminations.json", views.terminations, name="terminations"),
    path("computer/play/", views.new_vs_computer, name="vs_computer"),
    path("computer/watch/", views.new_computer_game, name="watch_computers"),
    path("<game_id:game_id>/", views.detail, name="detail"),
    path("<game_id:game_id>/join/", views.join, name="join"),
    path("<game_id:game_id>/chat.json", views.chat_history, name="chat"),
]
