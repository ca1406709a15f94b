"""Rated play: which games count, and the update when one ends.

`game_finished` is called by games/services.finish inside the transaction that ends the
game, with the game row locked. It locks the two ratings too (in id order, so two games
ending at once for the same player wait for each other instead of losing an update), and
writes one RatingChange per rating: a unique (rating, game) pair, so a game counts once.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.domain.errors import ServiceError
from games.domain.identity import Identity
from games.domain.models import BLUE, RED, Game

from . import glicko
from .models import PlayerStatus, Rating, RatingChange

VARIANTS = tuple(engine.VARIANTS)
# Endings that are no result: cancelled before it began, or called off by a player.
NO_RESULT = {"", "aborted", "abort", "cancelled", "canceled"}


# ---------------------------------------------------------------- who is who


def seat_computer(game: Game, color: int) -> str:
    """The computer level in `color`'s seat, "" for a person."""
    return game.red_computer if color == RED else game.blue_computer


def seat_user_id(game: Game, color: int) -> int | None:
    return game.red_user_id if color == RED else game.blue_user_id


def banned(user_id: int | None) -> bool:
    return PlayerStatus.objects.filter(user_id=user_id, banned_from_rated=True).exists()


def counts(game: Game) -> bool:
    """A finished, rated game with a result between two rated players (accounts not banned
    from rated play, or a computer level against an account)."""
    if not game.rated or game.status != Game.Status.FINISHED or game.termination in NO_RESULT:
        return False
    users = [seat_user_id(game, c) for c in (RED, BLUE)]
    computers = [seat_computer(game, c) for c in (RED, BLUE)]
    if not any(users) or not all(u or c for u, c in zip(users, computers, strict=True)):
        return False
    return not any(banned(u) for u in users if u)


# ---------------------------------------------------------------- the update


def keys(game: Game) -> list[dict]:
    return [
        {"user_id": seat_user_id(game, c), "computer": seat_computer(game, c)} for c in (RED, BLUE)
    ]


def lock_ratings(variant: str, who: list[dict]) -> list[Rating]:
    """The ratings of `who` for `variant`, created if new, locked in id order."""
    # INSERT ... ON CONFLICT DO NOTHING: two games creating one rating at once wait for each
    # other; in one order for all (users, then computers), so that never deadlocks either.
    ordered = sorted(who, key=lambda k: (k["user_id"] is None, k["user_id"] or 0, k["computer"]))
    Rating.objects.bulk_create(
        [Rating(variant=variant, **key) for key in ordered], ignore_conflicts=True
    )
    found = []
    for key in who:
        lookup = {"user_id": key["user_id"]} if key["user_id"] else {"computer": key["computer"]}
        found.append(
            Rating.objects.filter(variant=variant, **lookup).values_list("id", flat=True)[0]
        )
    locked = {
        r.id: r for r in Rating.objects.select_for_update().filter(id__in=found).order_by("id")
    }
    return [locked[i] for i in found]


def standing(rating: Rating, at: datetime | None = None) -> glicko.Standing:
    """The rating as it stands at `at`: its deviation grown for the days without a game."""
    now = glicko.Standing(rating.rating, rating.deviation, rating.volatility)
    if at is None or rating.last_played is None:
        return now
    return glicko.idle(now, (at - rating.last_played).days)


def game_finished(game: Game) -> bool:
    """Update both ratings for `game` if it counts and has not counted yet. True if it did."""
    if not counts(game) or RatingChange.objects.filter(game=game).exists():
        return False
    at = game.finished or timezone.now()
    red, blue = lock_ratings(game.variant, keys(game))
    scores = (1.0, 0.0) if game.winner == RED else (0.0, 1.0) if game.winner == BLUE else (0.5, 0.5)
    before = (standing(red, at), standing(blue, at))
    apply(red, game, scores[0], before[1], at)
    apply(blue, game, scores[1], before[0], at)
    return True


def apply(rating: Rating, game: Game, score: float, opponent: glicko.Standing, at: datetime):
    mine = standing(rating, at)
    new = glicko.rate(mine, [(opponent, score)])
    RatingChange.objects.create(
        rating=rating,
        game=game,
        score=score,
        rating_before=mine.rating,
        deviation_before=mine.deviation,
        rating_after=new.rating,
        deviation_after=new.deviation,
        volatility_after=new.volatility,
        at=at,
    )
    rating.rating, rating.deviation, rating.volatility = new.rating, new.deviation, new.volatility
    rating.games += 1
    rating.last_played = at
    rating.save()


# ---------------------------------------------------------------- creating and joining


