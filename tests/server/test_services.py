"""The services, called directly, on the real PostgreSQL."""

from __future__ import annotations

import pytest

from games import engine, services
from games.domain.errors import ServiceError
from games.domain.models import Game, GameEvent, Move

from .conftest import SHORT_GAME, make_guest
from .helpers import seated_game, set_up_game

pytestmark = pytest.mark.django_db


def test_create_and_join_fill_the_seats():
    gid, red, blue = seated_game()
    game = Game.objects.get(public_id=gid)
    assert game.status == "setup"
    assert (game.red_name, game.blue_name) == ("red", "blue")
    assert game.version == 2
    assert list(game.events.values_list("kind", flat=True)) == ["seated", "seated"]


def test_create_needs_identity_and_known_variant():
    with pytest.raises(ServiceError) as err:
        services.create_game(None)
    assert err.value.code == "no_identity"
    with pytest.raises(ServiceError) as err:
        services.create_game(make_guest(), variant="chess")
    assert err.value.code == "bad_variant"


def test_nobody_takes_both_seats_and_a_third_is_refused():
    gid, red, blue = seated_game()
    with pytest.raises(ServiceError) as err:
        services.join_game(gid, red)
    assert err.value.code == "already_seated"
    with pytest.raises(ServiceError) as err:
        services.join_game(gid, make_guest())
    assert err.value.code == "game_full"


def test_same_guest_cannot_take_the_other_seat():
    red = make_guest()
    game = services.create_game(red, variant="mini", seat=1)
    with pytest.raises(ServiceError) as err:
        services.join_game(game.public_id, red, seat=0)
    assert err.value.code == "already_seated"
    assert Game.objects.get(pk=game.pk).status == "waiting"


@pytest.mark.parametrize("seat", [2, -1, 5, True])
def test_a_seat_other_than_0_1_or_null_is_refused(seat):
    game = services.create_game(make_guest(), variant="mini", seat=0)
    with pytest.raises(ServiceError) as err:
        services.join_game(game.public_id, make_guest(), seat=seat)
    assert err.value.code == "bad_seat" and "0 (Red), 1 (Blue) or null" in err.value.message
    fresh = Game.objects.get(pk=game.pk)
    assert (fresh.status, fresh.version, fresh.blue_name) == ("waiting", game.version, "")
    with pytest.raises(ServiceError) as err:
        services.create_game(make_guest(), variant="mini", seat=seat)
    assert err.value.code == "bad_seat"


def test_taken_seat_is_refused():
    game = services.create_game(make_guest(), variant="mini", seat=0)
    with pytest.raises(ServiceError) as err:
        services.join_game(game.public_id, make_guest(), seat=0)
    assert err.value.code == "seat_taken"


def test_placement_events_hide_the_rank_from_others():
    gid, red, _ = seated_game()
    services.place_piece(gid, red, 7, engine.MARSHAL)
    event = GameEvent.objects.get(game__public_id=gid, kind="placed")
    assert event.red_payload["rank"] == engine.MARSHAL and event.red_payload["square"] == 7
    hidden = {"kind": "placed", "color": 0, "placed": 1}  # neither rank nor square
    assert event.blue_payload == event.observer_payload == hidden


def test_engine_errors_carry_code_and_change_nothing():
    gid, red, _ = seated_game()
    before = Game.objects.get(public_id=gid)
    with pytest.raises(ServiceError) as err:
        services.place_piece(gid, red, 20, engine.MARSHAL)  # Blue's rows
    assert err.value.code == "outside_setup_area"
    after = Game.objects.get(public_id=gid)
    assert (after.version, after.state) == (before.version, before.state)


def test_observer_cannot_act():
    gid, _, _ = seated_game()
    with pytest.raises(ServiceError) as err:
        services.place_piece(gid, make_guest(), 7, engine.MARSHAL)
    assert err.value.code == "not_a_player"
    with pytest.raises(ServiceError) as err:
        services.place_piece(gid, None, 7, engine.MARSHAL)
    assert err.value.code == "not_a_player"


def test_random_and_clear_setup():
    gid, red, _ = seated_game()
    services.place_piece(gid, red, 0, engine.FLAG)
    services.random_setup(gid, red, seed=3)
    game = Game.objects.get(public_id=gid)
    assert engine.Game.from_dict(game.state).is_setup_complete(engine.RED)
    event = game.events.get(kind="random_setup")
    assert len(event.red_payload["ranks"]) == 9 and event.blue_payload["placed"] == 10
    assert "squares" not in event.blue_payload and "squares" not in event.observer_payload
    services.clear_setup(gid, red)
    game.refresh_from_db()
    assert engine.Game.from_dict(game.state).initial_setups()[engine.RED] == {}


def test_ready_needs_a_full_setup_and_starts_the_game():
    gid, red, blue = seated_game()
    with pytest.raises(ServiceError) as err:
        services.ready(gid, red)
    assert err.value.code == "incomplete"
    gid, red, blue = set_up_game()
    game = Game.objects.get(public_id=gid)
    assert game.status == "playing" and game.started is not None


def test_moves_before_ready_are_refused():
    gid, red, _ = seated_game()
    with pytest.raises(ServiceError) as err:
        services.move(gid, red, 7, 12)
    assert err.value.code == "not_playing"


def test_a_short_game_to_the_flag():
    gid, red, blue = set_up_game()
    players = {0: red, 1: blue}
    with pytest.raises(ServiceError) as err:
        services.move(gid, blue, 15, 10)
    assert err.value.code == "not_your_turn"
    with pytest.raises(ServiceError) as err:
        services.move(gid, red, 15, 10)
    assert err.value.code == "not_your_piece"
    for color, frm, to in SHORT_GAME:
        services.move(gid, players[color], frm, to)
    game = Game.objects.get(public_id=gid)
    assert game.status == "finished"
    assert (game.winner, game.termination) == (0, "flag_captured")
    assert game.ply == 5
    moves = list(Move.objects.filter(game=game).order_by("ply"))
    assert [m.ply for m in moves] == [1, 2, 3, 4, 5]
    assert (moves[2].attacker_rank, moves[2].defender_rank, moves[2].battle_result) == (
        engine.MARSHAL,
        engine.SPY,
        "attacker",
    )
    assert moves[4].defender_rank == engine.FLAG
    with pytest.raises(ServiceError) as err:
        services.move(gid, blue, 15, 10)
    assert err.value.code == "game_not_active"


def test_resign_and_draw():
    gid, red, blue = set_up_game()
    services.offer_draw(gid, red)
    with pytest.raises(ServiceError) as err:
        services.answer_draw(gid, red, accept=True)
    assert err.value.code == "not_your_draw_offer"
    services.answer_draw(gid, blue, accept=False)
    services.offer_draw(gid, blue)
    services.answer_draw(gid, red, accept=True)
    game = Game.objects.get(public_id=gid)
    assert (game.status, game.winner, game.termination) == ("finished", None, "agreed_draw")

    gid, red, blue = set_up_game()
    services.resign(gid, blue)
    game = Game.objects.get(public_id=gid)
    assert (game.winner, game.termination) == (0, "resignation")


def test_resign_while_waiting_aborts():
    red = make_guest()
    game = services.create_game(red, variant="mini")
    services.resign(game.public_id, red)
    game.refresh_from_db()
    assert game.status == "aborted"


def test_versions_have_no_gaps():
    gid, _, _ = set_up_game()
    game = Game.objects.get(public_id=gid)
    versions = list(game.events.values_list("version", flat=True))
    assert versions == list(range(1, game.version + 1))
