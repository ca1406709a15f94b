"""Seed 001 over TCP, on PostgreSQL + Redis, in the test's own process."""

from __future__ import annotations

import asyncio

import pytest

from games.legacy import frames as f
from games.models import Game, Move

from .legacy_script import whole_game
from .legacy_server import client, legacy_server

pytestmark = pytest.mark.django_db(transaction=True)


async def test_python_clients_play_a_whole_game():
    async with legacy_server() as server:
        red, blue = await client(server), await client(server)
        await whole_game(red, blue)
        assert await red.closed() and await blue.closed()
    game = await Game.objects.aget(red_name="alice")
    assert (game.status, game.winner, game.termination) == ("finished", 0, "flag_captured")
    assert game.blue_name == "bob" and game.variant == "classic"
    assert await Move.objects.filter(game=game).acount() == 5
