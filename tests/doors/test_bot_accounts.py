"""Bot accounts: tokens stored hashed and shown once, revocable; BOT in the lobby."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from botapi.models import ApiToken, BotAccount, hash_token
from botapi.tokens import make_bot, user_for_token
from games import services
from games.domain.identity import Identity
from games.services import snapshots
from tests.server.conftest import fresh_channel_layer, make_guest, no_heartbeat_after_the_test  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_token_is_stored_only_as_its_hash_and_opens_its_bot():
    bot, raw = make_bot("hashbot")
    token = ApiToken.objects.get(bot=bot)
    assert raw not in (token.digest, token.hint) and token.digest == hash_token(raw)
    assert not any(raw in str(value) for value in ApiToken.objects.values_list().get())
    assert user_for_token(raw) == bot.user
    assert user_for_token(raw + "x") is None and user_for_token("") is None
    token.revoke()
    assert user_for_token(raw) is None


def test_an_account_that_is_no_longer_active_opens_nothing():
    bot, raw = make_bot("sleeper")
    bot.user.is_active = False
    bot.user.save()
    assert user_for_token(raw) is None


def test_the_command_prints_a_token_once_and_revokes_it(capsys):
    call_command("bot_token", "cmdbot")
    raw = capsys.readouterr().out.strip()
    assert user_for_token(raw).username == "cmdbot"
    call_command("bot_token", "cmdbot", "--revoke", raw[:10])
    assert user_for_token(raw) is None


def test_a_bot_seat_shows_bot_in_the_lobby(client):
    bot, _ = make_bot("lobbybot")
    ident = Identity(user_id=bot.user.pk, session_key=None, name="lobbybot")
    game = services.create_game(ident, "mini", 0)
    human = services.create_game(make_guest("human"), "mini", 0)
    waiting = {e["id"]: e for e in snapshots.lobby_lists()["waiting"]}
    assert waiting[game.public_id]["seats"][0] == {"name": "lobbybot", "guest": False, "bot": True}
    assert "bot" not in waiting[human.public_id]["seats"][0]
    # the page carries the same lists for static/ui/lobby.js, which marks a bot's seat BOT
    page_lists = client.get("/").context["lobby"]["waiting"]
    assert sum(bool(seat and seat.get("bot")) for e in page_lists for seat in e["seats"]) == 1
    assert BotAccount.objects.count() == 1


def test_a_view_read_back_from_its_json_is_the_view():
    """The client rebuilds the engine's View from a socket's JSON: last move, outcome and all."""
    from clients.bot.views import view_from_dict
    from games.engine import Game, generate_setup, get_variant

    variant, rng = get_variant("classic"), random.Random(3)
    setups = generate_setup(variant, 0, rng), generate_setup(variant, 1, rng)
    game = Game.from_setups(variant, *setups)
    for _ in range(40):
        game.push(rng.choice(game.legal_moves()))
        for viewer in (0, 1, 2):
            view = game.view(viewer)
            assert view_from_dict(view.to_dict()).to_dict() == view.to_dict()
    game.resign(0)
    assert view_from_dict(game.view(1).to_dict()).outcome == game.outcome
