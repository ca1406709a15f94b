"""Time controls: Fischer clocks, the setup deadline and their enforcement on the server
(services under the row lock, the idempotent expire, the heartbeat's sweep, each socket's
check at the deadline)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import pytest

from games import engine, services
from games.domain import clocks
from games.domain.errors import ServiceError
from games.domain.models import Game, GameEvent, Move
from games.domain.options import SETUP_SECONDS, TimeControl
from stratego_site import scheduler

from .clocks import game, kinds, rewind, timed_game
from .conftest import SHORT_GAME, adb, connect, receive
from .helpers import race, wait_until

T0 = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


# ---------------------------------------------------------------- the arithmetic


def test_fischer_clock_arithmetic_with_increments():
    g = Game(status=Game.Status.PLAYING, ply=0)
    clocks.set_control(g, TimeControl(5, 3))
    clocks.start_play(g, at(0))
    assert clocks.running(g) == 0 and g.deadline == at(300)
    assert clocks.left_ms(g, 0, at(10)) == 290_000 and clocks.left_ms(g, 1, at(10)) == 300_000

    clocks.after_move(g, 0, at(10))  # Red thought 10 s: 300 - 10 + 3
    g.ply = 1
    assert g.red_clock_ms == 293_000 and g.deadline == at(310) and clocks.running(g) == 1
    clocks.after_move(g, 1, at(40.5))  # Blue thought 30.5 s: 300 - 30.5 + 3
    g.ply = 2
    assert g.blue_clock_ms == 272_500 and g.deadline == at(40.5 + 293)
    assert clocks.snapshot(g, at(41.5)) == {
        "control": "5+3",
        "remaining_ms": [292_000, 272_500],
        "running": 0,
        "setup_ms": None,
    }
    clocks.stop(g, at(50.5))  # the game ended on Red's turn: 10 s charged, no increment
    assert g.red_clock_ms == 283_000 and g.deadline is None and clocks.running(g) is None
    assert clocks.seconds_left(g, at(60)) is None


def test_the_setup_deadline_runs_for_both_and_an_untimed_game_has_none():
    timed = Game(status=Game.Status.SETUP)
    clocks.set_control(timed, TimeControl(10, 5))
    clocks.start_setup(timed, at(0))
    assert timed.deadline == at(SETUP_SECONDS) and not clocks.expired(timed, at(SETUP_SECONDS - 1))
    assert clocks.expired(timed, at(SETUP_SECONDS))
    assert clocks.snapshot(timed, at(60))["setup_ms"] == (SETUP_SECONDS - 60) * 1000
    untimed = Game(status=Game.Status.SETUP)
    clocks.set_control(untimed, None)
    clocks.start_setup(untimed, at(0))
    assert untimed.deadline is None and clocks.snapshot(untimed, at(0)) is None


@pytest.mark.django_db
def test_moves_through_the_services_charge_the_clock(monkeypatch):
    monkeypatch.setattr(clocks, "now", lambda: at(0))
    gid, red, blue = timed_game("5+3")
    assert game(gid).deadline == at(300)
    monkeypatch.setattr(clocks, "now", lambda: at(12))
    services.move(gid, red, *SHORT_GAME[0][1:])
    monkeypatch.setattr(clocks, "now", lambda: at(20))
    services.move(gid, blue, *SHORT_GAME[1][1:])
    g = game(gid)
    assert (g.red_clock_ms, g.blue_clock_ms) == (291_000, 295_000)
    assert g.deadline == at(20 + 291) and g.turn_started == at(20)


@pytest.mark.django_db
def test_a_move_that_arrived_in_time_counts_as_in_time_however_long_it_waited_to_lock(
    monkeypatch,
):
    """The action's time is when the service was called, not when the game row was free."""
    now = [at(0)]
    monkeypatch.setattr(clocks, "now", lambda: now[0])
    gid, red, blue = timed_game("5+3")  # Red's clock runs out at 300 s
    real_lock = services.unit.lock

    def after_a_queue(public_id: str):  # the row was busy (flag-fall checks, say) till 300.4 s
        now[0] = at(300.4)
        return real_lock(public_id)

    monkeypatch.setattr(services.unit, "lock", after_a_queue)  # what run() calls
    now[0] = at(299.9)  # the move arrives
    services.move(gid, red, *SHORT_GAME[0][1:])
    g = game(gid)
    assert (g.status, g.ply, g.red_clock_ms) == ("playing", 1, 100 + 3_000)
    assert g.turn_started == at(299.9) and g.deadline == at(299.9 + 300)


