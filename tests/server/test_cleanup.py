"""The lobby sheds its ghosts. An untimed game every person left long ago
ends as abandoned (no result), sooner when its person played the computer; a waiting game
whose creator left is cancelled, and a game between two computers nobody watches stops; a
game somebody is in is never touched."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import services
from games.domain import clocks
from games.domain.models import BLUE, OBSERVER, RED, Game
from games.services import cleanup, computer, snapshots
from games.transport import presence
from stratego_site import scheduler

from .clocks import game, kinds, rewind, timed_game
from .conftest import make_guest

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_memory(monkeypatch):
    """No computer game seen yet, and no scheduler beside the test (the in-process tests
    never start one): its sweep, on its own connection, blind to this test's transaction,
    would take the test's games for finished ones and forget when they were last watched."""
    assert not scheduler.HEARTBEAT.thread
    cleanup.forget()
    yield
    cleanup.forget()


def both_left(gid: str) -> None:
    for color in (RED, BLUE):
        services.player_left(gid, color)


def test_an_untimed_game_both_players_left_long_ago_ends_abandoned():
    playing, _, _ = timed_game(None)
    in_setup, _, _ = timed_game(None, ready=None)
    for gid in (playing, in_setup):
        both_left(gid)
    assert cleanup.sweep() == 0  # just left: they may come back
    for gid in (playing, in_setup):
        rewind(gid, cleanup.GHOST_SECONDS + 1)
    assert cleanup.sweep() == 2
    for gid in (playing, in_setup):
        g = game(gid)
        assert (g.status, g.termination, g.winner) == ("aborted", "abandoned", None)
        assert kinds(gid)[-1] == "game_over"
        last = g.events.order_by("-version").first()
        assert last.observer_payload == {
            "kind": "game_over",
            "winner": None,
            "termination": "abandoned",
        }
    lists = snapshots.lobby_lists()
    assert not {playing, in_setup} & {g["id"] for g in lists["live"]}
    assert cleanup.sweep() == 0  # idempotent


def test_a_game_somebody_is_in_or_timed_is_left_alone():
    one_left, _, _ = timed_game(None)
    services.player_left(one_left, RED)  # Blue is still there: Blue may claim victory
    timed, _, _ = timed_game("5+3")
    both_left(timed)  # the clocks end a timed game
    back, _, _ = timed_game(None)
    both_left(back)
    for gid in (one_left, timed, back):
        rewind(gid, cleanup.GHOST_SECONDS + 1)
    presence.enter(back, "back-tab", RED)
    services.player_back(back, RED)
    cleanup.end_ghosts(clocks.now())
    assert [game(g).status for g in (one_left, timed, back)] == ["playing"] * 3


def test_a_waiting_game_whose_creator_left_long_ago_is_cancelled():
    red = make_guest("alone")
    gid = services.create_game(red, variant="mini").public_id
    services.player_left(gid, RED)
    assert cleanup.sweep() == 0
    rewind(gid, cleanup.GHOST_SECONDS + 1)
    assert cleanup.sweep() == 1
    assert (game(gid).status, game(gid).termination) == ("aborted", "aborted")


@pytest.fixture(autouse=True)
def computers_stay_still(monkeypatch):
    """The computers seated here are not woken: a random mini game they played on could end
    by itself before the sweep, which then had nothing to stop (a flaky test)."""
    monkeypatch.setattr(computer, "kick", lambda public_id: None)


def computers_game() -> str:
    game_ = services.create_game(computer.computer_identity("random", RED), "mini", seat=RED)
    services.join_game(game_.public_id, computer.computer_identity("random", BLUE), BLUE)
    return game_.public_id


def test_a_computer_game_nobody_watches_stops_after_a_few_minutes():
    watched, unwatched = computers_game(), computers_game()
    presence.enter(watched, "watcher", OBSERVER)
    t0 = clocks.now()
    assert cleanup.sweep(t0) == 0  # the count starts
    later = t0 + timedelta(seconds=cleanup.UNWATCHED_SECONDS - 5)
    assert cleanup.sweep(later) == 0
    presence.leave(watched, "watcher")  # the watcher leaves now: its count starts now
    end = t0 + timedelta(seconds=cleanup.UNWATCHED_SECONDS + 1)
    assert cleanup.sweep(end) == 1
    assert (game(unwatched).status, game(unwatched).termination) == ("aborted", "abandoned")
    assert game(watched).status == "setup"
    # last watched at `later`: it stops UNWATCHED_SECONDS after that, not before
    assert cleanup.sweep(later + timedelta(seconds=cleanup.UNWATCHED_SECONDS - 1)) == 0
    assert cleanup.sweep(later + timedelta(seconds=cleanup.UNWATCHED_SECONDS + 1)) == 1
    assert game(watched).termination == "abandoned"


def test_the_heartbeats_sweep_runs_the_cleanup():
    gid = computers_game()
    scheduler.sweep()
    assert cleanup.watched_at(Game.objects.get(public_id=gid).pk) is not None


def test_a_computer_game_its_person_left_ends_after_a_few_minutes():
    """Nobody else waits for it: it leaves the live list long before a people's game would."""
    short = cleanup.computer_ghost_seconds()
    assert 0 < short < cleanup.GHOST_SECONDS
    person = make_guest("gone")
    vs_computer = computer.play_vs_computer(person, "mini", "random", RED).public_id
    timed = computer.play_vs_computer(person, "mini", "random", BLUE, "5+3").public_id
    people, _, _ = timed_game(None)
    services.player_left(vs_computer, RED)
    services.player_left(timed, BLUE)
    both_left(people)
    t0 = clocks.now()
    assert cleanup.sweep(t0 + timedelta(seconds=short - 5)) == 0  # not before
    assert cleanup.sweep(t0 + timedelta(seconds=short + 1)) == 1
    assert (game(vs_computer).status, game(vs_computer).termination) == ("aborted", "abandoned")
    assert vs_computer not in {g["id"] for g in snapshots.lobby_lists()["live"]}
    # the people's game still waits the long time; the timed one ends by its clocks only
    assert cleanup.sweep(t0 + timedelta(seconds=cleanup.GHOST_SECONDS - 5)) == 0
    assert cleanup.sweep(t0 + timedelta(seconds=cleanup.GHOST_SECONDS + 1)) == 1
    assert game(people).termination == "abandoned" and game(timed).is_active


def test_the_wait_for_a_computer_games_person_is_a_setting(settings):
    settings.COMPUTER_GAME_GHOST_SECONDS = 60
    gid = computer.play_vs_computer(make_guest("brief"), "mini", "random", RED).public_id
    services.player_left(gid, RED)
    t0 = clocks.now()
    assert cleanup.sweep(t0 + timedelta(seconds=59)) == 0
    assert cleanup.sweep(t0 + timedelta(seconds=61)) == 1
