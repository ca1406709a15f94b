"""Computer opponents on the server: a whole game against one over the real socket, a
computer-vs-computer game to watch, the restart, and that a computer never receives a
hidden identity."""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import time
from collections import OrderedDict

import pytest
from django.db import OperationalError, connections
from django.test import Client

from games import engine, services
from games.domain.models import Game, Move
from games.engine.player_interface import Player
from games.services import computer

from .conftest import RED_SETUP, B, F, M, S, adb, connect, make_guest, receive
from .helpers import seated_game, wait_until
from .leaks import assert_no_leak

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fast_computers():
    computer.settings["watch_delay"] = 0.0
    yield
    assert computer.wait_idle(60), "a computer is still thinking after the test"
    computer.settings["watch_delay"] = computer.WATCH_DELAY


class Spy(Player):
    """Wraps a bot and keeps every view (and every other argument) it is given."""

    seen: list[tuple[int, object]] = []

    def __init__(self, inner: Player) -> None:
        super().__init__()
        self.inner = inner
        self.name = inner.name

    def start(self, color: int, variant: engine.Variant) -> None:
        super().start(color, variant)
        self.inner.start(color, variant)

    def setup(self) -> dict[int, int]:
        return self.inner.setup()

    def move(self, view: engine.View) -> engine.Move:
        Spy.seen.append((self.color, view))
        return self.inner.move(view)


@pytest.fixture
def spied(monkeypatch):
    real = computer.get_player
    Spy.seen = []
    monkeypatch.setattr(computer, "get_player", lambda level, seed=None: Spy(real(level, seed)))
    return Spy.seen


def assert_view_hides_enemy(color: int, view: object) -> None:
    assert isinstance(view, engine.View) and view.viewer == color
    assert view.phase == "playing" and view.turn == color
    for piece in view.board:
        if piece is not None and piece.color != color:
            assert piece.rank is None or piece.revealed, "a computer saw a hidden rank"


async def play_until_over(ws, role: int, rng: random.Random) -> list[dict]:
    """Answer every turn of `role` with a random legal move until the game is over."""
    frames: list[dict] = []
    while True:
        frame = await receive(ws, timeout=20)
        assert frame["type"] != "error", frame
        assert_no_leak(frame, role)
        frames.append(frame)
        view = frame.get("view")
        if view is None:
            continue
        if view["phase"] == "finished":
            return frames
        if view["phase"] == "playing" and view["turn"] == role and view["legal_moves"]:
            src, dst = rng.choice(view["legal_moves"])
            # under the socket's flood limit (20 messages a second): the computer may answer
            # in a few milliseconds, and an instant reply to each would pass it
            await asyncio.sleep(0.06)
            await ws.send_json_to({"type": "move", "from": src, "to": dst})


async def test_a_whole_game_against_the_computer_over_the_socket(spied):
    human = await adb(make_guest)("alice")
    game = await adb(computer.play_vs_computer)(human, "mini", "hard", 0)
    gid = game.public_id
    ws = await connect(f"/ws/games/{gid}/", human)
    first = await receive(ws)
    assert first["role"] == 0 and first["game"]["seats"][1]["name"] == "Computer (hard)"
    await ws.send_json_to({"type": "random_setup"})
    await ws.send_json_to({"type": "ready"})
    frames = await play_until_over(ws, 0, random.Random(3))
    await ws.disconnect()
    assert computer.wait_idle(30)

    final = await adb(Game.objects.get)(public_id=gid)
    assert final.status == "finished" and final.termination
    moves = await adb(
        lambda: list(Move.objects.filter(game=final).values_list("color", flat=True))
    )()
    assert len(moves) == final.ply and set(moves) == {0, 1}  # both sides moved, all stored
    computer_moves = [
        f for f in frames if f.get("event", {}).get("kind") == "move" and f["event"]["color"] == 1
    ]
    assert computer_moves, "the computer's moves reach the person's socket"
    assert len(spied) == moves.count(1)
    for color, view in spied:
        assert color == 1
        assert_view_hides_enemy(color, view)


async def test_watch_computers_play_to_the_end_with_an_observer(spied):
    game = await adb(computer.watch_computers)("mini", "medium", "hard")
    watcher = await adb(make_guest)("watcher")
    ws = await connect(f"/ws/games/{game.public_id}/", watcher)
    frames = await play_until_over(ws, 2, random.Random(1))
    await ws.disconnect()
    assert frames[-1]["view"]["outcome"] is not None
    assert computer.wait_idle(30)
    final = await adb(Game.objects.get)(public_id=game.public_id)
    assert final.status == "finished" and final.ply == len(spied)
    assert {color for color, _ in spied} == {0, 1}
    for color, view in spied:
        assert_view_hides_enemy(color, view)