@pytest.mark.django_db
def test_the_move_that_ends_the_game_is_charged_without_the_increment(monkeypatch):
    monkeypatch.setattr(clocks, "now", lambda: at(0))
    gid, red, blue = timed_game("5+3")
    idents = (red, blue)
    for n, (color, frm, to) in enumerate(SHORT_GAME, start=1):  # one move every 10 s
        monkeypatch.setattr(clocks, "now", lambda n=n: at(10 * n))
        services.move(gid, idents[color], frm, to)
    g = game(gid)
    assert (g.status, g.winner, g.termination) == ("finished", 0, "flag_captured")
    # Red: 300 - 10 + 3 - 10 + 3, then 10 s for the capture and no increment; Blue: 2 moves.
    assert (g.red_clock_ms, g.blue_clock_ms) == (276_000, 286_000)
    assert g.deadline is None and g.finished == at(50)


# ---------------------------------------------------------------- enforcement


@pytest.mark.django_db
def test_a_late_move_ends_the_game_on_time_and_applies_nothing():
    gid, red, blue = timed_game("5+3")
    rewind(gid, 300.5)
    before = game(gid)
    with pytest.raises(ServiceError) as err:
        services.move(gid, red, *SHORT_GAME[0][1:])
    assert err.value.code == "time_out" and "you lost on time" in err.value.message
    after = game(gid)
    assert (after.status, after.winner, after.termination) == ("finished", 1, "time")
    assert after.ply == 0 and not Move.objects.filter(game=after).exists()
    assert after.version == before.version + 1 and kinds(gid)[-1] == "game_over"
    assert after.red_clock_ms == 0 and after.deadline is None
    assert engine.Game.from_dict(after.state).outcome == engine.Outcome(1, "time")
    with pytest.raises(ServiceError) as err:  # the winner's next action: the game is over
        services.move(gid, blue, *SHORT_GAME[1][1:])
    assert err.value.code == "game_not_active"


@pytest.mark.django_db
def test_any_action_checks_the_clock_first_and_tells_the_other_player():
    gid, red, blue = timed_game("5+3")
    rewind(gid, 301)
    with pytest.raises(ServiceError) as err:
        services.offer_draw(gid, blue)
    assert err.value.code == "time_out" and err.value.message.startswith("Red's time ran out")
    assert (game(gid).winner, game(gid).termination) == (1, "time")


@pytest.mark.django_db
def test_expire_does_nothing_before_the_deadline():
    gid, red, _ = timed_game("5+3")
    version = game(gid).version
    assert 290 < services.expire(gid) <= 300
    assert services.sweep_expired() == 0
    assert (game(gid).status, game(gid).version) == ("playing", version)
    assert services.expire("nosuchgame") is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_expire_is_idempotent_under_two_threads(attempt):
    gid, _, _ = timed_game("5+3")
    rewind(gid, 301)
    results = race(lambda: services.expire(gid), lambda: services.expire(gid))
    assert results == [None, None]  # neither failed (nor found a clock still running)
    ended = game(gid)
    assert (ended.status, ended.winner, ended.termination) == ("finished", 1, "time")
    assert GameEvent.objects.filter(game=ended, kind="game_over").count() == 1


