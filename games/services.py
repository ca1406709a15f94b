"""The actions on a game. Each one is one transaction that locks the game row.

Pattern: lock the row, load the engine from `state`, let the engine decide, save the state,
write the numbered events (one payload per role) and the Move row, and nudge the game's group
(and the lobby) after the commit. Any refusal raises ServiceError and changes nothing.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from datetime import datetime

from django.db import transaction

from . import clocks, engine, match, options, presence, snapshots
from .broadcast import nudge_game_on_commit, nudge_lobby_on_commit, publish_on_commit
from .errors import ServiceError
from .identity import Identity, holds_seat, role_of
from .models import BLUE, OBSERVER, RED, Game, GameEvent, Move, left_field

VARIANT_NAMES = ("classic", "barrage", "duel", "mini")
COLOR_NAMES = {RED: "Red", BLUE: "Blue"}


# ---------------------------------------------------------------- helpers


def engine_error(exc: Exception) -> ServiceError:
    code = getattr(exc, "code", None) or "illegal"
    message = getattr(exc, "message", None) or str(exc)
    return ServiceError(str(code), str(message))


def lock(public_id: str) -> Game:
    game = Game.objects.select_for_update().filter(public_id=public_id).first()
    if game is None:
        raise ServiceError("not_found", "There is no such game.")
    return game


def load(game: Game) -> engine.Game:
    return engine.Game.from_dict(game.state)


def player_color(game: Game, ident: Identity | None) -> int:
    role = role_of(game, ident)
    if role == OBSERVER:
        raise ServiceError("not_a_player", "Observers cannot act in this game.")
    if not game.is_active:
        raise ServiceError("game_not_active", "This game is over.")
    return role


def emit(game: Game, kind: str, red: dict, blue: dict | None = None, obs: dict | None = None):
    """Write one event; payloads default to the red one (a public event)."""
    game.version += 1
    event = GameEvent.objects.create(
        game=game,
        version=game.version,
        kind=kind,
        red_payload={"kind": kind, **red},
        blue_payload={"kind": kind, **(red if blue is None else blue)},
        observer_payload={"kind": kind, **(red if obs is None else obs)},
    )
    outbox(game).append(event)


def outbox(game: Game) -> list[GameEvent]:
    """The events written on this Game instance and not yet published (by commit)."""
    return game.__dict__.setdefault("_outbox", [])


def private_event(game: Game, kind: str, color: int, secret: dict, hidden: dict) -> None:
    """An event whose `secret` fields only `color` may see; the others get `hidden`."""
    own, other = secret, hidden
    if color == RED:
        emit(game, kind, own, other, other)
    else:
        emit(game, kind, other, own, other)


def commit(game: Game, eg: engine.Game | None = None, lobby: bool = False) -> None:
    if eg is not None:
        game.state = eg.to_dict()
    game.save()
    publish(game)
    if lobby and not game.private:
        nudge_lobby_on_commit()
    wake_computers_on_commit(game)


def publish(game: Game) -> None:
    """After the commit, each audience gets the frames of the events written since the last
    publish (a change without events, a nudge: the sockets look for themselves)."""
    events = outbox(game)
    if not events:
        nudge_game_on_commit(game.public_id, game.version)
        return
    messages = snapshots.pushed_frames(game, events)
    events.clear()
    publish_on_commit(game.public_id, messages)


def computer_level(game: Game, color: int) -> str:
    """The level of the computer in `color`'s seat; "" for a person (or nobody)."""
    return game.red_computer if color == RED else game.blue_computer


# games/computer.py registers its `kick` here (it imports this module, not the other way).
computer_waker: Callable[[str], None] | None = None


def wake_computers_on_commit(game: Game) -> None:
    """A computer seated in this game gets its turn once the change is committed."""
    waker = computer_waker
    if waker is not None and (game.red_computer or game.blue_computer):
        public_id = game.public_id
        transaction.on_commit(lambda: waker(public_id))


Action = Callable[[Game, int, engine.Game], bool]


def run(public_id: str, ident: Identity | None, action: Action, at: datetime | None = None):
    """Lock, check the clock, check the seat, run the engine action, save. Returns the new
    version. `at` is when the action arrived (default: now, before waiting for the row lock):
    the clock is read then, so an action in time stays in time however long it queued for
    the lock. When the clock ran out first, the game ends on time (that is committed) and
    the action is refused with `time_out` instead."""
    at = at or clocks.now()
    with transaction.atomic():
        game = lock(public_id)
        if not settle_clock(game, at):
            color = player_color(game, ident)
            eg = load(game)
            try:
                lobby = action(game, color, eg)
            except engine.EngineError as exc:
                raise engine_error(exc) from exc
            commit(game, eg, lobby=lobby)
            return game.version
    raise time_out_error(game, ident)


