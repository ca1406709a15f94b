"""Each limit of games/services/rate_limits.py reached, refused with 429 and Retry-After (a page for
a browser, JSON for the JSON endpoints), and reset when its window ends; counted in Redis."""

from __future__ import annotations

import json
import uuid

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.test import Client

from games import services
from games.domain.errors import ServiceError
from games.domain.identity import NICKNAME_KEY
from games.domain.models import Game
from games.services import chat
from games.services import rate_limits as http_limits

from .conftest import make_guest
from .helpers import seated_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def strict_limits(settings, monkeypatch):
    """The defaults (the suite runs with a hundred times them), counts from zero, and the
    limits' clock stopped 10 s into every window (so none ends during the test)."""
    settings.RATE_LIMIT_SCALE = 1
    monkeypatch.setattr(http_limits, "clock", lambda: 86400.0 * 20000 + 10)
    http_limits.generation = uuid.uuid4().hex
    yield
    http_limits.generation = "1"


def end_windows() -> None:
    """As if every window had ended: a new generation of counters."""
    http_limits.generation = uuid.uuid4().hex


def guest(name: str, address: str = "10.0.0.1") -> Client:
    client = Client(REMOTE_ADDR=address)
    client.post("/nickname/", {"nickname": name})
    assert client.session.get(NICKNAME_KEY) == name
    return client


def assert_refused_page(answer, what: str) -> None:
    assert answer.status_code == 429
    assert 0 < int(answer["Retry-After"]) <= 3600
    page = answer.content.decode()
    assert "Too many requests" in page and f"Too many {what}" in page


def test_the_counts_live_in_the_configured_cache():
    assert type(caches["default"]).__name__ == "RedisCache"  # the real Redis, as in production
    http_limits.count("report", "person:test")
    assert http_limits.peek("report", "person:test") == 1


def test_creating_games_is_limited_per_person_then_resets():
    host = guest("maker")
    Game.objects.all().delete()
    for _ in range(20):  # the default: 20 in 10 minutes (each cancelled to stay under 3 waiting)
        answer = host.post("/games/new/", {"variant": "mini"})
        assert answer.status_code == 302
        Game.objects.filter(status="waiting").update(status="aborted")
    assert_refused_page(host.post("/games/new/", {"variant": "mini"}), "opening games")
    assert_refused_page(host.post("/games/computer/play/", {"variant": "mini"}), "opening games")
    end_windows()
    assert host.post("/games/new/", {"variant": "mini"}).status_code == 302


def test_the_address_limit_holds_across_people():
    for n in range(10):  # the default: 10 sign-ons in 10 minutes per address
        guest(f"crowd{n}", address="10.0.0.7")
    client = Client(REMOTE_ADDR="10.0.0.7")
    assert_refused_page(client.post("/nickname/", {"nickname": "crowd10"}), "choosing a nickname")
    assert guest("elsewhere", address="10.0.0.8")  # another address is not held back


def test_waiting_games_per_person():
    host = guest("waiter")
    for _ in range(3):
        assert host.post("/games/new/", {"variant": "mini"}).status_code == 302
    answer = host.post("/games/new/", {"variant": "mini"}, follow=True)
    assert "You already wait for opponents in 3 games" in answer.content.decode()
    assert Game.objects.filter(status="waiting", red_name="waiter").count() + Game.objects.filter(
        status="waiting", blue_name="waiter").count() == 3  # fmt: skip


def test_joins_are_limited():
    visitor = guest("joiner")
    gid, _, _ = seated_game()
    for _ in range(40):
        assert visitor.post(f"/games/{gid}/join/").status_code == 302  # (full: refused, counted)
    assert_refused_page(visitor.post(f"/games/{gid}/join/"), "joining games")