def test_computer_seats_are_marked_and_named():
    human = make_guest("bob")
    game = computer.play_vs_computer(human, "barrage", "medium", None)
    assert computer.wait_idle(30)
    game.refresh_from_db()
    seats = computer.computer_seats(game)
    assert list(seats.values()) == ["medium"]
    [color] = seats
    assert game.seat_name(color) == "Computer (medium)" and game.seat_name(1 - color) == "bob"
    state = engine.Game.from_dict(game.state)
    assert state.ready[color] and not state.ready[1 - color]  # it set up, through the services
    with pytest.raises(services.ServiceError):
        computer.play_vs_computer(human, "barrage", "grandmaster", 0)


def test_a_restart_resumes_a_computer_game(monkeypatch):
    human = make_guest("carol")
    game = services.create_game(human, variant="mini", seat=1)
    with monkeypatch.context() as patched:  # the server "crashes" before the computer acts
        patched.setattr(computer, "kick", lambda public_id: None)
        services.join_game(game.public_id, computer.computer_identity("hard", 0), 0)
        services.random_setup(game.public_id, human)
        services.ready(game.public_id, human)
    game.refresh_from_db()
    assert game.status == "setup"
    computer._resumed = False
    assert computer.resume_all() >= 1
    assert computer.wait_idle(30)
    game.refresh_from_db()
    assert game.status == "playing" and game.ply == 1  # it set up, Red's first move is made


def test_watch_opens_the_live_computer_game_before_starting_another(monkeypatch):
    monkeypatch.setattr(computer, "kick", lambda public_id: None)  # keep them at their setup
    first = computer.open_or_start_computer_game("barrage", "hard", "medium")
    again = computer.open_or_start_computer_game("barrage", "hard", "medium")
    other = computer.open_or_start_computer_game("barrage", "random", "medium")
    assert again.public_id == first.public_id and other.public_id != first.public_id
    assert computer.computer_seats(first) == {0: "hard", 1: "medium"}
    assert not first.private and first.status == "setup"


def test_the_lobby_forms_start_a_computer_game_and_a_watch_game():
    client = Client()
    assert client.post("/nickname/", {"nickname": "dave"}).status_code == 302
    lobby = client.get("/").content.decode()
    assert 'id="play-computer"' in lobby and 'id="watch-computers"' in lobby
    response = client.post(
        "/games/computer/play/", {"variant": "duel", "level": "hard", "seat": "1"}
    )
    assert response.status_code == 302
    game = Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])
    assert game.blue_name == "dave" and computer.computer_seats(game) == {0: "hard"}
    response = client.post(
        "/games/computer/watch/",
        {"variant": "barrage", "red_level": "hard", "blue_level": "medium"},
    )
    watched = Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])
    assert computer.computer_seats(watched) == {0: "hard", 1: "medium"}
    assert client.get(response["Location"]).status_code == 200
    bad = client.post("/games/computer/play/", {"variant": "duel", "level": "godlike", "seat": "0"})
    assert bad.status_code == 302 and bad["Location"] == "/"


def refreshed(game: Game) -> Game:
    game.refresh_from_db()
    return game


def test_a_watched_game_waits_for_its_timer_without_holding_a_worker():
    computer.settings["watch_delay"] = 0.3
    game = computer.watch_computers("mini", "random", "random")
    gid = game.public_id

    def paused() -> bool:
        with computer._lock:
            return gid in computer._scheduled and gid not in computer._busy

    assert wait_until(paused), "between two moves the game waits for a timer, on no worker"
    computer.settings["watch_delay"] = 0.0  # the pending timer goes on with the game
    assert wait_until(lambda: not refreshed(game).is_active, 120)
    assert game.status == "finished"


def test_a_timer_firing_before_the_worker_is_done_does_not_stop_the_game(monkeypatch):
    """The race: the worker used to start the pause's timer before its bookkeeping; a timer
    that fired first found the game busy, and its kick was dropped: the game stopped. The
    bookkeeping is slowed down here, and the pause made short, to make that certain."""
    computer.settings["watch_delay"] = 0.005
    real_forget = computer._forget_finished

    def slow_forget(public_id: str) -> None:
        time.sleep(0.05)
        real_forget(public_id)

    monkeypatch.setattr(computer, "_forget_finished", slow_forget)
    game = computer.watch_computers("mini", "random", "random")
    assert wait_until(lambda: not refreshed(game).is_active, 180), (
        f"the game stopped at ply {game.ply} ({game.status})"
    )
    assert game.status == "finished" and game.ply > 2


@pytest.fixture
def fast_retries(monkeypatch):
    monkeypatch.setattr(computer, "RETRY_DELAY", 0.01)
    monkeypatch.setattr(computer, "MAX_RETRIES", 3)


def computer_to_move(human_seat: int = 1) -> Game:
    """A mini game: the person set up and ready; the computer (Red) sets up, then moves."""
    human = make_guest("erin")
    game = services.create_game(human, variant="mini", seat=human_seat)
    services.random_setup(game.public_id, human)
    services.ready(game.public_id, human)
    services.join_game(game.public_id, computer.computer_identity("random", 0), 0)
    return game


