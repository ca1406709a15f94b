"""Creating, entering and running events through the services, on PostgreSQL: refusals with
their codes, admin actions, a whole Swiss with a computer level, rated games through the
normal rating path, forfeits for absence and for an illegal move."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games import engine, services
from games.domain.errors import ServiceError
from games.domain.identity import Identity
from games.domain.models import BLUE, RED, Game
from games.transport import presence
from players.models import Rating, RatingChange
from tournaments import entries, events, scheduler
from tournaments.errors import TournamentError
from tournaments.models import Entrant, Tournament

from .helpers import account, event, lose, play_round_out, seat_identity

pytestmark = pytest.mark.django_db


def refused(code: str, call, *args, **kwargs) -> None:  # noqa: ANN001
    with pytest.raises(TournamentError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value


def later(minutes: float):  # noqa: ANN201 - a datetime
    return timezone.now() + timedelta(minutes=minutes)


def test_refusals_have_clear_codes():
    alice, bob, stranger = account("alice"), account("bob"), account("stranger")
    swiss = event(alice, rating_min=1600, rating_max=2000)
    refused("account_needed", entries.enter, swiss.pk, AnonymousUser())
    refused("account_needed", events.create, AnonymousUser(), events.Settings(name="Nope"))
    refused("rating_out_of_range", entries.enter, swiss.pk, bob)  # a newcomer is 1500
    Rating.objects.create(user=bob, variant="mini", rating=1700)
    entries.enter(swiss.pk, bob)
    refused("already_entered", entries.enter, swiss.pk, bob)
    refused("not_allowed", events.edit, swiss.pk, stranger, events.settings_of(swiss))
    refused("not_allowed", entries.add_computer, swiss.pk, stranger, "random")
    refused("not_allowed", events.cancel, swiss.pk, stranger)
    refused("bad_rounds", event, alice, rounds=0)
    refused("bad_start", event, alice, starts_at=later(-10))
    refused("bad_time_control", event, alice, format="arena", time_control="")
    refused("bad_level", entries.add_computer, swiss.pk, alice, "godlike")
    Rating.objects.create(user=stranger, variant="mini", rating=1650)
    entries.add_computer(swiss.pk, alice, "random")
    entries.enter(swiss.pk, stranger)
    scheduler.sweep(later(6))
    swiss.refresh_from_db()
    assert swiss.status == "running"
    latecomer = account("late")
    Rating.objects.create(user=latecomer, variant="mini", rating=1800)
    refused("already_started", entries.enter, swiss.pk, latecomer)
    refused("already_started", events.edit, swiss.pk, alice, events.settings_of(swiss))


def test_private_events_need_the_invitation_code():
    alice, bob = account("alice"), account("bob")
    private = event(alice, private=True, rated=False)
    refused("invitation_needed", entries.enter, private.pk, bob)
    refused("invitation_needed", entries.enter, private.pk, bob, "wrong")
    assert entries.enter(private.pk, bob, private.invite_code).name == "bob"


def test_creator_edits_admin_features_removes_and_cancels():
    alice, bob, admin = account("alice"), account("bob"), account("admin", staff=True)
    swiss = event(alice)
    chosen = events.settings_of(swiss)
    chosen.rounds, chosen.name = 3, "Friday Swiss (3 rounds)"
    events.edit(swiss.pk, alice, chosen)
    refused("not_allowed", events.feature, swiss.pk, alice)
    events.feature(swiss.pk, admin)
    entrant = entries.enter(swiss.pk, bob)
    entries.remove(swiss.pk, admin, entrant.pk)
    refused("not_allowed", entries.enter, swiss.pk, bob)  # removed by an admin
    events.cancel(swiss.pk, alice)
    swiss.refresh_from_db()
    assert (swiss.rounds, swiss.name, swiss.featured, swiss.status) == (
        3, "Friday Swiss (3 rounds)", True, "cancelled")  # fmt: skip
    refused("event_over", entries.enter, swiss.pk, account("carol"))


def test_withdrawing_before_the_start_removes_the_entry_and_after_keeps_the_games():
    alice, bob, carol = account("alice"), account("bob"), account("carol")
    swiss = event(alice, rounds=2, rated=False)
    swiss.grace_seconds = 3600
    swiss.save()
    for who in (alice, bob, carol):
        entries.enter(swiss.pk, who)
    entries.withdraw(swiss.pk, carol)
    assert not Entrant.objects.filter(user=carol).exists()
    refused("not_entered", entries.withdraw, swiss.pk, carol)
    entries.enter(swiss.pk, carol)
    scheduler.sweep(later(6))
    play_round_out(swiss, 1)
    entries.withdraw(swiss.pk, bob)
    scheduler.sweep(later(8))
    second = list(swiss.pairings.filter(round=2))
    assert all(bob.pk not in (p.red.user_id, p.blue and p.blue.user_id) for p in second)
    assert swiss.pairings.filter(round=1).count() == 2  # the games played stay


def test_a_rated_swiss_with_a_computer_runs_to_the_end():
    alice, bob, carol = account("alice"), account("bob"), account("carol")
    swiss = event(alice, rounds=2)
    swiss.grace_seconds = 3600
    swiss.save()
    for who in (alice, bob, carol):
        entries.enter(swiss.pk, who)
    entries.add_computer(swiss.pk, alice, "random")
    scheduler.sweep(later(1))
    assert Tournament.objects.get().status == "upcoming"  # not before its time
    scheduler.sweep(later(6))
    swiss.refresh_from_db()
    assert (swiss.status, swiss.current_round) == ("running", 1)
    first = list(swiss.pairings.filter(round=1))
    assert len(first) == 2
    for pairing in first:
        game = pairing.game
        assert game.status == Game.Status.SETUP and game.rated and game.variant == "mini"
        assert game.seat_taken(RED) and game.seat_taken(BLUE)
    play_round_out(swiss, 1, loser=BLUE)
    scheduler.sweep(later(6.1))  # the round is complete: its pause begins
    swiss.refresh_from_db()
    assert swiss.current_round == 1 and swiss.next_round_at is not None
    scheduler.sweep(swiss.next_round_at + timedelta(seconds=1))
    swiss.refresh_from_db()
    second = list(swiss.pairings.filter(round=2))
    assert swiss.current_round == 2 and len(second) == 2
    met = {frozenset((p.red_id, p.blue_id)) for p in first}
    assert not any(frozenset((p.red_id, p.blue_id)) in met for p in second)
    play_round_out(swiss, 2, loser=RED)
    scheduler.sweep(later(30))
    scheduler.sweep(later(31))
    swiss.refresh_from_db()
    assert swiss.status == "finished"
    table = list(swiss.entrants.order_by("place"))
    assert [e.place for e in table][0] == 1 and sum(e.points for e in table) == 4
    humans = [e for e in table if e.user_id]
    assert all(e.rating_start == 1500 and e.rating_end != 1500 for e in humans)
    counted = RatingChange.objects.filter(game__pairing__tournament=swiss)
    assert counted.count() == 2 * 4  # every game, once per side (a computer level is rated too)
    assert Rating.objects.filter(computer="random", variant="mini", games=2).exists()


def test_an_absent_player_forfeits_after_the_grace_and_two_absent_lose_both():
    alice, bob, carol, dan = (account(n) for n in ("alice", "bob", "carol", "dan"))
    swiss = event(alice, rounds=1, rated=False, starts_at=timezone.now())
    for who in (alice, bob, carol, dan):
        entries.enter(swiss.pk, who)
    scheduler.sweep()
    one, two = swiss.pairings.filter(round=1)
    present = seat_identity(one.game, RED)
    presence.arrive(one.game.public_id, "test-channel-1", present)
    scheduler.sweep()  # within the grace: nothing happens; the red seat was seen
    one.refresh_from_db()
    assert one.red_seen and not one.blue_seen and one.red_score is None
    presence.leave(one.game.public_id, "test-channel-1")
    scheduler.sweep(later(1.1))  # the grace (60 s) is over
    one.refresh_from_db()
    two.refresh_from_db()
    assert (one.red_score, one.blue_score, one.note) == (1.0, 0.0, "forfeit")
    assert (one.game.status, one.game.winner, one.game.termination) == ("finished", RED, "forfeit")
    assert (two.red_score, two.blue_score, two.note) == (0.0, 0.0, "aborted")


def started_game(swiss: Tournament) -> Game:
    pairing = swiss.pairings.get()
    game = pairing.game
    for color in (RED, BLUE):
        services.random_setup(game.public_id, seat_identity(game, color), seed=color)
        services.ready(game.public_id, seat_identity(game, color))
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    return game


def test_an_illegal_move_forfeits_an_event_game_and_is_only_refused_elsewhere():
    alice, bob = account("alice"), account("bob")
    swiss = event(alice, rounds=1, rated=False)
    entries.enter(swiss.pk, alice)
    entries.enter(swiss.pk, bob)
    scheduler.sweep(later(6))
    game = started_game(swiss)
    empty = next(sq for sq in range(25) if not engine.Game.from_dict(game.state).board[sq])
    services.move(game.public_id, seat_identity(game, RED), empty, empty + 1)
    game.refresh_from_db()
    assert (game.status, game.winner, game.termination) == ("finished", BLUE, "forfeit")
    assert swiss.pairings.get().blue_score == 1.0
    # out of turn is a race, not an irregularity: refused as always
    other = services.create_game(seat_identity(game, RED), variant="mini")
    services.join_game(other.public_id, seat_identity(game, BLUE))
    with pytest.raises(ServiceError):
        services.move(other.public_id, seat_identity(game, RED), empty, empty + 1)


def test_an_arena_pairs_free_players_at_once_and_counts_streaks():
    players = [account(n) for n in ("alice", "bob", "carol", "dan")]
    arena = event(players[0], format="arena", time_control="5+3", minutes=30, rated=False)
    arena.grace_seconds = 3600
    arena.save()
    for who in players:
        entries.enter(arena.pk, who)
    scheduler.sweep(later(6))
    first = list(arena.pairings.all())
    assert len(first) == 2
    lose(first[0], BLUE)
    scheduler.sweep(later(6.1))  # the two just met, the others play: they wait
    assert arena.pairings.count() == 2
    entries.enter(arena.pk, account("erin"))  # an arena may be joined while it runs
    scheduler.sweep(later(6.2))  # the winner meets the newcomer at once
    newest = arena.pairings.order_by("id").last()
    assert (newest.red_id, newest.blue.name) == (first[0].red_id, "erin")
    lose(first[1], BLUE)
    scheduler.sweep(later(6.3))
    third = arena.pairings.order_by("id").last()
    assert (third.red_id, third.blue_id) == (first[1].red_id, first[0].blue_id)
    scheduler.sweep(later(40))  # the window is over: no new games; the last ones finish
    for pairing in arena.pairings.filter(red_score=None):
        lose(pairing, BLUE)
    scheduler.sweep(later(40))
    arena.refresh_from_db()
    assert arena.status == "finished"
    assert sorted(e.points for e in arena.entrants.all()) == [0, 0, 0, 4, 4]


def test_an_event_game_of_two_computers_is_played_out_unwatched_and_an_abandoned_one_counts():
    from games.services import cleanup

    alice, bob = account("alice"), account("bob")
    robin = event(alice, format="round_robin", rated=False, starts_at=timezone.now())
    for level in ("random", "medium"):
        entries.add_computer(robin.pk, alice, level)
    swiss = event(alice, rounds=1, rated=False, starts_at=timezone.now())
    entries.enter(swiss.pk, alice)
    entries.enter(swiss.pk, bob)
    Tournament.objects.update(grace_seconds=3600)
    scheduler.sweep()
    computers, people = robin.pairings.get(), swiss.pairings.get()
    cleanup.forget()
    cleanup.sweep(timezone.now())
    cleanup.sweep(later(4))  # past the unwatched limit: an event's game goes on
    computers.game.refresh_from_db()
    assert computers.game.is_active
    for color in (RED, BLUE):  # both people left the untimed game half an hour ago
        services.player_left(people.game.public_id, color, since=later(-31))
    cleanup.sweep(timezone.now())
    people.refresh_from_db()
    assert (people.game.termination, people.red_score, people.blue_score) == (
        "abandoned", 0.0, 0.0)  # fmt: skip


def test_a_player_waiting_in_too_many_games_is_seated_all_the_same(settings):
    settings.RATE_LIMIT_SCALE = 1  # three waiting games at most
    alice, bob, carol = account("alice"), account("bob"), account("carol")
    for who in (alice, bob):
        for _ in range(3):
            services.create_game(Identity(who.pk, None, who.username), variant="mini")
    first = event(carol, rounds=1, rated=False, starts_at=timezone.now())
    second = event(carol, rounds=1, rated=False, starts_at=timezone.now())
    for who in (alice, carol):
        entries.enter(first.pk, who)
    for who in (alice, bob):
        entries.enter(second.pk, who)
    scheduler.sweep()
    game = first.pairings.get().game  # opened with Carol seated first, Alice joining
    assert game.seat_taken(RED) and game.seat_taken(BLUE) and game.status == "setup"
    both = second.pairings.get()  # neither may open a game: no game, lost by both
    assert (both.game, both.red_score, both.blue_score, both.note) == (None, 0.0, 0.0, "refused")


def test_an_arena_withdraws_a_player_who_was_not_there_until_they_enter_again():
    alice, bob, carol = account("alice"), account("bob"), account("carol")
    arena = event(alice, format="arena", time_control="5+3", minutes=30, rated=False,
                  starts_at=timezone.now())  # fmt: skip
    for who in (alice, bob, carol):
        entries.enter(arena.pk, who)
    scheduler.sweep()
    (pairing,) = arena.pairings.all()
    presence.arrive(pairing.game.public_id, "test-channel-2", seat_identity(pairing.game, RED))
    scheduler.sweep()
    presence.leave(pairing.game.public_id, "test-channel-2")
    scheduler.sweep(later(1.1))  # Blue never came: forfeited, and withdrawn
    pairing.refresh_from_db()
    gone = Entrant.objects.get(pk=pairing.blue_id)
    assert (pairing.red_score, pairing.blue_score) == (1.0, 0.0) and gone.withdrawn is not None
    scheduler.sweep(later(1.2))  # the winner meets the third player, not the absent one
    newest = arena.pairings.order_by("id").last()
    assert gone.pk not in (newest.red_id, newest.blue_id) and newest.pk != pairing.pk
    entries.enter(arena.pk, gone.user)  # back in
    assert Entrant.objects.get(pk=gone.pk).withdrawn is None