def test_sign_ups_are_limited_per_address():
    for n in range(5):
        client = Client(REMOTE_ADDR="10.0.0.9")
        pw = "a-long-pass-42x"
        data = {"username": f"new{n}", "password1": pw, "password2": pw}
        assert client.post("/accounts/signup/", data).status_code == 302
    answer = Client(REMOTE_ADDR="10.0.0.9").get("/accounts/signup/")
    assert answer.status_code == 200  # only the posts count
    refused = Client(REMOTE_ADDR="10.0.0.9").post("/accounts/signup/", {"username": "new5"})
    assert_refused_page(refused, "signing up")


def test_failed_logins_lock_one_address_and_name_for_a_window_only():
    User.objects.create_user("owner", password="the-real-pass-9")
    thief = Client(REMOTE_ADDR="10.0.0.66")
    for _ in range(5):
        answer = thief.post("/accounts/login/", {"username": "owner", "password": "guess"})
        assert answer.status_code == 200
    assert_refused_page(
        thief.post("/accounts/login/", {"username": "owner", "password": "the-real-pass-9"}),
        "failed logins for this name",
    )
    # The owner, from their own address, is not locked out.
    owner = Client(REMOTE_ADDR="10.0.0.5")
    answer = owner.post("/accounts/login/", {"username": "owner", "password": "the-real-pass-9"})
    assert answer.status_code == 302
    # And when the window ends, the address may try again.
    end_windows()
    answer = thief.post("/accounts/login/", {"username": "owner", "password": "the-real-pass-9"})
    assert answer.status_code == 302


def test_saving_setups_is_limited_with_a_json_answer():
    client = guest("saver")
    body = json.dumps({"name": "x", "layout": "junk"})
    for _ in range(30):
        answer = client.post("/games/setups/mini/", body, content_type="application/json")
        assert answer.status_code == 400
    answer = client.post("/games/setups/mini/", body, content_type="application/json")
    assert answer.status_code == 429 and int(answer["Retry-After"]) > 0
    assert answer.json()["error"] == "rate_limited"
    assert answer.json()["retry_after"] == int(answer["Retry-After"])


def test_chat_is_limited_per_person_across_games():
    red = make_guest("talker")
    games = []
    for _ in range(7):
        game = services.create_game(red, variant="mini", seat=0)
        services.join_game(game.public_id, make_guest())
        games.append(game.public_id)
    for gid in games[:6]:
        for _ in range(5):  # 5 per game: the per-game limit (5 in 10 s) never trips
            chat.post(gid, red, "players", "hello")
    with pytest.raises(ServiceError) as refused:
        chat.post(games[6], red, "players", "one too many")
    assert refused.value.code == "chat_too_fast" and "Too many chat messages" in str(
        refused.value.message
    )


def test_reports_are_limited_with_a_json_answer_then_reset():
    gid, red, blue = seated_game()
    chat.post(gid, red, "players", "hello")
    version = services.watch(gid, red)[0].version
    reporter = Client(REMOTE_ADDR="10.0.0.3")
    reporter.cookies["sessionid"] = blue.session_key
    body = json.dumps({"version": version, "reason": "spam"})
    for _ in range(10):
        answer = reporter.post(f"/games/{gid}/report/", body, content_type="application/json")
        assert answer.status_code == 201
    answer = reporter.post(f"/games/{gid}/report/", body, content_type="application/json")
    assert answer.status_code == 429 and answer.json()["error"] == "rate_limited"
    assert "Too many reports" in answer.json()["message"]
    end_windows()
    answer = reporter.post(f"/games/{gid}/report/", body, content_type="application/json")
    assert answer.status_code == 201


def test_failed_logins_from_one_address_are_limited_whatever_the_name(settings):
    settings.RATE_LIMITS = {"login_failure_address": "6/900"}
    thief = Client(REMOTE_ADDR="10.0.0.77")
    for n in range(6):
        answer = thief.post("/accounts/login/", {"username": f"user{n}", "password": "guess"})
        assert answer.status_code == 200
    answer = thief.post("/accounts/login/", {"username": "someone-else", "password": "guess"})
    assert_refused_page(answer, "failed logins")
