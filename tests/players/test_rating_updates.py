"""A rated game updates both ratings in the transaction that ends it, once, whatever ends it;
a game without a result, a casual game, a guest or a banned player never counts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import F
from rated_games import (
    RED_SETUP,
    SHORT_GAME,
    account,
    guest,
    playing,
    position,
    race,
    rewind,
    seated,
)

from games import engine, services
from games.domain.errors import ServiceError
from games.domain.models import Game
from games.domain.options import ABANDON_SECONDS, SETUP_SECONDS
from games.transport import presence
from players import ratings
from players.models import PlayerStatus, Rating, RatingChange

pytestmark = pytest.mark.django_db


def flag(red, blue):
    gid = playing(red, blue)
    for color, frm, to in SHORT_GAME:
        services.move(gid, red if color == 0 else blue, frm, to)
    return gid, 0


def no_moves(red, blue):
    gid = playing(red, blue)
    # Blue keeps a bomb and its flag; Red's captain steps up and Blue cannot move.
    board = {20: (1, engine.FLAG), 21: (1, engine.BOMB), 15: (1, engine.BOMB),
             9: (0, engine.CAPTAIN), 0: (0, engine.FLAG)}  # fmt: skip
    position(gid, board)
    services.move(gid, red, 9, 14)
    return gid, 0


def resign(red, blue):
    gid = playing(red, blue)
    services.resign(gid, blue)
    return gid, 0


def time(red, blue):
    gid = playing(red, blue, time_control="5+3")
    rewind(gid, 301)
    services.expire(gid)
    return gid, 1  # Red was to move


def setup_time(red, blue):
    gid = seated(red, blue, time_control="5+3")
    services.submit_setup(gid, red, RED_SETUP)
    services.ready(gid, red)
    rewind(gid, SETUP_SECONDS + 1)
    services.expire(gid)
    return gid, 0  # only Red was ready


def leave(gid: str, color: int) -> None:
    presence.enter(gid, f"tab-{gid}-{color}", color)
    presence.leave(gid, f"tab-{gid}-{color}")
    rewind(gid, ABANDON_SECONDS + 1)


def abandonment(red, blue):
    gid = seated(red, blue)  # Blue leaves during the setup
    leave(gid, 1)
    services.claim_victory(gid, red)
    return gid, 0


def forfeit(red, blue):
    gid = playing(red, blue)  # Red leaves an untimed game in play
    leave(gid, 0)
    services.claim_victory(gid, blue)
    return gid, 1


def draw(red, blue):
    gid = playing(red, blue)
    services.offer_draw(gid, red)
    services.answer_draw(gid, blue, True)
    return gid, None


ENDINGS = [flag, no_moves, resign, time, setup_time, abandonment, forfeit, draw]
TERMINATIONS = {"flag": "flag_captured", "resign": "resignation", "setup_time": "time",
                "abandonment": "forfeit", "draw": "agreed_draw"}  # fmt: skip


def rating(ident) -> Rating:
    return Rating.objects.get(user_id=ident.user_id, variant="mini")


@pytest.mark.parametrize("ending", ENDINGS, ids=lambda f: f.__name__)
def test_every_ending_with_a_result_updates_both_ratings_once(ending):
    red, blue = account(), account()
    gid, winner = ending(red, blue)
    game = Game.objects.get(public_id=gid)
    assert game.status == "finished" and game.winner == winner
    assert game.termination == TERMINATIONS.get(ending.__name__, ending.__name__)
    assert RatingChange.objects.filter(game=game).count() == 2
    r, b = rating(red), rating(blue)
    assert (r.games, b.games) == (1, 1) and r.deviation < 350 and b.deviation < 350
    if winner is None:
        assert r.rating == pytest.approx(1500) and b.rating == pytest.approx(1500)
    else:
        won, lost = (r, b) if winner == 0 else (b, r)
        assert won.rating > 1500 > lost.rating

    # Nothing ends it twice: a second ending is refused, the hook again counts nothing.
    with pytest.raises(ServiceError):
        services.resign(gid, red)
    assert services.expire(gid) is None
    assert ratings.game_finished(game) is False
    assert RatingChange.objects.filter(game=game).count() == 2
    assert (rating(red).rating, rating(red).games) == (r.rating, 1)


def test_a_game_cancelled_or_aborted_never_counts():
    red, blue = account(), account()
    waiting = services.create_game(red, variant="mini", seat=0, rated=True)
    services.resign(waiting.public_id, red)  # cancelled while waiting
    gid = seated(red, blue, time_control="5+3")
    rewind(gid, SETUP_SECONDS + 1)
    services.expire(gid)  # neither was ready: aborted
    assert Game.objects.get(public_id=gid).status == "aborted"
    assert Game.objects.get(public_id=waiting.public_id).status == "aborted"
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_casual_game_between_accounts_does_not_count():
    red, blue = account(), account()
    gid = playing(red, blue, rated=False)
    services.resign(gid, blue)
    assert not RatingChange.objects.exists()


def test_guests_play_unrated_only():
    with pytest.raises(ServiceError) as err:
        services.create_game(guest(), variant="mini", rated=True)
    assert err.value.code == "rated_needs_account"
    game = services.create_game(account(), variant="mini", seat=0, rated=True)
    with pytest.raises(ServiceError) as err:
        services.join_game(game.public_id, guest())
    assert err.value.code == "rated_needs_account"
    game.refresh_from_db()
    assert game.status == "waiting" and not game.blue_name


def test_a_banned_player_cannot_play_rated_and_a_ban_during_a_game_voids_it():
    banned = account()
    PlayerStatus.objects.create(user_id=banned.user_id, banned_from_rated=True)
    with pytest.raises(ServiceError) as err:
        services.create_game(banned, variant="mini", rated=True)
    assert err.value.code == "rated_banned"
    game = services.create_game(account(), variant="mini", seat=0, rated=True)
    with pytest.raises(ServiceError):
        services.join_game(game.public_id, banned)

    red, blue = account(), account()
    gid = playing(red, blue)
    PlayerStatus.objects.create(user_id=blue.user_id, banned_from_rated=True)
    services.resign(gid, blue)
    assert not RatingChange.objects.exists()


def test_a_rating_range_keeps_out_players_outside_it():
    strong = account()
    Rating.objects.create(user_id=strong.user_id, variant="mini", rating=1900, deviation=60)
    game = services.create_game(account(), variant="mini", seat=0, rating_range=(1300, 1700))
    with pytest.raises(ServiceError) as err:
        services.join_game(game.public_id, strong)
    assert err.value.code == "rating_out_of_range" and "1900" in err.value.message
    services.join_game(game.public_id, account())  # a newcomer's 1500 is inside
    assert Game.objects.get(pk=game.pk).status == "setup"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_games_ending_at_once_for_one_player_lose_no_update(attempt):
    a, b, c = account(), account(), account()
    first, second = playing(a, b), playing(a, c)
    results = race(lambda: services.resign(first, b), lambda: services.resign(second, c))
    assert all(isinstance(r, int) for r in results), results
    mine = rating(a)
    assert mine.games == 2
    changes = list(RatingChange.objects.filter(rating=mine).order_by("id"))
    assert len(changes) == 2
    # The second update started from the first one's result: none was lost.
    assert changes[1].rating_before == pytest.approx(changes[0].rating_after)
    assert (
        mine.rating == pytest.approx(changes[1].rating_after)
        and mine.rating > changes[0].rating_after
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_new_players_ending_two_games_at_once_in_both_colours(attempt):
    a, b = account(), account()  # no rating yet: both games create both at the same instant
    first, second = playing(a, b), playing(b, a)
    results = race(lambda: services.resign(first, b), lambda: services.resign(second, b))
    assert all(isinstance(r, int) for r in results), results
    assert (rating(a).games, rating(b).games) == (2, 2)
    assert RatingChange.objects.count() == 4


@pytest.mark.django_db(transaction=True)
def test_a_computer_level_is_rated_from_its_games_against_people():
    from games.services import computer

    person = account()
    game = services.create_game(person, variant="mini", seat=0, rated=True)
    services.join_game(game.public_id, computer.computer_identity("medium", 1), 1)
    services.resign(game.public_id, person)
    computer.wait_idle()
    level = Rating.objects.get(computer="medium", variant="mini")
    assert level.games == 1 and level.rating > 1500 > rating(person).rating
    assert level.name == "Computer (medium)"


def test_a_month_without_games_widens_the_deviation_before_the_next_game():
    a, b = account(), account()
    services.resign(playing(a, b), b)
    settled = rating(a).deviation
    Rating.objects.update(last_played=F("last_played") - timedelta(days=30))
    gid = playing(a, b)
    services.resign(gid, b)
    change = RatingChange.objects.filter(game__public_id=gid, rating=rating(a)).get()
    assert change.deviation_before > settled