# ---------------------------------------------------------------- seats


def check_variant(variant: str) -> None:
    if variant not in VARIANT_NAMES:
        raise ServiceError("bad_variant", f"Unknown variant {variant!r}.")


def create_game(
    ident: Identity | None,
    variant: str = "classic",
    seat: int | None = RED,
    private: bool = False,
    time_control: str | None = None,
    rules: dict | None = None,
    rated: bool = False,
    rating_range: tuple[int | None, int | None] = (None, None),
) -> Game:
    """A new game with `ident` in `seat` (None: random). `time_control` is None/"untimed" or
    an id of options.TIME_CONTROLS ("5+3"); `rules` overrides rule settings of the variant
    (e.g. {"two_squares_limit": 3}), checked by the engine and saved in the engine state."""
    if ident is None:
        raise ServiceError("no_identity", "Choose a nickname or log in first.")
    check_variant(variant)
    check_seat(seat)
    control = options.time_control(time_control)
    overrides = options.checked_rules(variant, rules)
    if rated:
        from players import ratings  # players imports games

        ratings.check_rated_seat(ident)
    if seat is None:
        seat = random.choice((RED, BLUE))
    state = engine.Game(engine.get_variant(variant).with_rules(**overrides)).to_dict()
    with transaction.atomic():
        game = Game(variant=variant, private=private, state=state, rated=rated)
        game.rating_min, game.rating_max = rating_range
        clocks.set_control(game, control)
        game.save()
        take_seat(game, seat, ident)
        commit(game, lobby=True)
    return game


def check_seat(seat: object) -> None:
    if seat is not None and (isinstance(seat, bool) or seat not in (RED, BLUE)):
        raise ServiceError("bad_seat", "seat must be 0 (Red), 1 (Blue) or null (the free one).")


def take_seat(game: Game, color: int, ident: Identity) -> None:
    prefix = "red" if color == RED else "blue"
    setattr(game, f"{prefix}_user_id", ident.user_id)
    setattr(game, f"{prefix}_session", ident.session_key or "")
    setattr(game, f"{prefix}_name", ident.name)
    setattr(game, f"{prefix}_computer", ident.computer or "")
    starts = game.seat_taken(RED) and game.seat_taken(BLUE) and game.status == Game.Status.WAITING
    if starts:
        game.status = Game.Status.SETUP
        clocks.start_setup(game, clocks.now())
    emit(game, "seated", {"seat": color, "name": ident.name})
    if starts:  # a player who left while waiting is announced now (their absence starts now)
        for gone in (c for c in (RED, BLUE) if game.left_at(c) is not None):
            emit_absent(game, gone)


def join_game(public_id: str, ident: Identity | None, seat: int | None = None) -> int:
    """Take seat `seat` (or the free one). Race-safe: the row is locked. Returns the seat."""
    if ident is None:
        raise ServiceError("no_identity", "Choose a nickname or log in first.")
    check_seat(seat)
    with transaction.atomic():
        game = lock(public_id)
        if role_of(game, ident) != OBSERVER:
            raise ServiceError("already_seated", "You already hold a seat in this game.")
        if not game.is_active:
            raise ServiceError("game_not_active", "This game is over.")
        free = [c for c in (RED, BLUE) if not game.seat_taken(c)]
        if not free:
            raise ServiceError("game_full", "Both seats are taken; you can watch.")
        if seat is None:
            seat = free[0]
        if seat not in free:
            raise ServiceError("seat_taken", f"{COLOR_NAMES[seat]}'s seat is taken.")
        from players import ratings  # players imports games

        ratings.check_join(game, ident)
        take_seat(game, seat, ident)
        commit(game, lobby=True)
        return seat


# ---------------------------------------------------------------- setup


def own_pieces(eg: engine.Game, color: int) -> dict[int, int]:
    return dict(eg.initial_setups()[color])


def setup_event(game: Game, eg: engine.Game, kind: str, color: int, own: dict) -> None:
    """A change to `color`'s setup. The owner gets `own` (squares and ranks); the opponent
    and observers only how many pieces it has placed now: where, and in which order, it
    places them is private until play starts (issue 12)."""
    placed = len(own_pieces(eg, color))
    private_event(game, kind, color, {**own, "placed": placed}, {"color": color, "placed": placed})


def require_setup(game: Game) -> None:
    if game.status not in (Game.Status.WAITING, Game.Status.SETUP):
        raise ServiceError("not_setup_phase", "The setup is over.")


