"""The admin review of games: filters, search by player, the read-only game page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from .test_review_views import play_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-123")
    client.force_login(user)
    return client


def listed_ids(response) -> set[str]:
    return {game.public_id for game in response.context["cl"].result_list}


def test_filters_and_search_find_a_finished_game(admin_client):
    barrage = play_game("barrage", plies=6)
    mini = play_game("mini", plies=6, seed=11)
    url = "/admin/games/game/"
    assert listed_ids(admin_client.get(url, {"variant": "mini"})) == {mini.public_id}
    by_end = admin_client.get(url, {"termination": barrage.termination})
    assert barrage.public_id in listed_ids(by_end)
    winner = admin_client.get(url, {"winner": str(barrage.winner)})
    assert barrage.public_id in listed_ids(winner)
    assert listed_ids(admin_client.get(url, {"q": "red"})) == {barrage.public_id, mini.public_id}
    assert listed_ids(admin_client.get(url, {"q": "nobody-of-that-name"})) == set()


def test_the_game_page_is_read_only_with_moves_and_review_links(admin_client):
    game = play_game("barrage", plies=8)
    page = admin_client.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count("<tr><td>") == game.moves.count()
    assert f"/games/{game.public_id}/replay/" in html
    assert f"/games/{game.public_id}/record.xml" in html
    assert 'name="_save"' not in html
    response = admin_client.post(f"/admin/games/game/{game.pk}/change/", {"variant": "mini"})
    assert response.status_code == 403
