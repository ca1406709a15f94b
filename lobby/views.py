"""The lobby page, guest nicknames and account sign-up."""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from games.identity import NICKNAME_KEY
from games.services import VARIANT_NAMES
from games.snapshots import lobby_lists

NICKNAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,24}$")


@ensure_csrf_cookie
def index(request: HttpRequest) -> HttpResponse:
    lists = lobby_lists()
    context = {
        "variants": VARIANT_NAMES,
        "waiting": lists["waiting"],
        "live": lists["live"],
        "finished": lists["finished"],
    }
    return render(request, "lobby/index.html", context)


@require_POST
def nickname(request: HttpRequest) -> HttpResponse:
    name = request.POST.get("nickname", "").strip()
    if not NICKNAME_RE.match(name):
        messages.error(request, "A nickname is 1-24 letters, digits, '_', '-' or '.'.")
        return redirect("lobby:index")
    request.session[NICKNAME_KEY] = name
    if request.session.session_key is None:
        request.session.save()
    next_url = request.POST.get("next", "")
    return redirect(next_url if next_url.startswith("/") and not next_url.startswith("//") else "/")


def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("lobby:index")
    return render(request, "registration/signup.html", {"form": form})
