from django.urls import path

from . import views

app_name = "lobby"

urlpatterns = [
    path("", views.index, name="index"),
    path("nickname/", views.nickname, name="nickname"),
    path("sign-off/", views.sign_off, name="sign_off"),
    path("seeks/", views.seeks, name="seeks"),
]
