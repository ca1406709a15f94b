"""Abandonment: a player gone (no socket) for ABANDON_SECONDS may be claimed against, in an
untimed game or during setup; a return cancels it; a computer never abandons."""

from __future__ import annotations

import logging

import pytest

from games import services
from games.domain.errors import ServiceError
from games.domain.models import Game, Presence
from games.domain.options import ABANDON_SECONDS
from games.services import absence, computer
from games.transport import presence
from stratego_site import scheduler

from .clocks import game, kinds, rewind, timed_game
from .conftest import BLUE_SETUP, RED_SETUP, adb, connect, make_guest, receive

pytestmark = pytest.mark.django_db

# The wall clock runs on between a rewind and the claim that follows it: on a loaded machine
# that took more than a second once, and a claim meant to come 1 s early came on time.
MARGIN = 10


def open_socket(public_id: str, role: int, name: str) -> None:
    """A socket of `role` connects (what the game consumer does, without the socket)."""
    presence.enter(public_id, name, role)


def close_socket(public_id: str, name: str) -> None:
    presence.leave(public_id, name)


def claim_error(public_id: str, ident) -> ServiceError:
    version = game(public_id).version
    with pytest.raises(ServiceError) as err:
        services.claim_victory(public_id, ident)
    assert game(public_id).version == version and game(public_id).is_active
    return err.value


def test_a_claim_is_refused_while_the_opponent_is_connected_or_before_the_time():
    gid, red, blue = timed_game(None)
    open_socket(gid, 1, "blue-tab")
    rewind(gid, 3600)
    assert claim_error(gid, red).code == "opponent_connected"

    close_socket(gid, "blue-tab")
    absent = game(gid).events.order_by("version").last()
    assert absent.kind == "absent" and absent.observer_payload["seat"] == 1
    assert absent.observer_payload["claimable_at"] is not None
    error = claim_error(gid, red)
    assert error.code == "claim_too_early" and "in 60 s" in error.message

    rewind(gid, ABANDON_SECONDS - MARGIN)
    assert claim_error(gid, red).code == "claim_too_early"
    rewind(gid, MARGIN)
    services.claim_victory(gid, red)
    won = game(gid)
    assert (won.status, won.winner, won.termination) == ("finished", 0, "forfeit")
    assert kinds(gid)[-2:] == ["absent", "game_over"]


def test_a_return_cancels_the_claim_and_a_new_absence_starts_over():
    gid, red, blue = timed_game(None)
    open_socket(gid, 1, "blue-tab")
    close_socket(gid, "blue-tab")
    rewind(gid, ABANDON_SECONDS + 5)
    open_socket(gid, 1, "blue-again")  # back before Red claimed
    assert kinds(gid)[-2:] == ["absent", "present"] and game(gid).blue_left is None
    assert claim_error(gid, red).code == "opponent_connected"
    close_socket(gid, "blue-again")
    assert claim_error(gid, red).code == "claim_too_early"


def test_two_tabs_one_closed_is_no_absence():
    gid, red, blue = timed_game(None)
    open_socket(gid, 1, "tab-1")
    open_socket(gid, 1, "tab-2")
    close_socket(gid, "tab-1")
    assert "absent" not in kinds(gid) and game(gid).blue_left is None
    close_socket(gid, "tab-2")
    assert kinds(gid)[-1] == "absent"


def test_a_claim_during_the_setup_of_a_timed_game_and_none_in_its_play():
    gid, red, blue = timed_game("5+3", ready=None)
    open_socket(gid, 1, "blue-tab")
    close_socket(gid, "blue-tab")
    rewind(gid, ABANDON_SECONDS)
    services.claim_victory(gid, red)
    assert (game(gid).winner, game(gid).termination) == (0, "forfeit")

    gid, red, blue = timed_game("5+3")
    open_socket(gid, 1, "blue-tab-2")
    close_socket(gid, "blue-tab-2")
    rewind(gid, ABANDON_SECONDS)
    rewind_clock_only = game(gid).deadline  # Red's clock still runs: the clock decides
    assert rewind_clock_only is not None and claim_error(gid, red).code == "timed_game"


def test_time_spent_waiting_for_an_opponent_does_not_count():
    red = make_guest("red")
    created = services.create_game(red, variant="mini", seat=0)
    open_socket(created.public_id, 0, "red-tab")
    close_socket(created.public_id, "red-tab")  # left while nobody had joined: no event
    assert kinds(created.public_id) == ["seated"]
    rewind(created.public_id, 3600)
    blue = make_guest("blue")
    services.join_game(created.public_id, blue)
    assert claim_error(created.public_id, blue).code == "claim_too_early"
    rewind(created.public_id, ABANDON_SECONDS)
    services.claim_victory(created.public_id, blue)
    assert game(created.public_id).winner == 1


