from django.urls import path

from . import views

app_name = "learn"

urlpatterns = [
    path("", views.tutorial, name="tutorial"),
    path("rules/", views.rules, name="rules"),
    path("lessons/<slug:slug>/", views.lesson, name="lesson"),
]
