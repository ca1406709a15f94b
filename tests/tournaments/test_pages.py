"""The event pages, the lobby's section, the profile's list, the live socket and the Bot API,
through Django's test client and the real ASGI application."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from botapi.tokens import make_bot
from games.domain.models import BLUE
from tests.server.conftest import connect, fresh_channel_layer, receive  # noqa: F401
from tournaments import entries, scheduler
from tournaments.models import Tournament

from .helpers import account, event, lose

pytestmark = pytest.mark.django_db(transaction=True)


def logged_in(user) -> Client:  # noqa: ANN001
    client = Client()
    client.force_login(user)
    return client


def test_create_enter_follow_and_find_it_on_the_profile():
    alice, bob = account("alice"), account("bob")
    page = logged_in(alice)
    start = (timezone.localtime() + timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M")
    created = page.post("/tournaments/new/", {"name": "Sunday Swiss", "format": "swiss",
                        "variant": "mini", "time_control": "", "starts_at": start,
                        "rounds": "2", "rated": "on"})  # fmt: skip
    tournament = Tournament.objects.get()
    assert created.status_code == 302 and created["Location"] == f"/tournaments/{tournament.pk}/"
    assert page.post(f"/tournaments/{tournament.pk}/enter/").status_code == 302
    again = page.post(f"/tournaments/{tournament.pk}/enter/", follow=True)
    assert "You have entered this event already." in again.content.decode()
    page.post(f"/tournaments/{tournament.pk}/computer/", {"level": "random"})
    stranger = logged_in(bob).post(f"/tournaments/{tournament.pk}/computer/", {"level": "hard"},
                                   follow=True)  # fmt: skip
    assert "Only the event&#x27;s creator or an admin may do that." in stranger.content.decode()
    listing = Client().get("/tournaments/").content.decode()
    assert "Sunday Swiss" in listing and 'id="t-upcoming"' in listing
    assert "Sunday Swiss" in Client().get("/").content.decode()  # the lobby's section
    tournament.grace_seconds = 3600
    tournament.save()
    scheduler.sweep(timezone.now() + timedelta(minutes=11))
    detail = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Round 1 of 2" in detail and "Watch" in detail and "Computer (random)" in detail
    mine = page.get(f"/tournaments/{tournament.pk}/next/")
    game = tournament.pairings.get(round=1).game
    assert mine["Location"] == f"/games/{game.public_id}/"
    game_page = page.get(mine["Location"]).content.decode()
    assert 'id="game-event"' in game_page and "Round 1 of" in game_page
    for number in (1, 2):
        for pairing in tournament.pairings.filter(round=number, red_score=None):
            lose(pairing, BLUE)
        scheduler.sweep(timezone.now() + timedelta(minutes=30 + number))
        scheduler.sweep(timezone.now() + timedelta(minutes=31 + number))
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    finished = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="t-podium"' in finished and 'class="medal"' in finished
    profile = Client().get("/players/alice/").content.decode()
    assert 'id="events"' in profile and "Sunday Swiss" in profile and " of 2" in profile


def test_private_event_pages_need_the_link():
    alice = account("alice")
    private = event(alice, private=True)
    assert Client().get(f"/tournaments/{private.pk}/").status_code == 404
    assert (
        Client().get(f"/tournaments/{private.pk}/?invite={private.invite_code}").status_code == 200
    )
    assert "Friday Swiss" not in Client().get("/tournaments/").content.decode()


async def test_the_socket_sends_standings_and_the_players_game_when_it_starts():
    from channels.db import database_sync_to_async as adb

    alice, bob = await adb(account)("alice"), await adb(account)("bob")
    swiss = await adb(event)(alice, rounds=1, rated=False)
    await adb(entries.enter)(swiss.pk, alice)
    await adb(entries.enter)(swiss.pk, bob)
    comm = await connect(f"/ws/tournaments/{swiss.pk}/")
    first = await receive(comm)
    assert first["type"] == "tournament" and first["status"] == "upcoming"
    assert "alice" in first["html"] and first["your_game"] is None
    await adb(scheduler.sweep)(timezone.now() + timedelta(minutes=6))
    changed = await receive(comm, timeout=5)
    assert changed["status"] == "running" and "Games now" in changed["html"]
    await comm.disconnect()
    missing = await connect("/ws/tournaments/999999/")
    assert (await receive(missing))["code"] == "not_found"


def test_bot_api_lists_enters_and_gives_pairings():
    alice = account("alice")
    swiss = event(alice, rounds=1, rated=False)
    _, token = make_bot("botty")
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    client = Client()
    listed = client.get("/api/bot/tournaments/").json()
    assert [e["name"] for e in listed["events"]] == ["Friday Swiss"]
    url = f"/api/bot/tournaments/{swiss.pk}/"
    assert client.post(url + "enter/").status_code == 401
    assert client.post(url + "enter/", **auth).status_code == 201
    twice = client.post(url + "enter/", **auth)
    assert (twice.status_code, twice.json()["error"]) == (409, "already_entered")
    entries.enter(swiss.pk, alice)
    scheduler.sweep(timezone.now() + timedelta(minutes=6))
    mine = client.get(url + "pairings/", **auth).json()
    assert mine["status"] == "running" and mine["entered"]
    (game,) = mine["games"]
    assert game["active"] and game["opponent"] == "alice" and game["game"]
    late = client.post(url + "enter/", **{"HTTP_AUTHORIZATION": f"Bearer {make_bot('late')[1]}"})
    assert (late.status_code, late.json()["error"]) == (409, "already_started")
    standings = client.get(url).json()["standings"]
    assert {s["name"] for s in standings} == {"alice", "botty"}
    assert client.get("/api/bot/tournaments/424242/").status_code == 404
    assert json.loads(client.post(url + "withdraw/", **auth).content)["withdrawn"]


def test_the_admin_review_of_an_event_links_every_game():
    admin_user = account("boss", staff=True)
    admin_user.is_superuser = True
    admin_user.save()
    alice, bob = account("alice"), account("bob")
    swiss = event(alice, rounds=1, rated=False)
    entries.enter(swiss.pk, alice)
    entries.enter(swiss.pk, bob)
    scheduler.sweep(timezone.now() + timedelta(minutes=6))
    game = swiss.pairings.get().game
    page = logged_in(admin_user).get(f"/admin/tournaments/tournament/{swiss.pk}/change/")
    html = page.content.decode()
    assert page.status_code == 200
    assert f"/admin/games/game/{game.pk}/change/" in html
    assert f"/games/{game.public_id}/replay/" in html


def test_hostile_requests_are_refused_without_a_server_error():
    """Huge numbers, NUL bytes, garbage fields: a 404, a refusal, never a 500."""
    client = logged_in(account("x"))
    for url in (
        "/tournaments/99999999999999999999/",
        "/tournaments/1/",
        "/tournaments/0/next/",
        "/api/bot/tournaments/99999999999999/pairings/",
        "/tournaments/?x=\x00",
    ):
        assert client.get(url).status_code in (200, 302, 404, 401), url
    start = "2030-01-01T10:00"
    for data in (
        {"name": "a\x00bc", "format": "swiss", "starts_at": start},
        {"name": "abc", "format": "\x00", "variant": "\x00", "time_control": "\x00"},
        {"name": "abc", "rounds": "9" * 30, "starts_at": start, "tz_offset": "9" * 40},
        {"name": "abc", "rating_min": "-1", "starts_at": "x", "tz_offset": "-99999"},
    ):
        assert client.post("/tournaments/new/", data).status_code == 302, data
    assert not Tournament.objects.exists()
    for url in ("/tournaments/1/enter/", "/tournaments/1/computer/",
                "/tournaments/5/remove/999999999/", "/tournaments/1/cancel/"):  # fmt: skip
        answer = client.post(url, {"level": "\x00", "invite": "\x00"})
        assert answer.status_code in (302, 404), url
    raw = client.post("/api/bot/tournaments/1/enter/", b"\x00\xff", content_type="application/json")
    assert raw.status_code in (401, 404)
