"""Computer opponents on the server: a whole game against one over the real socket, a
computer-vs-computer game to watch, the restart, and that a computer never receives a
hidden identity."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games import computer, engine, services
from games.engine.players import Player
from games.models import Game, Move

from .conftest import adb, connect, make_guest, receive
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


def test_a_watched_game_frees_its_worker_between_moves(monkeypatch):
    """With a pause between two computers' moves, no worker waits through the pause: a timer
    kicks the game again (recorded here instead of waited for)."""
    later: list[str] = []
    monkeypatch.setattr(computer, "_later", lambda public_id, delay: later.append(public_id))
    computer.settings["watch_delay"] = 0.5
    game = computer.watch_computers("mini", "random", "random")
    steps = 0
    while True:
        assert computer.wait_idle(30)  # the worker is free although the game goes on
        game.refresh_from_db()
        if not game.is_active:
            break
        assert later and set(later) == {game.public_id}, "a paused game has its timer"
        later.clear()
        computer.kick(game.public_id)
        steps += 1
    assert game.status == "finished" and steps >= game.ply