def test_a_claim_against_a_computer_or_nobody_is_refused():
    human = make_guest("human")
    vs = computer.play_vs_computer(human, "mini", "random", 0)  # no commit hook: it sleeps
    rewind(vs.public_id, 3600)
    assert claim_error(vs.public_id, human).code == "computer_opponent"
    alone = make_guest("alone")
    waiting = services.create_game(alone, variant="mini")
    assert claim_error(waiting.public_id, alone).code == "no_opponent"


def test_a_claim_by_an_observer_or_a_stranger_is_refused():
    gid, red, blue = timed_game(None)
    open_socket(gid, 1, "blue-tab")
    close_socket(gid, "blue-tab")
    rewind(gid, ABANDON_SECONDS)
    for ident in (None, make_guest("stranger")):
        assert claim_error(gid, ident).code == "not_a_player"
    assert claim_error(gid, blue).code == "opponent_connected"  # Red never left


def test_a_seat_nobody_ever_connected_to_becomes_claimable_by_the_sweep():
    gid, red, blue = timed_game(None, ready=None)
    assert claim_error(gid, red).code == "opponent_connected"  # not known to be gone yet
    open_socket(gid, 0, "red-tab")
    scheduler.sweep()
    assert "absent" not in kinds(gid)  # the setup is not ABANDON_SECONDS old yet
    rewind(gid, ABANDON_SECONDS)
    scheduler.sweep()
    assert kinds(gid)[-1] == "absent" and game(gid).red_left is None
    services.claim_victory(gid, red)
    assert (game(gid).winner, game(gid).termination) == (0, "forfeit")


