"""The lobby's ratings and rated/casual games, "Play now" pairing, guests' nickname and
sign-off, and a guest's games kept on sign-up."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rated_games import account, guest

from games import services
from games.domain.identity import NICKNAME_KEY
from games.domain.models import Game
from games.services.snapshots import lobby_lists
from players import pairing
from players.models import Rating, Seek

pytestmark = pytest.mark.django_db


def test_lobby_entries_carry_seat_ratings_and_the_rating_terms():
    host = account("host")
    Rating.objects.create(user_id=host.user_id, variant="classic", rating=1612.4, deviation=70)
    game = services.create_game(host, rated=True, rating_range=(1400, 1800))
    services.create_game(guest("visitor"), variant="mini")
    entries = {e["id"]: e for e in lobby_lists()["waiting"]}
    entry = entries[game.public_id]
    assert entry["ratings"] == ["1612", None] and entry["rated"] is True
    assert entry["rating_range"] == [1400, 1800]
    guest_entry = next(e for e in entries.values() if e["id"] != game.public_id)
    assert guest_entry["ratings"] == [None, None] and not guest_entry["rated"]


def lobby_data(page: str) -> dict:
    """The lists the lobby page carries for static/ui/lobby.js, which draws the rows (the
    browser tests check the drawing: tests/browser/test_ratings_and_profiles.py)."""
    start = page.index(">", page.index('<script id="lobby-data"')) + 1
    return json.loads(page[start : page.index("</script>", start)])


def test_the_lobby_page_carries_players_with_their_rating(client):
    host = account("carol")
    game = services.create_game(host, variant="mini", rated=True)
    entry = next(e for e in lobby_data(client.get("/").content.decode())["waiting"]
                 if e["id"] == game.public_id)  # fmt: skip
    assert entry["seats"][0]["name"] == "carol" and not entry["seats"][0].get("guest")
    assert entry["ratings"] == ["1500?", None] and entry["rated"] is True


def test_a_rated_game_from_the_form_and_a_bad_range_refused(client):
    user = User.objects.create_user("dave", password="pw-12345678")
    client.force_login(user)
    client.post("/games/new/", {"variant": "mini", "seat": "0", "rated": "on",
                                "rating_min": "1200", "rating_max": "1700"})  # fmt: skip
    game = Game.objects.get(red_user=user)
    assert (game.rated, game.rating_min, game.rating_max) == (True, 1200, 1700)
    response = client.post(
        "/games/new/", {"variant": "mini", "rating_min": "1800", "rating_max": "1200"}, follow=True
    )
    assert "The lowest rating is above the highest." in response.content.decode()
    assert Game.objects.count() == 1


def seek_as(ident, variant="mini", time_control="", created_ago=0.0) -> Seek:
    found = pairing.seek(ident, variant, time_control)
    if created_ago:
        Seek.objects.filter(pk=found.pk).update(
            created=timezone.now() - timedelta(seconds=created_ago)
        )
    return found


def test_play_now_pairs_the_nearest_rating_of_the_same_variant_and_clock():
    me, near, mid, far = account("me"), account("near"), account("mid"), account("far")
    other_clock = account("clock")
    for ident, value in ((near, 1495), (mid, 1600), (far, 1750), (me, 1520), (other_clock, 1520)):
        Rating.objects.create(user_id=ident.user_id, variant="mini", rating=value, deviation=60)
    seek_as(far)
    seek_as(mid)  # 80 from me, within range, but `near` is nearer
    seek_as(near)
    seek_as(other_clock, time_control="5+3")
    mine = seek_as(me)
    assert mine.game_id is not None
    game = mine.game
    names = {game.red_name, game.blue_name}
    assert names == {"me", "near"} and game.rated and game.status == "setup"
    assert Seek.objects.get(user_id=near.user_id).game_id == game.pk
    assert Seek.objects.filter(game=None).count() == 3  # mid, far, the other clock


def test_the_range_widens_with_waiting_and_guests_pair_unrated():
    strong, newcomer = account("strong"), account("newcomer")
    Rating.objects.create(user_id=strong.user_id, variant="mini", rating=1850, deviation=60)
    first = seek_as(strong)
    second = seek_as(newcomer)  # 350 apart: outside the first range
    assert second.game_id is None and pairing.pair(first.pk) is None
    Seek.objects.update(created=timezone.now() - timedelta(seconds=40))  # both waited 40 s
    assert pairing.rating_range(Seek.objects.get(pk=first.pk), timezone.now()) == 500
    assert pairing.pair(first.pk) is not None

    a, b = guest("g1"), guest("g2")
    seek_as(a)
    paired = seek_as(b)
    assert paired.game is not None and not paired.game.rated


def test_a_seek_never_pairs_with_itself_or_a_closed_page():
    me = account("lonely")
    seek_as(me)
    again = seek_as(me)  # a second seek replaces the first
    assert Seek.objects.filter(user_id=me.user_id).count() == 1 and again.game_id is None
    Seek.objects.update(seen=timezone.now() - timedelta(seconds=60))
    assert seek_as(account("late")).game_id is None
    Seek.objects.update(seen=timezone.now() - timedelta(hours=2))
    seek_as(account("later"))  # seeks untouched for an hour are forgotten
    assert list(Seek.objects.values_list("name", flat=True)) == ["later"]


def test_play_now_pages_wait_then_open_the_game(client):
    alice = User.objects.create_user("alice", password="pw-12345678")
    client.force_login(alice)
    page = client.post("/players/play-now/", {"variant": "mini", "time_control": ""})
    assert page.status_code == 200 and b"Looking for an opponent" in page.content
    mine = Seek.objects.get(user=alice)
    assert client.get(f"/players/play-now/{mine.pk}/").json() == {"game": None, "range": 100}
    seek_as(account("bob"))
    status = client.get(f"/players/play-now/{mine.pk}/").json()
    assert status["game"] == f"/games/{Seek.objects.get(pk=mine.pk).game.public_id}/"
    client.logout()
    assert client.get(f"/players/play-now/{mine.pk}/").status_code == 404  # not theirs
    assert client.post(f"/players/play-now/{mine.pk}/cancel/").status_code == 404

    client.force_login(alice)
    client.post("/players/play-now/", {"variant": "duel", "time_control": "5+3"})
    waiting = Seek.objects.get(user=alice)
    assert waiting.game_id is None and waiting.time_control == "5+3"
    client.post(f"/players/play-now/{waiting.pk}/cancel/")
    assert not Seek.objects.filter(user=alice).exists()


def test_a_guest_changes_nickname_signs_off_and_keeps_games_on_sign_up(client):
    client.post("/nickname/", {"nickname": "wanderer"})
    client.post("/nickname/", {"nickname": "wanderer2"})
    assert client.session[NICKNAME_KEY] == "wanderer2"
    key = client.session.session_key
    from games.domain.identity import Identity

    me = Identity(user_id=None, session_key=key, name="wanderer2")
    game = services.create_game(me, variant="mini", seat=1)
    services.join_game(game.public_id, guest("friend"))
    services.resign(game.public_id, me)
    response = client.post(
        "/accounts/signup/",
        {"username": "settled", "password1": "Long-pass-9876", "password2": "Long-pass-9876"},
        follow=True,
    )
    assert "guest game(s) are now on your profile" in response.content.decode()
    user = User.objects.get(username="settled")
    game.refresh_from_db()
    assert (game.blue_user_id, game.blue_name) == (user.pk, "settled")
    assert game.public_id in client.get("/players/settled/").content.decode()

    other = client.__class__()
    other.post("/nickname/", {"nickname": "passing"})
    other.post("/sign-off/")
    assert NICKNAME_KEY not in other.session
    assert b'id="sign-on"' in other.get("/").content


@pytest.mark.django_db(transaction=True)
def test_a_rated_game_against_the_computer_from_the_lobby_form(client):
    from games.services import computer

    user = User.objects.create_user("challenger", password="pw-12345678")
    client.force_login(user)
    client.post("/games/computer/play/", {"variant": "mini", "level": "medium", "seat": "0",
                                          "rated": "on"})  # fmt: skip
    game = Game.objects.get(red_user=user)
    assert game.rated and computer.seat_level(game, 1) == "medium"
    services.resign(game.public_id, ratings_identity(user))
    computer.wait_idle()
    assert Rating.objects.get(computer="medium", variant="mini").games == 1


def ratings_identity(user):
    from games.domain.identity import Identity

    return Identity(user_id=user.pk, session_key=None, name=user.username)


def test_the_new_lobby_fields_carry_only_public_numbers():
    """The leak check for what ratings add to the lobby socket: no piece, no rank."""
    host = account("public")
    game = services.create_game(host, variant="mini", seat=0, rated=True, rating_range=(None, 1700))
    services.join_game(game.public_id, account("joiner"))
    for entries in lobby_lists().values():
        for entry in entries if isinstance(entries, list) else []:
            assert isinstance(entry["rated"], bool)
            assert all(v is None or isinstance(v, int) for v in entry["rating_range"])
            assert all(
                label is None or re.fullmatch(r"\d+\??", label) for label in entry["ratings"]
            )


def test_a_guest_page_tells_its_script_who_may_join_what(client):
    rated = services.create_game(account("ranked"), variant="mini", rated=True)
    casual = services.create_game(account("relaxed"), variant="mini")
    client.post("/nickname/", {"nickname": "onlooker"})
    page = client.get("/").content.decode()
    # the script shows "accounts only" instead of Join on a rated game for a guest
    assert 'data-guest="1"' in page and 'data-can-play="1"' in page
    waiting = {e["id"]: e for e in lobby_data(page)["waiting"]}
    assert waiting[rated.public_id]["rated"] is True
    assert waiting[casual.public_id]["rated"] is False


def test_bad_play_now_input_says_why_and_seeks_nothing(client):
    client.post("/nickname/", {"nickname": "tester"})
    for form, message in (
        ({"variant": "chess", "time_control": ""}, "Unknown variant"),
        ({"variant": "mini", "time_control": "99+9"}, "Unknown time control"),
    ):
        response = client.post("/players/play-now/", form, follow=True)
        assert message in response.content.decode()
    assert not Seek.objects.exists()
    anonymous = client.__class__()
    response = anonymous.post("/players/play-now/", {"variant": "mini"}, follow=True)
    assert "Choose a nickname or log in first." in response.content.decode()
    assert client.get("/players/play-now/").status_code == 405
