from django.urls import path

from . import views

app_name = "botapi"
urlpatterns = [
    path("games/", views.create_game, name="create_game"),
    path("account/", views.account, name="account"),
]
