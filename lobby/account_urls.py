from django.contrib.auth import views as auth_views
from django.urls import path

from . import views
from .login import LoginView

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
