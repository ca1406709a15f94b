"""Computer opponents on the server: they take a seat and act through the same services as a
person, so their setups and moves are validated, stored and broadcast like anyone else's.

- A computer seat has its level in the seat's field (`red_computer`, `blue_computer`); it also
  keeps the guest session key ``computer:<level>:<color>`` its identity acts with (no user,
  no real session can have that key), named "Computer (<level>)".
- It only ever gets ``engine.Game.view(color)``: exactly the view a person in that seat gets.
- Its thinking runs in a small worker-thread pool, never on the event loop. `kick(game_id)`
  asks the pool to let any computer act whose turn it is (its setup, or its move); it runs
  after every commit of a game with a computer seat (`on_game_changed`, wired in
  games/reactions.py), sockets call it when they connect, so a restarted server resumes
  computer games as soon as anyone looks at them (and `resume_all()` kicks every active
  computer game, once per process, from the lobby).
- Against a person, its move lands no sooner than the site's COMPUTER_REPLY_DELAY after the
  person's (`reply_due`): a move that appears the instant one lets go of a piece reads as a
  glitch. Its thinking counts toward the pause, and the worker never sleeps through it: the
  chosen move is kept (`_held`) and a timer kicks the game when it is due.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import NamedTuple

from django.conf import settings as site_settings
from django.db import connections
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from .. import engine
from ..bots import LEVELS, get_player
from ..bots.expert import clock_budget
from ..domain import clocks, words
from ..domain.errors import ServiceError
from ..domain.identity import Identity
from ..domain.models import BLUE, RED, Game
from ..engine.player_interface import Player
from .play import move
from .seats import check_variant, create_game, join_game
from .setup_phase import ready, submit_setup
from .unit import computer_level
from .work import Result

logger = logging.getLogger(__name__)

PREFIX = "computer:"
WATCH_DELAY = 0.8  # seconds between moves when two computers play, so people can follow
THINK_WORKERS = 2
MAX_WATCH_GAMES = 4  # live computer-vs-computer games at most; then the lobby opens one
MAX_PLAYERS = 200  # bots kept in memory (two per game at most); the least recently used go
RETRY_DELAY = 1.0  # seconds before the first retry after a failure (a database error...)
RETRY_MAX_DELAY = 30.0  # the backoff doubles up to this
MAX_RETRIES = 5  # then the computer waits for the next kick (a move, a socket connecting)

_executor = ThreadPoolExecutor(max_workers=THINK_WORKERS, thread_name_prefix="computer")
_lock = threading.Lock()
_busy: set[str] = set()
_again: set[str] = set()
_scheduled: set[str] = set()  # games waiting for a timer: a pause between moves, or a retry
_failures: dict[str, int] = {}  # failures in a row, per game
_players: OrderedDict[tuple[str, int], Player] = OrderedDict()  # least recently used first
_resumed = False
_current = threading.local()  # the game a worker thread is acting for
settings = {"watch_delay": WATCH_DELAY}


class Held(NamedTuple):
    """A move chosen for one turn (the game's ply), to be played at `due`."""

    ply: int
    color: int
    src: int
    dst: int
    due: datetime


_held: dict[str, Held] = {}  # per game: a reply to a person, chosen, waiting for its time


# ---------------------------------------------------------------- seats
def check_level(level: str) -> None:
    if level not in LEVELS:
        raise ServiceError("bad_level", _("Unknown computer level %(level)r.") % {"level": level})


def computer_identity(level: str, color: int) -> Identity:
    check_level(level)
    return Identity(
        user_id=None,
        session_key=f"{PREFIX}{level}:{color}",
        name=words.stored_computer_name(level),
        computer=level,
    )


def seat_level(game: Game, color: int) -> str | None:
    """The level of the computer in `color`'s seat, or None if a person (or nobody) sits there."""
    return computer_level(game, color) or None


def computer_seat_q(color: int) -> Q:
    """In SQL, what seat_level says: games whose `color` seat is the computer."""
    prefix = "red" if color == RED else "blue"
    return ~Q(**{f"{prefix}_computer": ""})


def computer_seats(game: Game) -> dict[int, str]:
    seats = {color: seat_level(game, color) for color in (RED, BLUE)}
    return {color: level for color, level in seats.items() if level is not None}


def play_vs_computer(
    ident: Identity | None,
    variant: str,
    level: str,
    seat: int | None,
    time_control: str | None = None,
    rated: bool = False,
) -> Game:
    """A new game: the person in `seat` (None: random), the computer of `level` opposite.
    Untimed unless a time control is chosen; then the computer's thinking counts too.
    Rated (an account only): the level's rating and the person's both count it."""
    check_level(level)
    game = create_game(ident, variant=variant, seat=seat, time_control=time_control, rated=rated)
    human = RED if game.seat_taken(RED) else BLUE
    join_game(game.public_id, computer_identity(level, 1 - human), 1 - human)
    game.refresh_from_db()  # the services woke the computer when it sat down
    return game


def live_computer_games(variant: str | None = None) -> QuerySet:
    """Active games with computers in both seats, newest first."""
    games = Game.objects.exclude(status__in=[Game.Status.FINISHED, Game.Status.ABORTED]).filter(
        red_session__startswith=PREFIX,
        blue_session__startswith=PREFIX,
        red_user=None,
        blue_user=None,
    )
    if variant is not None:
        games = games.filter(variant=variant)
    return games.order_by("-created")


def open_or_start_computer_game(variant: str, red_level: str, blue_level: str) -> Game:
    """The lobby's "Watch computers play": a live game with these levels if there is one,
    else a new one (or, past MAX_WATCH_GAMES live ones, the newest of them)."""
    check_variant(variant)  # before it reaches a query (a NUL byte is a 500 there)
    check_level(red_level)
    check_level(blue_level)
    same = live_computer_games(variant).filter(
        red_session=computer_identity(red_level, RED).session_key,
        blue_session=computer_identity(blue_level, BLUE).session_key,
    )
    existing = same.first()
    if existing is None and live_computer_games().count() >= MAX_WATCH_GAMES:
        # as close to the request as there is: the same variant, else any
        existing = live_computer_games(variant).first() or live_computer_games().first()
    if existing is not None:
        kick(existing.public_id)
        return existing
    return watch_computers(variant, red_level, blue_level)


def watch_computers(variant: str, red_level: str, blue_level: str) -> Game:
    """A new public game between two computers, for people to watch."""
    check_level(red_level)
    check_level(blue_level)
    game = create_game(computer_identity(red_level, RED), variant=variant, seat=RED)
    join_game(game.public_id, computer_identity(blue_level, BLUE), BLUE)
    game.refresh_from_db()  # the services woke the computers as they sat down
    return game


# ---------------------------------------------------------------- acting
def act(public_id: str) -> float | None:
    """Let one computer of this game do its next step (its setup, or its move). None if none
    had anything to do, 0 if one did, else the seconds until the move it chose may be played
    (a reply to a person waits for `reply_due`; the move is kept for then)."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None or not game.is_active:
        return None
    seats = computer_seats(game)
    if not seats:
        return None
    state = engine.Game.from_dict(game.state)
    for color, level in seats.items():
        ident = computer_identity(level, color)
        if state.phase == engine.SETUP and not state.ready[color]:
            set_up(public_id, ident, color, _player(public_id, color, level, state.variant))
            return 0.0
        if (
            game.status == Game.Status.PLAYING
            and state.phase == engine.PLAYING
            and state.turn == color
        ):
            view = state.view(color)  # all the computer is ever shown
            held = _held.get(public_id)
            if (
                held is None
                or (held.ply, held.color) != (game.ply, color)
                or (held.src, held.dst) not in view.legal_moves
            ):
                player = _player(public_id, color, level, state.variant)
                budget_from_clock(player, game, color)
                src, dst = choose_move(player, view)
                held = Held(game.ply, color, src, dst, reply_due(game, color, len(seats) == 2))
            wait = (held.due - clocks.now()).total_seconds()
            if wait > 0:
                _held[public_id] = held
                return wait
            _held.pop(public_id, None)
            move(public_id, ident, held.src, held.dst)
            return 0.0
    return None


def choose_move(player: Player, view: engine.View) -> tuple[int, int]:
    """The player's move; a random legal one if the player fails (a bug must not stall a game)."""
    try:
        move = player.move(view)
        if not isinstance(move, engine.Move):
            raise TypeError(f"not a move: {move!r}")
        if (move.src, move.dst) in view.legal_moves:
            return move.src, move.dst
        logger.error("computer %s chose an illegal move %s", player.name, move)
    except Exception:
        logger.exception("computer %s failed to move", player.name)
    return random.choice(view.legal_moves)


def reply_delay() -> float:
    """Seconds a computer's reply to a person takes at least: a random time in the site's
    COMPUTER_REPLY_DELAY (low, high)."""
    low, high = getattr(site_settings, "COMPUTER_REPLY_DELAY", (0.0, 0.0))
    return random.uniform(low, high) if high > 0 else 0.0


def reply_due(game: Game, color: int, two_computers: bool) -> datetime:
    """When `color`'s move may be played: against a person, `reply_delay` after the turn
    began (the person's move, or the start of play), so the thinking counts toward it; in a
    timed game no longer than the clock allows the thinking, since the pause runs on the
    computer's clock. Two computers: at once (the watch delay paces them)."""
    start = game.turn_started
    if two_computers or start is None:
        return clocks.now()
    delay = reply_delay()
    if game.is_timed:
        delay = min(delay, clock_budget(game.clock_ms(color), game.clock_increment_ms, delay))
    return start + timedelta(seconds=delay)


def budget_from_clock(player: Player, game: Game, color: int) -> None:
    """A player that thinks to a time budget (`expert`) budgets from its clock in a timed
    game: a share of the time left plus the increment, never more than its default."""
    default = getattr(player, "default_budget", None)
    if default is None:
        return
    timed = game.is_timed
    remaining, increment = game.clock_ms(color), game.clock_increment_ms
    player.budget = clock_budget(remaining, increment, default) if timed else default  # type: ignore[attr-defined]


def set_up(public_id: str, ident: Identity, color: int, player: Player) -> None:
    """The computer submits its whole army in one transaction, then is ready. (Two processes
    setting up the same seat at once: the later setup replaces the earlier one whole, and the
    second `ready` is refused; piece by piece, they would mix.)"""
    submit_setup(public_id, ident, player.setup())
    ready(public_id, ident)


def _player(public_id: str, color: int, level: str, variant: engine.Variant) -> Player:
    key = (public_id, color)
    with _lock:
        player = _players.get(key)
        if player is not None and player.name == level:
            _players.move_to_end(key)
            return player
    player = get_player(level)
    player.start(color, variant)
    with _lock:
        _players[key] = player
        while len(_players) > MAX_PLAYERS:  # games left unfinished must not pile up
            _players.popitem(last=False)
    return player


# ---------------------------------------------------------------- scheduling
def kick(public_id: str) -> None:
    """Let the computers of this game act, off the event loop; cheap if there is nothing to do."""
    if getattr(_current, "public_id", None) == public_id:
        return  # the computer's own action committed: its worker already decides what is next
    with _lock:
        if public_id in _scheduled:
            return  # a timer kicks it after its pause: a watch delay, a paced reply, a retry
        if public_id in _busy:
            _again.add(public_id)
            return
        _busy.add(public_id)
    _executor.submit(_work, public_id)


def _work(public_id: str) -> None:
    """Act while a computer of this game has something to do. Between two computers' moves,
    and while a reply to a person waits for its time, the worker is released and a timer
    kicks the game again, so a game never holds a worker while it waits; a failure is
    retried the same way, later and a bounded number of times."""
    _current.public_id = public_id
    pause: float | None = None  # set: a timer kicks the game again after this many seconds
    try:
        while True:
            outcome, wait = _act_safely(public_id)
            if outcome == FAILED:
                pause = _retry_delay(public_id)
                return
            _failures.pop(public_id, None)
            if outcome == WAITING:
                pause = wait
                return
            if outcome == ACTED:
                if settings["watch_delay"] > 0 and _two_computers(public_id):
                    pause = settings["watch_delay"]
                    return
            elif not _take_again(public_id):
                return
    finally:
        _current.public_id = None
        _forget_finished(public_id)
        connections.close_all()  # this worker thread's connections only
        with _lock:
            again = public_id in _again and pause is None  # with a pause, the timer kicks
            _again.discard(public_id)
            if pause is not None:
                # Scheduled before the game stops being busy: a kick from now on (the timer's
                # too, however early it fires) waits for the timer or finds the game free.
                # (Started from the loop, the timer could fire while the game was still busy;
                # its kick was then recorded in _again and dropped here: the game stopped.)
                _scheduled.add(public_id)
            if not again:
                _busy.discard(public_id)
        if pause is not None:
            _start_timer(public_id, pause)
        elif again:  # a kick came in after we last looked: go round once more
            _executor.submit(_work, public_id)


ACTED, IDLE, FAILED, WAITING = "acted", "idle", "failed", "waiting"


def _act_safely(public_id: str) -> tuple[str, float]:
    """The outcome of one step, and with WAITING the seconds to wait."""
    try:
        wait = act(public_id)
    except ServiceError as exc:  # a person acted meanwhile; look again
        logger.info("computer in %s: %s", public_id, exc.message)
        return IDLE, 0.0
    except Exception as exc:
        _failures[public_id] = _failures.get(public_id, 0) + 1
        logger.warning(
            "computer in %s failed (%d in a row): %r", public_id, _failures[public_id], exc
        )
        logger.debug("computer in %s: the failure", public_id, exc_info=True)
        return FAILED, 0.0
    if wait is None:
        return IDLE, 0.0
    return (WAITING, wait) if wait > 0 else (ACTED, 0.0)


def _retry_delay(public_id: str) -> float | None:
    """The backoff before the next try after a failure, or None: give up until a kick."""
    failures = _failures.get(public_id, 0)
    if failures > MAX_RETRIES:
        _failures.pop(public_id, None)
        logger.error(
            "computer in %s gave up after %d failures in a row; it acts again on the next"
            " move or connection in this game",
            public_id,
            failures,
        )
        return None
    delay = min(RETRY_DELAY * 2 ** (failures - 1), RETRY_MAX_DELAY)
    logger.warning(
        "computer in %s: retry %d of %d in %.1fs", public_id, failures, MAX_RETRIES, delay
    )
    return delay


def _start_timer(public_id: str, delay: float) -> None:
    """Kick this game again after `delay` seconds; the caller has put it in _scheduled."""
    timer = threading.Timer(delay, _timer_kick, args=(public_id,))
    timer.daemon = True
    timer.start()


def _timer_kick(public_id: str) -> None:
    with _lock:
        _scheduled.discard(public_id)
    kick(public_id)


def _take_again(public_id: str) -> bool:
    with _lock:
        if public_id in _again:
            _again.discard(public_id)
            return True
        return False


def _two_computers(public_id: str) -> bool:
    try:
        game = (
            Game.objects.filter(public_id=public_id)
            .only("red_session", "blue_session", "red_user", "blue_user")
            .first()
        )
    except Exception as exc:  # no pause this time; a failing next step is retried
        logger.warning("computer in %s: could not look at the seats: %r", public_id, exc)
        return False
    return game is not None and len(computer_seats(game)) == 2


def _forget_finished(public_id: str) -> None:
    """Drop the bots of a game that is over (or gone). Never raises: it runs in the worker's
    `finally`, whose bookkeeping must always happen."""
    try:
        game = Game.objects.filter(public_id=public_id).only("status").first()
        over = game is None or not game.is_active
    except Exception as exc:
        logger.warning("computer in %s: could not look at the game: %r", public_id, exc)
        return
    if over:
        with _lock:
            for color in (RED, BLUE):
                _players.pop((public_id, color), None)
            _held.pop(public_id, None)
        _failures.pop(public_id, None)


def resume_all() -> int:
    """Kick every active game with a computer seat (after a restart). Once per process."""
    global _resumed
    if _resumed:
        return 0
    _resumed = True
    active = Game.objects.exclude(status__in=[Game.Status.FINISHED, Game.Status.ABORTED])
    games = active.filter(computer_seat_q(RED) | computer_seat_q(BLUE))
    count = 0
    for game in games:
        kick(game.public_id)
        count += 1
    return count


def wait_idle(timeout: float = 30.0) -> bool:
    """For tests and shutdown: wait until no computer is thinking. True if idle in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with _lock:
            if not _busy:
                return True
        time.sleep(0.02)
    return False


def on_game_changed(result: Result) -> None:
    """After a unit of work committed: a computer seated in the game takes its turn."""
    game = result.game
    if game.red_computer or game.blue_computer:
        kick(game.public_id)  # (looked up at each call: tests replace `kick`)