@pytest.mark.django_db
def test_setup_deadline_the_player_not_ready_loses():
    gid, red, blue = timed_game("10+5", ready=(False, True))
    assert game(gid).status == "setup"
    rewind(gid, SETUP_SECONDS + 1)
    assert services.expire(gid) is None
    g = game(gid)
    assert (g.status, g.winner, g.termination) == ("finished", 1, "time")
    assert engine.Game.from_dict(g.state).outcome == engine.Outcome(1, "time")
    assert services.expire(gid) is None and kinds(gid).count("game_over") == 1


@pytest.mark.django_db
def test_setup_deadline_with_nobody_ready_aborts_the_game():
    gid, red, blue = timed_game("10+5", ready=None)
    rewind(gid, SETUP_SECONDS + 1)
    with pytest.raises(ServiceError) as err:
        services.ready(gid, red)
    assert err.value.code == "time_out" and "aborted" in err.value.message
    g = game(gid)
    assert (g.status, g.winner, g.termination) == ("aborted", None, "aborted")
    last = g.events.order_by("version").last()
    assert last.red_payload == {"kind": "game_over", "winner": None, "termination": "aborted"}


@pytest.mark.django_db
def test_untimed_games_never_expire():
    for ready in (None, (True, True)):
        gid, red, _ = timed_game(None, ready=ready)
        rewind(gid, 10 * 24 * 3600)
        version = game(gid).version
        assert game(gid).deadline is None and services.expire(gid) is None
        assert services.sweep_expired() == 0
        assert game(gid).version == version and game(gid).is_active
    services.move(gid, red, *SHORT_GAME[0][1:])
    assert game(gid).ply == 1


@pytest.mark.django_db
def test_bad_time_controls_are_refused_and_nothing_is_created():
    from .conftest import make_guest

    for value in ("7+0", "5", "5+3 ", 300, "UNTIMED"):
        with pytest.raises(ServiceError) as err:
            services.create_game(make_guest(), variant="mini", time_control=value)
        assert err.value.code == "bad_time_control" and "5+3" in err.value.message
    assert not Game.objects.exists()
    untimed = services.create_game(make_guest(), variant="mini", time_control="untimed")
    assert untimed.clock_base_ms is None


# ---------------------------------------------------------------- the scheduler


@pytest.mark.django_db(transaction=True)
def test_the_scheduler_ends_a_game_nobody_is_connected_to():
    playing, _, _ = timed_game("5+3")
    in_setup, _, _ = timed_game("5+3", ready=(True, False))
    fresh, _, _ = timed_game("5+3")
    for gid in (playing, in_setup):
        rewind(gid, SETUP_SECONDS + 1)
    scheduler.start()  # as the server process starts it; nobody is connected
    assert wait_until(lambda: not game(playing).is_active and not game(in_setup).is_active)
    scheduler.stop()
    assert (game(playing).winner, game(playing).termination) == (1, "time")
    assert (game(in_setup).winner, game(in_setup).termination) == (0, "time")
    assert game(fresh).status == "playing"
    assert sum(kinds(g).count("game_over") for g in (playing, in_setup, fresh)) == 2


# ---------------------------------------------------------------- sockets


@pytest.fixture
def no_sweep(monkeypatch):
    """The socket's own check is what these tests watch: no scheduler runs beside it (the
    in-process tests never start one)."""
    assert not scheduler.CLOCK.thread