def place_piece(public_id: str, ident: Identity | None, square: int, rank: int) -> int:
    def action(game: Game, color: int, eg: engine.Game) -> bool:
        require_setup(game)
        eg.place(color, square, rank)
        own = {"color": color, "square": square, "rank": rank}
        setup_event(game, eg, "placed", color, own)
        return False

    return run(public_id, ident, action)


def remove_piece(public_id: str, ident: Identity | None, square: int) -> int:
    def action(game: Game, color: int, eg: engine.Game) -> bool:
        require_setup(game)
        eg.remove(color, square)
        setup_event(game, eg, "removed", color, {"color": color, "square": square})
        return False

    return run(public_id, ident, action)


def random_setup(public_id: str, ident: Identity | None, seed: int | None = None) -> int:
    def action(game: Game, color: int, eg: engine.Game) -> bool:
        require_setup(game)
        before = own_pieces(eg, color)
        eg.random_setup(color, random.Random(seed))
        added = {sq: r for sq, r in own_pieces(eg, color).items() if sq not in before}
        squares = sorted(added)
        own = {"color": color, "squares": squares, "ranks": [added[s] for s in squares]}
        setup_event(game, eg, "random_setup", color, own)
        return False

    return run(public_id, ident, action)


def submit_setup(public_id: str, ident: Identity | None, placement: Mapping[int, int]) -> int:
    """Replace the caller's whole setup by `placement` (square -> rank), which the engine
    checks as a whole: a complete, legal army, or nothing changes. One event, `setup`, whose
    ranks only the owner sees (the others get the occupied squares)."""
    pieces = dict(placement)

    def action(game: Game, color: int, eg: engine.Game) -> bool:
        require_setup(game)
        eg.set_setup(color, pieces)
        squares = sorted(pieces)
        own = {"color": color, "squares": squares, "ranks": [pieces[s] for s in squares]}
        setup_event(game, eg, "setup", color, own)
        return False

    return run(public_id, ident, action)


def clear_setup(public_id: str, ident: Identity | None) -> int:
    def action(game: Game, color: int, eg: engine.Game) -> bool:
        require_setup(game)
        eg.clear_setup(color)
        setup_event(game, eg, "cleared", color, {"color": color})
        return False

    return run(public_id, ident, action)


def ready(public_id: str, ident: Identity | None) -> int:
    at = clocks.now()

    def action(game: Game, color: int, eg: engine.Game) -> bool:
        require_setup(game)
        eg.mark_ready(color)
        playing = eg.phase == "playing"
        if playing:
            game.status = Game.Status.PLAYING
            game.started = at
            clocks.start_play(game, at)
        emit(game, "ready", {"color": color, "playing": playing})
        return playing

    return run(public_id, ident, action, at)


# ---------------------------------------------------------------- play


def finish(game: Game, eg: engine.Game, at: datetime) -> None:
    """The engine's outcome is the game's: stop the clock as of `at` and say so."""
    outcome = eg.outcome
    game.finished = at
    clocks.stop(game, at)  # (while the status still says whose clock runs)
    game.status = Game.Status.FINISHED
    game.winner = outcome.winner
    game.termination = outcome.termination
    game.draw_offer = None
    emit(game, "game_over", {"winner": outcome.winner, "termination": outcome.termination})
    rate_on_finish(game)


def rate_on_finish(game: Game) -> None:
    """Every game with a result ends here: update the ratings in this same transaction."""
    from players import ratings  # players imports games

    ratings.game_finished(game)


def abort(game: Game, at: datetime) -> None:
    """End a game that never began, with no result."""
    game.finished = at
    clocks.stop(game, at)
    game.status = Game.Status.ABORTED
    game.termination = "aborted"
    game.draw_offer = None
    emit(game, "game_over", {"winner": None, "termination": "aborted"})


def require_playing(game: Game) -> None:
    if game.status != Game.Status.PLAYING:
        raise ServiceError("not_playing", "The game has not started yet.")


def record_move(game: Game, eg: engine.Game, result: engine.MoveResult) -> None:
    public = result.to_public_dict(eg.variant)
    battle = result.battle
    Move.objects.create(
        game=game,
        ply=result.ply,
        from_square=result.move.src,
        to_square=result.move.dst,
        notation=public["notation"],
        color=result.color,
        attacker_rank=result.rank,
        defender_rank=battle.defender if battle else None,
        battle_result=battle.result if battle else "",
    )
    game.ply = result.ply
    emit(game, "move", public)


