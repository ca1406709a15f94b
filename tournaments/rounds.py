"""An event moving on, one step at a time under its row lock (the scheduler calls `advance`):
start it on time, pair a round when the last one is complete and its pause is over (an
arena: whoever is free, at once), open each pairing's game through the game services with
both seats taken, and finish it. All of it is read from and written to the database, so a
restarted server goes on where the last one stopped."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_noop

from games import services
from games.domain.errors import ServiceError
from games.domain.identity import Identity
from games.domain.models import BLUE, RED, Game
from games.services.computer import computer_identity

from . import live, table
from .formats import arena_pairs, berger_round, swiss_round
from .formats.results import BYE_POINTS
from .formats.roundrobin import rounds_needed
from .models import Entrant, Pairing, Tournament
from .table import rating_now

logger = logging.getLogger(__name__)
Status = Tournament.Status


def advance(tournament_id: int, now: datetime) -> None:
    """One step of the event, if no other process is taking it right now."""
    with transaction.atomic():
        tournament = (
            Tournament.objects.select_for_update(skip_locked=True).filter(pk=tournament_id).first()
        )
        if tournament is None:
            return
        if tournament.status == Status.UPCOMING and tournament.starts_at <= now:
            start(tournament, now)
        elif tournament.status == Status.RUNNING and tournament.format == "arena":
            arena_step(tournament, now)
        elif tournament.status == Status.RUNNING:
            round_step(tournament, now)


def active_entrants(tournament: Tournament) -> list[Entrant]:
    return list(tournament.entrants.filter(withdrawn=None, removed=False).order_by("id"))


def start(tournament: Tournament, now: datetime) -> None:
    entrants = active_entrants(tournament)
    if len(entrants) < 2:
        # stored in English, shown translated (tournaments/_live.html)
        end_as_cancelled(tournament, gettext_noop("Fewer than two players entered."))
        return
    for entrant in entrants:
        entrant.rating_start = rating_now(entrant, tournament.variant)
        entrant.save(update_fields=["rating_start"])
    tournament.status = Status.RUNNING
    if tournament.format == Tournament.Format.ARENA:
        tournament.ends_at = now + timedelta(minutes=tournament.minutes)
        tournament.save()
        arena_step(tournament, now)
    else:
        if tournament.format == Tournament.Format.ROUND_ROBIN:
            tournament.rounds = rounds_needed(len(entrants), tournament.double)
        tournament.next_round_at = now
        tournament.save()
        round_step(tournament, now)
    live.changed_on_commit(tournament.pk)


def seed_order(tournament: Tournament) -> list[int]:
    """Entrant ids by rating at the start (best first): the round-robin's numbers."""
    entrants = tournament.entrants.exclude(rating_start=None)
    return [e.pk for e in sorted(entrants, key=lambda e: (-(e.rating_start or 0), e.pk))]


def round_step(tournament: Tournament, now: datetime) -> None:
    pending = tournament.pairings.filter(round=tournament.current_round, red_score=None)
    if tournament.current_round and pending.exists():
        return
    if tournament.current_round >= tournament.rounds:
        finish(tournament, now)
        return
    if tournament.next_round_at is None:  # the round just completed: the pause begins
        tournament.next_round_at = now + timedelta(seconds=tournament.round_pause_seconds)
        tournament.save(update_fields=["next_round_at"])
        live.changed_on_commit(tournament.pk)
    if now < tournament.next_round_at:
        return
    number = tournament.current_round + 1
    tournament.current_round, tournament.next_round_at = number, None
    tournament.save(update_fields=["current_round", "next_round_at"])
    pair_round(tournament, number, now)
    live.changed_on_commit(tournament.pk, wake=True)


def pair_round(tournament: Tournament, number: int, now: datetime) -> None:
    entrants = {e.pk: e for e in tournament.entrants.all()}
    history = [table.as_pairing(p) for p in tournament.pairings.all()]
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        boards = berger_round(seed_order(tournament), number, tournament.double)
    else:
        players = [table.as_player(e) for e in entrants.values() if e.active]
        boards = swiss_round(players, history, number)
    for board in boards:
        red = entrants[board.red]
        blue = entrants[board.blue] if board.blue is not None else None
        pairing = Pairing.objects.create(tournament=tournament, round=number, red=red, blue=blue)
        if blue is None:
            score(pairing, BYE_POINTS, None, "bye", now)
        elif not red.active or not blue.active:  # a round-robin's game of a player gone
            score(pairing, float(red.active), float(blue.active), "withdrawn", now)
        else:
            open_game(tournament, pairing, now)


def score(pairing: Pairing, red: float, blue: float | None, note: str, now: datetime) -> None:
    pairing.red_score, pairing.blue_score, pairing.note, pairing.finished = red, blue, note, now
    pairing.save(update_fields=["red_score", "blue_score", "note", "finished"])


def identity(entrant: Entrant, color: int) -> Identity:
    if entrant.computer:
        return computer_identity(entrant.computer, color)
    return Identity(user_id=entrant.user_id, session_key=None, name=entrant.name)