def test_the_sweep_fetches_no_game_whose_only_socketless_seat_is_the_computer():
    """Computer seats never have sockets: the sweep's query leaves out games where nothing
    but a computer is unconnected, in SQL, and reads a few columns (not the engine state)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    human = make_guest("human")
    vs = computer.play_vs_computer(human, "mini", "random", 0)  # no commit hook: it sleeps
    open_socket(vs.public_id, 0, "human-tab")  # the person is here
    nobody, _, _ = timed_game(None, ready=None)  # two people who never connected
    for gid in (vs.public_id, nobody):
        rewind(gid, 3600)
    with CaptureQueriesContext(connection) as queries:
        found = absence.never_connected()
    assert sorted((gid, color) for gid, color, _ in found) == [(nobody, 0), (nobody, 1)]
    [select] = [q["sql"] for q in queries if '"games_game"' in q["sql"]]
    assert '"games_game"."state"' not in select and '"games_game"."red_computer" = ' in select
    assert vs.public_id not in {row["public_id"] for row in absence.never_connected_rows()}


def test_a_dead_processs_player_rows_count_as_gone_once_purged():
    gid, red, blue = timed_game(None)
    rewind(gid, 3600)  # the setup began long before the crash
    g = game(gid)
    from datetime import timedelta

    from django.utils import timezone

    seen = timezone.now() - timedelta(seconds=presence.TTL_SECONDS + 5)
    Presence.objects.create(game=g, channel_name="dead", role=1, instance="crashed", seen=seen)
    assert claim_error(gid, red).code == "opponent_connected"
    assert presence.beat() == 1
    assert game(gid).blue_left == seen and kinds(gid)[-1] == "absent"
    services.claim_victory(gid, red)  # gone since its last heartbeat, over a minute ago
    assert game(gid).winner == 0


def test_a_seat_with_several_stale_rows_is_gone_since_the_latest():
    """Blue had several tabs on processes that died: gone since the last one was seen."""
    from datetime import timedelta

    from django.utils import timezone

    gid, red, blue = timed_game(None)
    rewind(gid, 3600)
    g = game(gid)
    oldest = timezone.now() - timedelta(seconds=presence.TTL_SECONDS + 60)
    seen = [oldest + timedelta(seconds=i) for i in range(10)]
    for i, when in enumerate(seen):
        Presence.objects.create(game=g, channel_name=f"t{i}", role=1, instance="x", seen=when)
    assert presence.beat() == 10
    assert game(gid).blue_left == max(seen) and kinds(gid).count("absent") == 1


def test_a_live_process_puts_back_its_sockets_rows_and_its_player_is_present_again():
    """A process that stalled past the TTL (or lost the database that long) had its rows
    purged by another process's beat, and its player marked gone; its next beat puts back the
    rows of the sockets it holds, and the seat is present again."""
    from datetime import timedelta

    from django.utils import timezone

    gid, red, blue = timed_game(None)
    open_socket(gid, 1, "blue-tab")  # this process holds Blue's socket and a watcher's
    open_socket(gid, 2, "watcher-tab")
    stalled = timezone.now() - timedelta(seconds=presence.TTL_SECONDS + 5)
    Presence.objects.filter(game__public_id=gid).update(seen=stalled)
    presence.purge_stale()  # what another process's beat does meanwhile
    assert not Presence.objects.filter(game__public_id=gid).exists()
    assert game(gid).blue_left == stalled and kinds(gid)[-1] == "absent"

    presence.beat()  # this process beats again
    rows = Presence.objects.filter(game__public_id=gid)
    assert {(r.channel_name, r.role, r.instance) for r in rows} == {
        ("blue-tab", 1, presence.INSTANCE),
        ("watcher-tab", 2, presence.INSTANCE),
    }
    assert all(r.seen > stalled for r in rows) and presence.observers(game(gid).pk) == 1
    assert game(gid).blue_left is None and kinds(gid)[-1] == "present"
    assert claim_error(gid, red).code == "opponent_connected"
    presence.beat()  # nothing more to say
    assert kinds(gid)[-1] == "present" and kinds(gid).count("present") == 1
    close_socket(gid, "blue-tab")  # a real leave still counts
    assert kinds(gid)[-1] == "absent" and not Presence.objects.filter(role=1).exists()


def test_a_beat_never_brings_back_a_socket_that_left():
    gid, red, blue = timed_game(None)
    open_socket(gid, 1, "blue-tab")
    close_socket(gid, "blue-tab")
    presence.beat()
    assert not Presence.objects.filter(game__public_id=gid).exists()
    assert game(gid).blue_left is not None and kinds(gid)[-1] == "absent"


# ---------------------------------------------------------------- sockets


@pytest.mark.django_db(transaction=True)
async def test_over_the_socket_everybody_learns_who_left_and_the_claim(caplog, monkeypatch):
    assert not scheduler.HEARTBEAT.thread  # no sweep beside the test
    caplog.set_level(logging.WARNING)
    gid, red, blue = await adb(timed_game)(None)
    red_ws = await connect(f"/ws/games/{gid}/", red)
    blue_ws = await connect(f"/ws/games/{gid}/", blue)
    watcher = await connect(f"/ws/games/{gid}/", await adb(make_guest)("watcher"))
    for ws in (red_ws, blue_ws, watcher):
        state = await receive(ws)
        assert state["game"]["away"] == [None, None] and state["clock"] is None
    await blue_ws.disconnect()
    for ws in (red_ws, watcher):
        frame = await receive(ws)
        assert frame["event"]["kind"] == "absent" and frame["event"]["seat"] == 1
        away = frame["game"]["away"]
        assert away[0] is None and 0 < away[1]["claim_ms"] <= ABANDON_SECONDS * 1000
    await red_ws.send_json_to({"type": "claim_victory"})
    error = await receive(red_ws)
    assert (error["code"], error["request"]) == ("claim_too_early", "claim_victory")
    await watcher.send_json_to({"type": "claim_victory"})
    assert (await receive(watcher))["code"] == "not_a_player"

    await adb(rewind)(gid, ABANDON_SECONDS)
    blue_ws = await connect(f"/ws/games/{gid}/", blue)  # back in time: the claim is off
    for ws in (red_ws, watcher):
        frame = await receive(ws)
        assert frame["event"] == {"kind": "present", "seat": 1}
        assert frame["game"]["away"] == [None, None]
    await receive(blue_ws)
    await blue_ws.disconnect()
    await receive(red_ws)
    await adb(rewind)(gid, ABANDON_SECONDS)
    await red_ws.send_json_to({"type": "claim_victory"})
    end = await receive(red_ws)
    assert end["event"] == {"kind": "game_over", "winner": 0, "termination": "forfeit"}
    assert end["game"]["status"] == "finished" and end["game"]["away"] == [None, None]
    for ws in (red_ws, watcher):
        await ws.disconnect()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_game_rows_of_a_finished_game_ignore_later_leaves():
    gid, red, blue = timed_game(None)
    services.resign(gid, blue)
    open_socket(gid, 1, "blue-tab")
    close_socket(gid, "blue-tab")
    assert kinds(gid)[-1] == "game_over" and Game.objects.get(public_id=gid).blue_left is None


def test_a_player_gone_before_the_opponent_joined_is_announced_and_counts_from_the_setup():
    """Red sets up, readies and closes the tab; an hour later Blue joins, sets up and readies.
    The hour of waiting never counts: not in setup, not once the game is in play."""
    red, blue = make_guest("red"), make_guest("blue")
    gid = services.create_game(red, variant="mini", seat=0).public_id
    services.submit_setup(gid, red, RED_SETUP)
    services.ready(gid, red)
    open_socket(gid, 0, "red-tab")
    close_socket(gid, "red-tab")  # while waiting: no event yet
    assert "absent" not in kinds(gid)
    rewind(gid, 3600)
    services.join_game(gid, blue)
    absent = game(gid).events.order_by("version").last()  # the game left waiting without Red
    assert absent.kind == "absent" and absent.observer_payload["seat"] == 0
    g = game(gid)
    assert absent.observer_payload["since"] == g.setup_started.isoformat()
    services.submit_setup(gid, blue, BLUE_SETUP)
    services.ready(gid, blue)
    assert game(gid).status == "playing"
    assert claim_error(gid, blue).code == "claim_too_early"
    rewind(gid, ABANDON_SECONDS - MARGIN)
    assert claim_error(gid, blue).code == "claim_too_early"
    rewind(gid, MARGIN)
    services.claim_victory(gid, blue)
    assert (game(gid).winner, game(gid).termination) == (1, "forfeit")
