"""The bot API over HTTP (botapi/views.py): a bot account opens a game with its token; a
wrong or revoked token, a person's session, bad bodies and bad options are refused and
create nothing."""

from __future__ import annotations

import json

import pytest

from botapi.models import ApiToken
from botapi.tokens import make_bot
from games.domain.models import Game
from games.services import snapshots
from tests.server.conftest import fresh_channel_layer, no_heartbeat_after_the_test  # noqa: F401

pytestmark = pytest.mark.django_db
URL = "/api/bot/games/"


def post(client, token: str | None, body: object = None, raw: bytes | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    data = raw if raw is not None else json.dumps(body or {})
    return client.post(URL, data=data, content_type="application/json", **headers)


def test_a_bot_opens_a_game_that_waits_in_the_lobby_marked_bot(client):
    _, token = make_bot("opener")
    answer = post(client, token, {"variant": "mini", "time_control": "5+3", "seat": 1})
    assert answer.status_code == 201, answer.content
    created = answer.json()
    assert created["seat"] == 1 and created["variant"] == "mini"
    game = Game.objects.get(public_id=created["id"])
    assert (game.status, game.blue_name, game.red_name, game.clock_base_ms) == (
        "waiting", "opener", "", 300_000)  # fmt: skip
    entry = next(g for g in snapshots.lobby_lists()["waiting"] if g["id"] == game.public_id)
    assert entry["seats"][1]["bot"] is True and entry["seats"][0] is None
    assert client.get("/api/bot/account/", HTTP_AUTHORIZATION=f"Bearer {token}").json() == {
        "name": "opener", "bot": True}  # fmt: skip


@pytest.mark.parametrize("case", ["none", "wrong", "revoked", "basic"])
def test_without_a_valid_token_nothing_is_created(client, case):
    bot, token = make_bot("nobody")
    if case == "revoked":
        ApiToken.objects.filter(bot=bot).update(revoked="2026-01-01T00:00:00Z")
    headers = {
        "none": {},
        "wrong": {"HTTP_AUTHORIZATION": f"Bearer {token}x"},
        "revoked": {"HTTP_AUTHORIZATION": f"Bearer {token}"},
        "basic": {"HTTP_AUTHORIZATION": f"Basic {token}"},
    }[case]
    answer = client.post(URL, data="{}", content_type="application/json", **headers)
    assert answer.status_code == 401 and answer.json()["error"] == "bad_token"
    assert answer["WWW-Authenticate"] == "Bearer"
    assert client.get("/api/bot/account/", **headers).status_code == 401
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"not json", "bad_request"),
        (b"[1, 2]", "bad_request"),
        (b'{"variant": "mini", "colour": 1}', "bad_request"),
        (b'{"variant": 7}', "bad_request"),
        (b'{"seat": true}', "bad_request"),
        (b'{"seat": "1"}', "bad_request"),
        (b'{"rated": "yes"}', "bad_request"),
        (b'{"variant": "chess"}', "bad_variant"),
        (b'{"variant": "mini\\u0000"}', "bad_variant"),
        (b'{"seat": 2}', "bad_seat"),
        (b'{"time_control": "1+0"}', None),
        (b'{"variant": "duel", "two_squares": "3"}', None),
        (b'{"variant": "classic", "army": "drawn"}', None),
        (b'{"variant": "mini", "pad": "' + b"x" * 5000 + b'"}', "bad_request"),
    ],
)
def test_bad_bodies_and_options_get_a_clear_error_and_create_nothing(client, body, code):
    _, token = make_bot("picky")
    answer = post(client, token, raw=body)
    assert answer.status_code == 400, answer.content
    refused = answer.json()
    assert refused["message"] and (code is None or refused["error"] == code), refused
    assert not Game.objects.exists()


def test_a_bot_waits_in_three_open_games_at_most(client):
    _, token = make_bot("eager")
    for _ in range(3):
        assert post(client, token, {"variant": "mini"}).status_code == 201
    answer = post(client, token, {"variant": "mini"})
    assert answer.status_code == 409 and answer.json()["error"] == "too_many_waiting"
    assert Game.objects.count() == 3


def test_a_get_or_a_person_session_opens_nothing(client):
    _, token = make_bot("getter")
    assert client.get(URL, HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 405
    session = client.session
    session["nickname"] = "person"
    session.save()
    assert post(client, None, {"variant": "mini"}).status_code == 401
    assert not Game.objects.exists()