def open_game(tournament: Tournament, pairing: Pairing, now: datetime) -> None:
    """The pairing's game, both seats taken, through the game services (so it is a normal
    game: lobby, watching, clocks, ratings). A seat the services refuse (a player banned
    meanwhile, or waiting in too many games of their own) loses the game."""
    red, blue = identity(pairing.red, RED), identity(pairing.blue, BLUE)
    options = {"variant": tournament.variant, "rated": tournament.rated,
               "time_control": tournament.time_control or None}  # fmt: skip
    try:
        with transaction.atomic():
            game, first = create_with_one(red, blue, options)
            other = BLUE if first == RED else RED
            try:
                services.join_game(game.public_id, red if other == RED else blue, other)
            except ServiceError as exc:
                raise SeatRefused(other, exc) from None
    except SeatRefused as refused:
        logger.info("event %s: seat %s refused: %s", tournament.pk, refused.color, refused.error)
        if refused.color is None:
            score(pairing, 0.0, 0.0, "refused", now)
        else:
            score(pairing, float(refused.color == BLUE), float(refused.color == RED), "refused",
                  now)  # fmt: skip
        return
    pairing.game = game
    pairing.save(update_fields=["game"])


def create_with_one(red: Identity, blue: Identity, options: dict) -> tuple[Game, int]:
    """The game, created with Red seated (or Blue, when Red waits in too many games of their
    own already: joining does not count those); SeatRefused when the services refuse."""
    try:
        return services.create_game(red, seat=RED, **options), RED
    except ServiceError as exc:
        if exc.code != "too_many_waiting":
            raise SeatRefused(RED, exc) from None
    try:
        return services.create_game(blue, seat=BLUE, **options), BLUE
    except ServiceError as exc:
        both = exc.code == "too_many_waiting"  # neither may open a game now: lost by both
        raise SeatRefused(None if both else BLUE, exc) from None


class SeatRefused(Exception):
    """A seat the game services refused (color None: both)."""

    def __init__(self, color: int | None, error: ServiceError) -> None:
        super().__init__(str(error))
        self.color, self.error = color, error


def busy_entrants(tournament: Tournament) -> set[int]:
    busy = set()
    for red, blue in tournament.pairings.filter(red_score=None).values_list("red_id", "blue_id"):
        busy.update((red, blue))
    return busy


def arena_step(tournament: Tournament, now: datetime) -> None:
    """Pair whoever is free at once; after the end, wait for the last games, then finish."""
    busy = busy_entrants(tournament)
    if tournament.ends_at is not None and now >= tournament.ends_at:
        if not busy:
            finish(tournament, now)
        return
    free = [e for e in active_entrants(tournament) if e.pk not in busy]
    if len(free) < 2:
        return
    rows = table.compute(tournament)
    points = {row.entrant.pk: row.standing.points for row in rows}
    last: dict[int, int] = {}
    for pairing in tournament.pairings.exclude(blue=None).order_by("id"):
        last[pairing.red_id], last[pairing.blue_id] = pairing.blue_id, pairing.red_id
    players = [table.as_player(e) for e in free]
    pairs = arena_pairs(players, points, last, others_playing=bool(busy))
    if not pairs:
        return
    by_id = {e.pk: e for e in free}
    number = tournament.current_round + 1
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    for red_id, blue_id in pairs:
        pairing = Pairing.objects.create(
            tournament=tournament, round=number, red=by_id[red_id], blue=by_id[blue_id]
        )
        open_game(tournament, pairing, now)
    live.changed_on_commit(tournament.pk)


def finish(tournament: Tournament, now: datetime) -> None:
    """The final table: places, points and ratings after, on each entrant."""
    rows = table.compute(tournament)
    for row in rows:
        entrant = row.entrant
        entrant.place, entrant.points = row.standing.rank, row.standing.points
        if tournament.rated:
            entrant.rating_end = rating_now(entrant, tournament.variant)
        entrant.save(update_fields=["place", "points", "rating_end"])
    tournament.status, tournament.finished_at = Status.FINISHED, now
    tournament.next_round_at = None
    tournament.save(update_fields=["status", "finished_at", "next_round_at"])
    live.changed_on_commit(tournament.pk)


def end_as_cancelled(tournament: Tournament, reason: str) -> None:
    """Called under the event's lock: its games still going are aborted."""
    live_games = Game.objects.filter(pairing__tournament=tournament).filter(
        ~Q(status__in=[Game.Status.FINISHED, Game.Status.ABORTED])
    )
    for public_id in live_games.values_list("public_id", flat=True):
        abort_game(public_id)
    tournament.status, tournament.cancel_reason = Status.CANCELLED, reason[:200]
    tournament.next_round_at = None
    tournament.save(update_fields=["status", "cancel_reason", "next_round_at"])
    live.changed_on_commit(tournament.pk)


def abort_game(public_id: str) -> None:
    """End a game with no result (both players of a pairing absent, an event cancelled): one
    unit of work of the game services (its result on the pairing comes through
    `signals.game_ended`, tournaments/results.py)."""

    def step(unit: services.UnitOfWork) -> None:
        if unit.game.is_active:
            services.abort(unit)

    try:
        services.apply(public_id, step)
    except ServiceError as exc:
        if exc.code != "not_found":
            raise