def failing_move(monkeypatch, times: int | None) -> list:
    """services.move fails `times` times (None: always) with a database error."""
    calls: list = []
    real = computer.move

    def move(*args):
        calls.append(args)
        if times is None or len(calls) <= times:
            raise OperationalError("server closed the connection unexpectedly")
        return real(*args)

    monkeypatch.setattr(computer, "move", move)
    return calls


def test_a_failure_is_retried_after_a_pause_and_then_the_computer_moves(
    monkeypatch, fast_retries, caplog
):
    caplog.set_level(logging.INFO, logger="games.services.computer")
    calls = failing_move(monkeypatch, times=2)
    game = computer_to_move()
    assert wait_until(lambda: refreshed(game).ply == 1), "the computer moved in the end"
    assert computer.wait_idle(30)
    assert len(calls) == 3
    text = caplog.text
    assert "retry 1 of 3" in text and "retry 2 of 3" in text and "retry 3" not in text
    assert "OperationalError" in text and "gave up" not in text
    assert game.public_id not in computer._failures


def test_a_computer_that_keeps_failing_gives_up_and_the_next_kick_starts_again(
    monkeypatch, fast_retries, caplog
):
    caplog.set_level(logging.INFO, logger="games.services.computer")
    real_move = computer.move
    calls = failing_move(monkeypatch, times=None)
    game = computer_to_move()
    assert wait_until(lambda: "gave up after 4 failures" in caplog.text)
    assert computer.wait_idle(30)
    with computer._lock:
        assert game.public_id not in computer._scheduled  # no timer left: no loop
    assert len(calls) == 4 and refreshed(game).ply == 0  # the first try and three retries
    assert not [r for r in caplog.records if r.exc_info and r.levelno >= logging.WARNING]
    monkeypatch.setattr(computer, "move", real_move)  # the database is back
    computer.kick(game.public_id)  # e.g. a socket connecting
    assert wait_until(lambda: refreshed(game).ply == 1)


class Fixed(Player):
    def __init__(self, setup: dict[int, int]) -> None:
        super().__init__()
        self.name = "fixed"
        self.fixed = setup

    def setup(self) -> dict[int, int]:
        return dict(self.fixed)


OTHER_RED_SETUP = {4: F, 3: B, 8: B, 2: B, 0: S, 1: engine.MINER, 5: engine.CAPTAIN,
                   6: M, 7: engine.COLONEL, 9: engine.MAJOR}  # fmt: skip


def test_two_processes_setting_up_one_computer_seat_never_mix_their_setups():
    for _ in range(4):
        gid, red, _ = seated_game()
        barrier = threading.Barrier(2)
        errors: list[str] = []

        def set_up(setup: dict, gid: str = gid, red=red, barrier=barrier, errors=errors) -> None:
            try:
                barrier.wait()
                computer.set_up(gid, red, 0, Fixed(setup))
            except services.ServiceError as exc:
                errors.append(exc.code)
            finally:
                connections.close_all()

        threads = [threading.Thread(target=set_up, args=(s,)) for s in (RED_SETUP, OTHER_RED_SETUP)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        state = engine.Game.from_dict(Game.objects.get(public_id=gid).state)
        assert state.ready[0], errors
        assert state.setups[0] in (RED_SETUP, OTHER_RED_SETUP), "two setups mixed"
        assert errors in ([], ["already_ready"])


def test_bots_of_games_that_never_finish_do_not_pile_up(monkeypatch):
    monkeypatch.setattr(computer, "_players", OrderedDict())
    monkeypatch.setattr(computer, "MAX_PLAYERS", 2)
    people = [make_guest(f"p{i}") for i in range(3)]
    games = []
    for person in people:  # one after the other: two computer workers could swap their order
        games.append(computer.play_vs_computer(person, "mini", "random", 0))
        assert computer.wait_idle(30)
    keys = list(computer._players)
    assert len(keys) == 2 and keys == [(g.public_id, 1) for g in games[1:]]  # the oldest went
    services.resign(games[2].public_id, people[2])
    assert computer.wait_idle(30)
    assert list(computer._players) == [(games[1].public_id, 1)]  # a game over forgets its bot


def test_watch_past_the_limit_opens_a_game_of_the_variant_asked_for(monkeypatch):
    monkeypatch.setattr(computer, "kick", lambda public_id: None)  # keep them at their setup
    monkeypatch.setattr(computer, "MAX_WATCH_GAMES", 2)
    classic = computer.open_or_start_computer_game("classic", "random", "random")
    barrage = computer.open_or_start_computer_game("barrage", "hard", "medium")
    assert computer.open_or_start_computer_game("classic", "hard", "medium") == classic
    assert computer.open_or_start_computer_game("barrage", "random", "hard") == barrage
    assert computer.open_or_start_computer_game("duel", "hard", "hard") == barrage  # the newest
    assert computer.live_computer_games().count() == 2