def move(public_id: str, ident: Identity | None, frm: int, to: int) -> int:
    at = clocks.now()  # when the move arrived, before it waits for the row lock

    def action(game: Game, color: int, eg: engine.Game) -> bool:
        require_playing(game)
        result = eg.push(engine.Move(frm, to), color)
        game.draw_offer = None
        if eg.outcome is None:
            clocks.after_move(game, color, at)
        else:  # the move that ends the game: its thinking is charged, no increment
            clocks.stop(game, at)  # (while the ply still says whose clock runs)
        record_move(game, eg, result)
        if eg.outcome is not None:
            finish(game, eg, at)
            return True
        return False

    return run(public_id, ident, action, at)


def resign(public_id: str, ident: Identity | None) -> int:
    at = clocks.now()

    def action(game: Game, color: int, eg: engine.Game) -> bool:
        if game.status == Game.Status.WAITING:
            abort(game, at)
            return True
        eg.resign(color)
        finish(game, eg, at)
        return True

    return run(public_id, ident, action, at)


def offer_draw(public_id: str, ident: Identity | None) -> int:
    at = clocks.now()

    def action(game: Game, color: int, eg: engine.Game) -> bool:
        require_playing(game)
        if game.draw_offer == 1 - color:
            return agree_draw(game, eg, at)
        match.check_draw_offer(game, color)  # not again within a few moves (issue 12)
        game.draw_offer = color
        emit(game, "draw_offered", {"color": color})
        return False

    return run(public_id, ident, action, at)


def agree_draw(game: Game, eg: engine.Game, at: datetime) -> bool:
    eg.end(engine.Outcome(winner=None, termination="agreed_draw"))
    finish(game, eg, at)
    return True


def answer_draw(public_id: str, ident: Identity | None, accept: bool) -> int:
    at = clocks.now()

    def action(game: Game, color: int, eg: engine.Game) -> bool:
        require_playing(game)
        if game.draw_offer is None:
            raise ServiceError("no_draw_offer", "There is no draw offer to answer.")
        if game.draw_offer == color:
            raise ServiceError("not_your_draw_offer", "You cannot answer your own offer.")
        if accept:
            return agree_draw(game, eg, at)
        game.draw_offer = None
        emit(game, "draw_declined", {"color": color})
        return False

    return run(public_id, ident, action, at)


# ---------------------------------------------------------------- clocks


def settle_clock(game: Game, at: datetime) -> bool:
    """Under the row lock: if the game's time ran out, end it (and save). In play the side to
    move loses on time; in setup a player who is not ready loses, and if neither is, the game
    is aborted. True if it ended the game."""
    if not clocks.expired(game, at):
        return False
    eg = load(game)
    if game.status == Game.Status.PLAYING:
        eg.end(engine.Outcome(winner=1 - eg.turn, termination="time"))
        finish(game, eg, at)
    elif any(eg.ready):
        eg.end(engine.Outcome(winner=eg.ready.index(True), termination="time"))
        finish(game, eg, at)
    else:
        abort(game, at)
    commit(game, eg, lobby=True)
    return True


def time_out_error(game: Game, ident: Identity | None) -> ServiceError:
    """The refusal of an action that found the game's time run out (and ended it)."""
    if game.status == Game.Status.ABORTED:
        message = "The setup time ran out before both players were ready: the game is aborted."
    elif role_of(game, ident) == 1 - game.winner:
        message = "Your time ran out before this arrived: you lost on time."
    else:
        message = f"{COLOR_NAMES[1 - game.winner]}'s time ran out: the game is over."
    return ServiceError("time_out", message)


def expire(public_id: str) -> float | None:
    """End the game if its clock or its setup time ran out. Idempotent: of any number of
    calls at once (sockets, processes, the heartbeat sweep) exactly one ends the game.
    Returns the seconds until the game's deadline, None when no clock runs (any more)."""
    return _expire(public_id)[1]


def _expire(public_id: str) -> tuple[bool, float | None]:
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(public_id=public_id).first()
        if game is None:
            return False, None
        at = clocks.now()
        ended = settle_clock(game, at)
        return ended, clocks.seconds_left(game, at)


def sweep_expired() -> int:
    """End every game whose deadline passed (the heartbeat calls this, so a game nobody
    watches ends too). The number of games it ended."""
    due = Game.objects.filter(
        deadline__lte=clocks.now(), status__in=[Game.Status.SETUP, Game.Status.PLAYING]
    ).values_list("public_id", flat=True)
    return sum(_expire(public_id)[0] for public_id in list(due))


# ---------------------------------------------------------------- abandonment


