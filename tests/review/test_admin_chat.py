"""The chat is kept with the game and shown, escaped, on the admin's game page;
the move table there counts full moves, as the move list and the replay do."""

from __future__ import annotations

import pytest

from games.services import chat

from .test_admin_review import admin_client  # noqa: F401 (a fixture)
from .test_review_views import guest, play_game

pytestmark = pytest.mark.django_db


def test_the_admin_game_page_shows_both_chats_escaped(admin_client):  # noqa: F811
    game = play_game("barrage", plies=6)
    watcher = guest("watcher")
    chat.post(game.public_id, watcher, "spectators", "<script>alert(1)</script> nice")
    html = admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert 'id="chat-table"' in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; nice" in html
    assert "<script>alert(1)</script>" not in html
    assert "<td>spectators</td><td>watcher</td>" in html
    assert "<td>1.</td><td>Red</td>" in html and "<td>1…</td><td>Blue</td>" in html
