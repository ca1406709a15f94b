"""A guest who signs up keeps their games: their seats become the account's through the
services' unit of work, as any change to a game: under the game's row lock, versioned (a
`renamed` event for a game still on) and announced after the commit."""

from __future__ import annotations

import pytest
from rated_games import SHORT_GAME, account, guest, playing, race

from games import services
from games.domain.errors import ServiceError
from games.domain.identity import identity_token
from games.domain.models import BLUE, RED, Game
from games.services.signals import game_changed
from games.services.snapshots import pushed_frames


@pytest.fixture
def announced():
    """The Results that game_changed announced (after each commit)."""
    results = []

    def receiver(sender, result, **kwargs):
        results.append(result)

    game_changed.connect(receiver)
    yield results
    game_changed.disconnect(receiver)


@pytest.mark.django_db
def test_a_game_in_play_is_handed_over_versioned_and_announced(
    announced, django_capture_on_commit_callbacks
):
    me, friend = guest("wanderer"), account("friend")
    gid = playing(me, friend, rated=False)
    before = Game.objects.get(public_id=gid).version
    settled = account("settled")

    with django_capture_on_commit_callbacks(execute=True) as after_commit:
        assert services.adopt_guest_games(me.session_key, settled) == 1
    assert after_commit  # announced only once committed

    game = Game.objects.get(public_id=gid)
    assert (game.red_user_id, game.red_session, game.red_name) == (settled.user_id, "", "settled")
    assert game.version == before + 1
    event = game.events.get(version=game.version)
    assert event.kind == "renamed"
    assert (
        event.red_payload
        == event.observer_payload
        == {
            "kind": "renamed",
            "seat": RED,
            "name": "settled",
        }
    )
    [result] = [r for r in announced if r.game.public_id == gid]
    assert [e.kind for e in result.events] == ["renamed"] and result.lobby
    # a socket of the account (another tab) reads its new seat, as after `seated`
    frames = pushed_frames(game, list(result.events))
    assert frames[RED]["seated"] == [identity_token(settled)]

    # the account plays on; the guest session no longer holds the seat
    color, frm, to = SHORT_GAME[0]
    assert color == RED
    services.move(gid, settled, frm, to)
    with pytest.raises(ServiceError) as refused:
        services.move(gid, me, SHORT_GAME[2][1], SHORT_GAME[2][2])
    assert refused.value.code == "not_a_player"


@pytest.mark.django_db
def test_a_finished_game_changes_hands_without_an_event_and_others_are_left_alone():
    me, other = guest("wanderer"), guest("passer")
    finished = playing(other, me, rated=False)
    services.resign(finished, me)
    elsewhere = services.create_game(other, variant="mini", seat=RED)
    version = Game.objects.get(public_id=finished).version

    settled = account("settled")
    assert services.adopt_guest_games(me.session_key, settled) == 1
    game = Game.objects.get(public_id=finished)
    assert (game.blue_user_id, game.blue_name) == (settled.user_id, "settled")
    assert game.version == version
    assert (game.red_user_id, game.red_name) == (None, "passer")
    assert Game.objects.get(pk=elsewhere.pk).red_session == other.session_key
    assert services.adopt_guest_games(me.session_key, settled) == 0  # nothing left to hand over
    assert services.adopt_guest_games(None, settled) == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_handing_over_while_the_opponent_moves_is_serialised_by_the_row_lock(attempt):
    friend, me = account(), guest("wanderer")
    gid = playing(friend, me, rated=False)  # Red (the account) to move
    color, frm, to = SHORT_GAME[0]
    settled = account()

    results = race(
        lambda: services.move(gid, friend, frm, to),
        lambda: services.adopt_guest_games(me.session_key, settled),
    )
    assert results[1] == 1 and isinstance(results[0], int)
    game = Game.objects.get(public_id=gid)
    assert game.ply == 1 and game.blue_user_id == settled.user_id
    versions = list(game.events.order_by("version").values_list("version", flat=True))
    assert versions == list(range(1, game.version + 1))  # one numbered event after the other
    kinds = list(game.events.order_by("-version").values_list("kind", flat=True)[:2])
    assert sorted(kinds) == ["move", "renamed"]
    assert SHORT_GAME[1][0] == BLUE
    services.move(gid, settled, *SHORT_GAME[1][1:])  # the account answers as Blue
    assert Game.objects.get(public_id=gid).ply == 2