def claim_victory(public_id: str, ident: Identity | None) -> int:
    """Win a game the opponent abandoned: gone (no socket) for ABANDON_SECONDS, in setup or
    in an untimed game. The game ends with termination `forfeit` (a player left)."""

    at = clocks.now()

    def action(game: Game, color: int, eg: engine.Game) -> bool:
        require_claimable(game, 1 - color, at)
        eg.end(engine.Outcome(winner=color, termination="forfeit"))
        finish(game, eg, at)
        return True

    return run(public_id, ident, action, at)


def require_claimable(game: Game, opponent: int, at: datetime) -> None:
    if game.status not in (Game.Status.SETUP, Game.Status.PLAYING):
        raise ServiceError("no_opponent", "Nobody has joined yet: there is nothing to claim.")
    if computer_level(game, opponent):
        raise ServiceError("computer_opponent", "The computer never leaves a game.")
    if not clocks.claims_apply(game):
        raise ServiceError(
            "timed_game", "The clocks decide this game: your opponent loses when their time is up."
        )
    if opponent in presence.players_connected(game.pk):
        raise ServiceError("opponent_connected", "Your opponent is connected.")
    claim = clocks.claim_time(game, opponent)
    if claim is None:
        raise ServiceError("opponent_connected", "Your opponent has not left the game.")
    if at < claim:
        wait = math.ceil((claim - at).total_seconds())
        raise ServiceError(
            "claim_too_early", f"Your opponent left recently: you may claim victory in {wait} s."
        )


def player_left(public_id: str, color: int, since: datetime | None = None) -> None:
    """The last socket of `color`'s seat went away (at `since`, default now). In setup or in
    play this is the numbered event `absent` for everybody."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(public_id=public_id).first()
        if game is None or not game.is_active or game.left_at(color) is not None:
            return
        if color in presence.players_connected(game.pk):
            return  # another tab of the same seat is still open
        game.set_left(color, since or clocks.now())
        if not announces_presence(game):
            game.save(update_fields=[left_field(color)])
            return
        emit_absent(game, color)
        commit(game)


def emit_absent(game: Game, color: int) -> None:
    """The numbered event `absent`: `color` is gone since when, and may be claimed against
    from when (None: claims do not apply)."""
    since, claim = clocks.away_since(game, color), clocks.claim_time(game, color)
    payload = {"seat": color, "since": clocks.iso(since), "claimable_at": clocks.iso(claim)}
    emit(game, "absent", payload)


def player_back(public_id: str, color: int) -> None:
    """A socket of `color`'s seat connected while the seat counted as gone: the claim against
    it is off. In setup or in play this is the numbered event `present` for everybody."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(public_id=public_id).first()
        if game is None or not game.is_active or game.left_at(color) is None:
            return
        if color not in presence.players_connected(game.pk):
            return  # the socket closed again meanwhile
        game.set_left(color, None)
        if not announces_presence(game):
            game.save(update_fields=[left_field(color)])
            return
        emit(game, "present", {"seat": color})
        commit(game)


def announces_presence(game: Game) -> bool:
    return game.status in (Game.Status.SETUP, Game.Status.PLAYING)


def watch(public_id: str, ident: Identity | None) -> tuple[Game, int]:
    """The game and the role this identity has in it (2 unless it holds a seat)."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None:
        raise ServiceError("not_found", "There is no such game.")
    return game, role_of(game, ident)


# ---------------------------------------------------------------- a seat left for good


def forfeit_seat(public_id: str, color: int) -> int | None:
    """`color` left for good (a TCP player's grace period ran out, docs/legacy-protocol.md):
    the other side wins by forfeit; a game nobody joined is aborted. The new version, or
    None when the game was over already."""
    at = clocks.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(public_id=public_id).first()
        if game is None or not game.is_active:
            return None
        eg = load(game)
        if game.status == Game.Status.WAITING:
            abort(game, at)
        else:
            eg.end(engine.Outcome(winner=1 - color, termination="forfeit"))
            finish(game, eg, at)
        commit(game, eg, lobby=True)
        return game.version


# presence reports seats that went and came back, and its sweep ends games out of time,
# through these (it does not import this module).
presence.connect_services(left=player_left, back=player_back, expired=sweep_expired)

__all__ = [
    "create_game",
    "join_game",
    "watch",
    "place_piece",
    "remove_piece",
    "random_setup",
    "submit_setup",
    "clear_setup",
    "ready",
    "move",
    "resign",
    "offer_draw",
    "answer_draw",
    "claim_victory",
    "expire",
    "sweep_expired",
    "player_left",
    "player_back",
    "holds_seat",
    "forfeit_seat",
]
