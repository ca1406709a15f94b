"""The plain pages: sign-on, create, join, game page, accounts, CSRF."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.domain.models import Game

pytestmark = pytest.mark.django_db


def guest(nickname: str) -> Client:
    client = Client()
    response = client.post("/nickname/", {"nickname": nickname})
    assert response.status_code == 302
    return client


def test_lobby_page_offers_sign_on():
    response = Client().get("/")
    assert response.status_code == 200
    assert b'name="nickname"' in response.content
    assert b"/ws/lobby/" in response.content


def test_bad_nickname_is_refused():
    client = Client()
    client.post("/nickname/", {"nickname": "<script>"})
    assert "nickname" not in client.session


def test_create_join_and_watch():
    alice, bob, carol = guest("alice"), guest("bob"), guest("carol")
    response = alice.post("/games/new/", {"variant": "mini", "seat": "1"})
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.public_id}/"
    assert (game.blue_name, game.variant, game.private) == ("alice", "mini", False)
    page = alice.get(response["Location"])
    assert page.context["role"] == 1 and page.context["ws_path"] == f"/ws/games/{game.public_id}/"
    bob.post(f"/games/{game.public_id}/join/", {"seat": ""})
    carol_page = carol.post(f"/games/{game.public_id}/join/", {"seat": "0"}, follow=True)
    game.refresh_from_db()
    assert (game.red_name, game.status) == ("bob", "setup")
    assert carol_page.context["role"] == 2
    assert "taken" in str(list(carol_page.context["messages"])[0])
    lobby = Client().get("/")
    assert [g["id"] for g in lobby.context["lobby"]["live"]] == [game.public_id]


def test_private_games_are_not_listed():
    guest("alice").post("/games/new/", {"variant": "classic", "seat": "random", "private": "on"})
    game = Game.objects.get()
    assert game.private and game.status == "waiting"
    assert Client().get("/").context["lobby"]["waiting"] == []


def test_anonymous_cannot_create():
    response = Client().post("/games/new/", {"variant": "mini"}, follow=True)
    assert Game.objects.count() == 0
    assert "nickname" in str(list(response.context["messages"])[0])


def test_unknown_game_is_404():
    assert Client().get("/games/nosuchgame/").status_code == 404
    assert guest("x").post("/games/nosuchgame/join/").status_code == 404


def test_forms_need_csrf():
    client = Client(enforce_csrf_checks=True)
    assert client.post("/nickname/", {"nickname": "alice"}).status_code == 403
    client.get("/")
    token = client.cookies["csrftoken"].value
    response = client.post("/nickname/", {"nickname": "alice", "csrfmiddlewaretoken": token})
    assert response.status_code == 302


def test_signup_login_logout_and_seat_by_account():
    client = Client()
    response = client.post(
        "/accounts/signup/",
        {"username": "dora", "password1": "a-long-pass-9876", "password2": "a-long-pass-9876"},
    )
    assert response.status_code == 302
    client.post("/games/new/", {"variant": "mini", "seat": "0"})
    game = Game.objects.get()
    user = User.objects.get(username="dora")
    assert game.red_user == user and game.red_name == "dora"
    client.post("/accounts/logout/")
    assert client.get(f"/games/{game.public_id}/").context["role"] == 2
    assert client.login(username="dora", password="a-long-pass-9876")
    assert client.get(f"/games/{game.public_id}/").context["role"] == 0
    assert Client().get("/accounts/login/").status_code == 200
