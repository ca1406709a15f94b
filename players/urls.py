from django.urls import path

from games import url_converters

from . import pairing, views

url_converters.register()

app_name = "players"

urlpatterns = [
    path("", views.board, name="board"),
    path("play-now/", pairing.play_now, name="play_now"),
    path("play-now/<int:seek_id>/", pairing.seek_status, name="seek_status"),
    path("play-now/<int:seek_id>/cancel/", pairing.cancel, name="seek_cancel"),
    path("<username:name>/", views.profile, name="profile"),
]
