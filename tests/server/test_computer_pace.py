"""The computer's reply to a person is paced: it lands no sooner than COMPUTER_REPLY_DELAY
after the person's move, waits on a timer (never on a worker), and is dropped if the game
ends meanwhile. Its setup, and games between two computers, are not paced."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from games import engine, services
from games.domain import clocks
from games.domain.identity import Identity
from games.domain.models import BLUE, RED, Game, Move
from games.engine.player_interface import Player
from games.services import computer

from .conftest import make_guest
from .helpers import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fast_computers():
    computer.settings["watch_delay"] = 0.0
    yield
    assert computer.wait_idle(60), "a computer is still thinking after the test"
    computer.settings["watch_delay"] = computer.WATCH_DELAY


@pytest.fixture
def timers(monkeypatch) -> list[tuple[str, float, bool]]:
    """Every timer the computers start: (game, seconds, whether a worker still held the game)."""
    started: list[tuple[str, float, bool]] = []
    real = computer._start_timer

    def start_timer(public_id: str, delay: float) -> None:
        with computer._lock:
            started.append((public_id, delay, public_id in computer._busy))
        real(public_id, delay)

    monkeypatch.setattr(computer, "_start_timer", start_timer)
    return started


def game(public_id: str) -> Game:
    return Game.objects.get(public_id=public_id)


def person_against_computer(level: str = "random") -> tuple[str, Identity]:
    """A mini game in play: the person (Red) and the computer (Blue) ready, Red to move."""
    human = make_guest("pat")
    gid = computer.play_vs_computer(human, "mini", level, RED).public_id
    services.random_setup(gid, human)
    services.ready(gid, human)
    assert wait_until(lambda: game(gid).status == "playing", 20), "the computer set up"
    return gid, human


def person_moves(gid: str, human: Identity) -> None:
    src, dst = engine.Game.from_dict(game(gid).state).view(RED).legal_moves[0]
    services.move(gid, human, src, dst)


def test_a_reply_to_a_persons_move_lands_after_the_delay_on_a_timer(settings, timers):
    settings.COMPUTER_REPLY_DELAY = (0.3, 0.3)
    gid, human = person_against_computer()
    assert timers == []
    start = time.monotonic()
    person_moves(gid, human)
    assert wait_until(lambda: game(gid).ply == 2, 10), "the computer replied"
    assert time.monotonic() - start >= 0.3
    # the move was chosen at once, then waited for a timer while no worker held the game
    [(timed_gid, delay, busy)] = timers
    assert timed_gid == gid and 0 < delay <= 0.3 and not busy
    assert gid not in computer._held


def test_with_no_delay_the_computer_replies_at_once(settings, timers):
    settings.COMPUTER_REPLY_DELAY = (0.0, 0.0)
    gid, human = person_against_computer()
    person_moves(gid, human)
    assert wait_until(lambda: game(gid).ply == 2, 10)
    assert timers == [] and gid not in computer._held


class Slow(Player):
    """A bot that thinks `seconds` before each move."""

    def __init__(self, inner: Player, seconds: float) -> None:
        super().__init__()
        self.inner, self.seconds, self.name = inner, seconds, inner.name

    def start(self, color: int, variant: engine.Variant) -> None:
        super().start(color, variant)
        self.inner.start(color, variant)

    def setup(self) -> dict[int, int]:
        return self.inner.setup()

    def move(self, view: engine.View) -> engine.Move:
        time.sleep(self.seconds)
        return self.inner.move(view)


def test_the_thinking_counts_toward_the_delay(settings, timers, monkeypatch):
    """A level that thinks longer than the delay (expert) is not slowed further."""
    real = computer.get_player
    monkeypatch.setattr(computer, "get_player", lambda level, seed=None: Slow(real(level), 0.4))
    settings.COMPUTER_REPLY_DELAY = (0.3, 0.3)
    gid, human = person_against_computer()
    person_moves(gid, human)
    assert wait_until(lambda: game(gid).ply == 2, 10)
    assert timers == [], "the reply was due when the thinking ended: no pause after it"


def test_a_reply_is_dropped_when_the_person_resigns_during_the_delay(settings, timers):
    settings.COMPUTER_REPLY_DELAY = (1.0, 1.0)
    gid, human = person_against_computer()
    person_moves(gid, human)
    assert wait_until(lambda: timers, 10), "the reply waits for its timer"
    services.resign(gid, human)
    assert wait_until(lambda: gid not in computer._scheduled, 10), "the timer fired"
    assert computer.wait_idle(10)
    final = game(gid)
    assert (final.status, final.termination, final.winner) == ("finished", "resignation", BLUE)
    assert final.ply == 1 and Move.objects.filter(game=final).count() == 1
    assert gid not in computer._held


def test_the_computers_setup_is_not_delayed(settings, timers):
    settings.COMPUTER_REPLY_DELAY = (30.0, 30.0)
    start = time.monotonic()
    person_against_computer()  # Red, the person, moves first: the computer has only set up
    assert time.monotonic() - start < 20 and timers == []


def test_two_computers_are_not_paced_by_the_reply_delay(settings, timers):
    settings.COMPUTER_REPLY_DELAY = (30.0, 30.0)
    watched = computer.watch_computers("mini", "random", "random")
    assert wait_until(lambda: not game(watched.public_id).is_active, 120)
    final = game(watched.public_id)
    assert final.status == "finished" and final.ply > 2 and timers == []


def test_in_a_timed_game_the_pause_comes_out_of_the_computers_clock(settings):
    """The pause runs on the computer's clock: with little time left it shrinks like the
    thinking of a level that budgets from its clock."""
    settings.COMPUTER_REPLY_DELAY = (1.0, 1.0)
    start = clocks.now()
    roomy = Game(turn_started=start, clock_base_ms=300_000, blue_clock_ms=300_000)
    short = Game(turn_started=start, clock_base_ms=300_000, blue_clock_ms=2_000)
    untimed = Game(turn_started=start)
    assert computer.reply_due(roomy, BLUE, False) == start + timedelta(seconds=1)
    assert computer.reply_due(untimed, BLUE, False) == start + timedelta(seconds=1)
    assert start < computer.reply_due(short, BLUE, False) < start + timedelta(seconds=0.5)
    assert computer.reply_due(untimed, BLUE, True) >= start  # two computers: at once
    assert computer.reply_due(untimed, BLUE, True) < start + timedelta(seconds=1)
