"""The leaderboard, the profile, the admin's ratings and `recompute_ratings`, on the real
database."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils.timezone import now
from rated_games import account, playing

from games import services
from games.domain.models import SavedSetup
from players.models import PlayerStatus, Rating, RatingChange

pytestmark = pytest.mark.django_db


def rated_games(a, b, n: int, winner_a: bool = True) -> list[str]:
    ids = []
    for _ in range(n):
        gid = playing(a, b)
        services.resign(gid, b if winner_a else a)
        ids.append(gid)
    return ids


def test_the_leaderboard_ranks_active_players_of_a_variant_and_marks_computers(client):
    strong, weak = account("strong"), account("weak")
    rated_games(strong, weak, 3)
    when = Rating.objects.get(user_id=weak.user_id).last_played
    Rating.objects.create(
        computer="hard", variant="mini", rating=900, deviation=90, games=4, last_played=when
    )
    page = client.get("/players/?variant=mini").content.decode()
    names = re.findall(r'<tr class="leader[^"]*" data-name="([^"]+)"', page)
    assert names == ["strong", "weak", "Computer (hard)"]
    assert page.count('class="badge computer"') == 1
    assert '<a href="/players/strong/">strong</a>' in page
    # Another variant has nobody; a banned player leaves the board.
    assert "No rated classic game" in client.get("/players/?variant=classic").content.decode()
    PlayerStatus.objects.create(user_id=strong.user_id, banned_from_rated=True)
    page = client.get("/players/?variant=mini").content.decode()
    assert re.findall(r'data-name="([^"]+)"', page) == ["weak", "Computer (hard)"]


def test_a_profile_shows_ratings_chart_record_by_colour_and_games(client):
    me, other = account("me"), account("other")
    won = rated_games(me, other, 2)  # me as Red, won twice
    lost = playing(other, me)  # me as Blue
    services.resign(lost, me)
    page = client.get("/players/me/").content.decode()
    assert 'data-variant="mini"' in page and 'class="rating-chart"' in page
    assert page.count("<circle") == 4  # the start and three games
    cell = r'<td class="num">(\d+)</td>'
    rows = re.findall(r"<tr><td>(Red|Blue)</td>" + cell * 3, page)
    assert rows == [("Red", "2", "0", "0"), ("Blue", "0", "0", "1")]
    for gid in [*won, lost]:
        assert f'data-game-id="{gid}"' in page
    assert "resignation" in page and '<a href="/players/other/">other</a>' in page
    assert "<script" not in page  # the chart is drawn by the server, nothing loaded
    assert 'id="setups"' not in page  # only the owner sees their setups


def test_only_the_owner_sees_their_saved_setups(client):
    me = account("owner")
    SavedSetup.objects.create(user_id=me.user_id, variant="mini", name="my wall", layout=[])
    client.force_login(User.objects.get(pk=me.user_id))
    assert "my wall" in client.get("/players/owner/").content.decode()
    client.logout()
    assert "my wall" not in client.get("/players/owner/").content.decode()
    assert client.get("/players/nobody-here/").status_code == 404


def table() -> dict:
    rows = Rating.objects.all()
    return {
        (r.user_id, r.variant): (round(r.rating, 6), round(r.deviation, 6), r.games) for r in rows
    }


def test_recompute_ratings_rebuilds_what_the_games_made(client):
    a, b, c = account("ann"), account("ben"), account("cid")
    rated_games(a, b, 2)
    rated_games(c, a, 1)
    before = table()
    Rating.objects.filter(user_id=a.user_id).update(rating=3000, games=99)  # a bad hand edit
    call_command("recompute_ratings", "--player", "ann")
    mine = Rating.objects.get(user_id=a.user_id)
    assert (mine.rating, mine.deviation, mine.games) == pytest.approx(before[(a.user_id, "mini")])
    Rating.objects.update(rating=1000)
    call_command("recompute_ratings")
    assert table() == before
    assert RatingChange.objects.count() == 6
    with pytest.raises(CommandError):
        call_command("recompute_ratings", "--player", "nobody")


def test_the_admin_shows_ratings_and_bans(client):
    admin = User.objects.create_superuser("root", "root@example.com", "pw-12345678")
    a, b = account("x1"), account("x2")
    rated_games(a, b, 1)
    client.force_login(admin)
    page = client.get("/admin/players/rating/").content.decode()
    assert "x1 mini" in page and "x2 mini" in page
    rating = Rating.objects.get(user_id=a.user_id)
    page = client.get(f"/admin/players/rating/{rating.pk}/change/").content.decode()
    assert 'name="rating"' in page and 'name="deviation"' in page  # correctable by hand
    response = client.post(
        "/admin/players/rating/",
        {"action": "recompute_players", "_selected_action": [rating.pk]},
        follow=True,
    )
    assert "1 player(s) recomputed from 1 game(s)" in response.content.decode()
    assert client.get("/admin/players/playerstatus/add/").status_code == 200


def test_a_computers_name_on_the_leaderboard_is_in_the_pages_language(client):
    Rating.objects.create(
        computer="hard", variant="mini", rating=900, deviation=90, games=4, last_played=now()
    )
    page = client.get("/players/?variant=mini", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert re.findall(r'data-name="([^"]+)"', page) == ["Ordinateur (difficile)"]
