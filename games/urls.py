from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("new/", views.new_game, name="new"),
    path("<str:game_id>/", views.detail, name="detail"),
    path("<str:game_id>/join/", views.join, name="join"),
]