@pytest.mark.django_db(transaction=True)
async def test_every_frame_carries_the_clock_for_every_role():
    gid, red, blue = await adb(timed_game)("5+3")
    sockets = [
        await connect(f"/ws/games/{gid}/", ident) for ident in (red, blue, None)
    ]  # Red, Blue, an anonymous observer
    states = [await receive(ws) for ws in sockets]
    for role, state in enumerate(states):
        clock = state["clock"]
        assert state["role"] == role and clock["control"] == "5+3" and clock["running"] == 0
        assert 290_000 < clock["remaining_ms"][0] <= 300_000 and clock["remaining_ms"][1] == 300_000
        assert state["game"]["time_control"] == {
            "id": "5+3",
            "base_ms": 300_000,
            "increment_ms": 3_000,
        }
    await sockets[0].send_json_to({"type": "move", "from": 7, "to": 12})
    for ws in sockets:
        moved = await receive(ws)
        assert moved["event"]["kind"] == "move" and moved["clock"]["running"] == 1
        assert moved["clock"]["remaining_ms"][0] > 300_000 - 60_000  # plus the increment
    for ws in sockets:
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_sockets_check_ends_the_game_and_both_players_see_it_unasked(caplog, no_sweep):
    caplog.set_level(logging.WARNING)
    gid, red, blue = await adb(timed_game)("5+3")
    # A tiny clock: Red has half a second left.
    await adb(rewind)(gid, 300 - 0.5)
    red_ws = await connect(f"/ws/games/{gid}/", red)
    blue_ws = await connect(f"/ws/games/{gid}/", blue)
    for ws in (red_ws, blue_ws):
        assert (await receive(ws))["type"] == "state"
    for ws in (red_ws, blue_ws):  # nobody sends anything
        frame = await receive(ws, timeout=10)
        while frame.get("event", {}).get("kind") != "game_over":
            frame = await receive(ws, timeout=10)
        assert frame["event"] == {"kind": "game_over", "winner": 1, "termination": "time"}
        assert frame["game"]["result"] == {"winner": 1, "termination": "time"}
        assert frame["clock"]["running"] is None and frame["clock"]["remaining_ms"][0] == 0
    count = await adb(GameEvent.objects.filter(game__public_id=gid, kind="game_over").count)()
    assert count == 1
    for ws in (red_ws, blue_ws):
        await ws.disconnect()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.django_db(transaction=True)
async def test_only_player_sockets_check_the_clock_and_a_closing_socket_cancels_it(
    monkeypatch, no_sweep
):
    """An observer schedules no check (one check per player, not one per watcher, falls on
    the row at the deadline); a check started is kept, and cancelled when the socket closes."""
    from games.transport import consumers

    opened: list[consumers.GameConsumer] = []
    real_connect = consumers.GameConsumer.connect

    async def connect_and_keep(self):
        opened.append(self)
        await real_connect(self)

    monkeypatch.setattr(consumers.GameConsumer, "connect", connect_and_keep)
    gid, red, blue = await adb(timed_game)("5+3")
    sockets = [await connect(f"/ws/games/{gid}/", ident) for ident in (red, blue, None)]
    for ws in sockets:
        await receive(ws)
    assert [c.role for c in opened] == [0, 1, 2]
    assert [c.check is not None for c in opened] == [True, True, False]

    calls: list[str] = []
    monkeypatch.setattr(services, "expire", calls.append)
    red_socket = opened[0]
    red_socket.start_check()  # the deadline came: the check starts ...
    task = red_socket.check_task
    assert task is not None and not task.done()
    await red_socket.disconnect(1000)  # ... and the socket closes before it ran
    assert task.cancelled() and red_socket.check_task is None and red_socket.check is None
    assert calls == []
    for ws in sockets:
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_late_move_over_the_socket_gets_time_out_and_the_end(no_sweep):
    gid, red, blue = await adb(timed_game)("5+3")
    red_ws = await connect(f"/ws/games/{gid}/", red)
    await receive(red_ws)
    await adb(rewind)(gid, 301)  # the socket's own check is still minutes away
    await red_ws.send_json_to({"type": "move", "from": 7, "to": 12})
    frames = [await receive(red_ws), await receive(red_ws)]
    error = next(f for f in frames if f["type"] == "error")
    assert (error["code"], error["request"]) == ("time_out", "move")
    end = next(f for f in frames if f["type"] == "event")
    assert end["event"]["termination"] == "time" and end["view"]["phase"] == "finished"
    await red_ws.disconnect()