def current(user_id: int | None, variant: str) -> Rating | None:
    if user_id is None:
        return None
    return Rating.objects.filter(user_id=user_id, variant=variant).first()


def rating_of(ident: Identity | None, variant: str) -> float:
    """The rating used for ranges and pairing: a newcomer's (and a guest's) is 1500."""
    found = current(ident.user_id, variant) if ident else None
    return found.rating if found else glicko.DEFAULT_RATING


def check_rated_seat(ident: Identity) -> None:
    if ident.user_id is None:
        if ident.computer:
            return  # a computer level plays rated games against people
        raise ServiceError("rated_needs_account", _("Log in or sign up to play rated games."))
    if banned(ident.user_id):
        raise ServiceError("rated_banned", _("You may not play rated games."))


def check_join(game: Game, ident: Identity) -> None:
    """Called by games/services.join_game under the row lock: a rated game takes only rated
    players, a rating range only players within it."""
    if game.rated:
        check_rated_seat(ident)
    if game.rating_min is None and game.rating_max is None:
        return
    if ident.computer:
        return
    mine = round(rating_of(ident, game.variant))
    low, high = game.rating_min or 0, game.rating_max or 10_000
    if not low <= mine <= high:
        raise ServiceError(
            "rating_out_of_range",
            _("This game is for ratings %(low)s-%(high)s; yours is %(mine)s.")
            % {"low": low, "high": high, "mine": mine},
        )


def checked_range(low: object, high: object) -> tuple[int | None, int | None]:
    """A rating range from a form: whole numbers 0-4000 or blank; refused if low > high."""
    values = []
    for value in (low, high):
        text = str(value or "").strip()
        if not text:
            values.append(None)
            continue
        if not text.isdigit() or int(text) > 4000:
            raise ServiceError(
                "bad_rating_range", _("A rating range is two numbers from 0 to 4000.")
            )
        values.append(int(text))
    if values[0] is not None and values[1] is not None and values[0] > values[1]:
        raise ServiceError("bad_rating_range", _("The lowest rating is above the highest."))
    return values[0], values[1]


# ---------------------------------------------------------------- what the lobby shows


def seat_labels(game: Game) -> list[str | None]:
    """Each seat's rating as the lobby shows it ("1523", "1500?"), None for a guest."""
    who = keys(game)
    wanted = [k for k in who if k["user_id"] or k["computer"]]
    if not wanted:
        return [None, None]
    found = {
        (r.user_id, r.computer): r.label
        for r in Rating.objects.filter(variant=game.variant).filter(
            user_id__in=[k["user_id"] for k in wanted if k["user_id"]]
        )
        | Rating.objects.filter(
            variant=game.variant, computer__in=[k["computer"] for k in wanted if k["computer"]]
        )
    }
    default = glicko.label(glicko.DEFAULT_RATING, glicko.DEFAULT_DEVIATION)
    return [
        found.get((k["user_id"], k["computer"]), default)
        if (k["user_id"] or k["computer"])
        else None
        for k in who
    ]


def recompute_all() -> int:
    """Replay every counted game in order and rebuild all ratings from scratch. The number of
    games counted."""
    with transaction.atomic():
        list(Rating.objects.select_for_update().order_by("id"))
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        games = Game.objects.filter(rated=True, status=Game.Status.FINISHED)
        return sum(game_finished(g) for g in games.order_by("finished", "id").iterator())


def recompute_player(user_id: int) -> int:
    """Rebuild one account's ratings from its counted games, each against the opponent's
    rating as it was before that game (kept in the opponent's RatingChange); the opponents'
    own ratings stay as they are. The number of games counted."""
    with transaction.atomic():
        list(Rating.objects.select_for_update().filter(user_id=user_id).order_by("id"))
        RatingChange.objects.filter(rating__user_id=user_id).delete()
        Rating.objects.filter(user_id=user_id).delete()
        games = Game.objects.filter(rated=True, status=Game.Status.FINISHED).filter(
            Q(red_user_id=user_id) | Q(blue_user_id=user_id)
        )
        done = 0
        for game in games.order_by("finished", "id"):
            if counts(game):
                replay_one(game, user_id)
                done += 1
        return done


def replay_one(game: Game, user_id: int) -> None:
    color = RED if game.red_user_id == user_id else BLUE
    (mine,) = lock_ratings(game.variant, [keys(game)[color]])
    theirs = RatingChange.objects.filter(game=game).exclude(rating=mine).first()
    opponent = (
        glicko.Standing(theirs.rating_before, theirs.deviation_before)
        if theirs
        else glicko.Standing()
    )
    score = 0.5 if game.winner is None else float(game.winner == color)
    apply(mine, game, score, opponent, game.finished or timezone.now())
