"""What a profile shows: a player's finished games, their results and their ratings' story."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q, QuerySet

from games.domain.models import BLUE, RED, Game

from .chart import rating_chart
from .models import Rating, RatingChange
from .ratings import NO_RESULT, VARIANTS

GAMES_SHOWN = 100


def finished_games(user_id: int) -> QuerySet[Game]:
    """The account's games that ended with a result, newest first."""
    return (
        Game.objects.filter(Q(red_user_id=user_id) | Q(blue_user_id=user_id))
        .filter(status=Game.Status.FINISHED)
        .exclude(termination__in=NO_RESULT)
        .order_by("-finished", "-id")
    )


@dataclass
class Record:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, score: float) -> None:
        if score == 1:
            self.wins += 1
        elif score == 0:
            self.losses += 1
        else:
            self.draws += 1


@dataclass
class VariantStory:
    variant: str
    rating: Rating | None
    by_color: list[Record] = field(default_factory=lambda: [Record(), Record()])
    chart: object = None

    @property
    def total(self) -> Record:
        red, blue = self.by_color
        return Record(red.wins + blue.wins, red.draws + blue.draws, red.losses + blue.losses)


def score(game: Game, color: int) -> float:
    return 0.5 if game.winner is None else float(game.winner == color)


def game_rows(user_id: int) -> list[dict]:
    rows = []
    for game in finished_games(user_id)[:GAMES_SHOWN]:
        color = RED if game.red_user_id == user_id else BLUE
        result = {1.0: "won", 0.0: "lost", 0.5: "draw"}[score(game, color)]
        rows.append(
            {
                "id": game.public_id,
                "variant": game.variant,
                "color": color,  # (the page says it: the color_name filter)
                "opponent": game.seat_name(1 - color),
                "opponent_is_user": (game.blue_user_id if color == RED else game.red_user_id)
                is not None,
                "opponent_is_guest": game.seat_is_guest(1 - color),
                "result": result,
                "termination": game.termination,
                "plies": game.ply,
                "rated": game.rated,
                "finished": game.finished,
            }
        )
    return rows


def stories(user_id: int) -> list[VariantStory]:
    """Per variant the player has played: the rating, W/D/L by colour, the rating chart."""
    ratings = {r.variant: r for r in Rating.objects.filter(user_id=user_id)}
    found: dict[str, VariantStory] = {}
    for game in finished_games(user_id).only(
        "variant", "winner", "red_user_id", "blue_user_id", "termination", "status"
    ):
        story = found.setdefault(
            game.variant, VariantStory(game.variant, ratings.get(game.variant))
        )
        color = RED if game.red_user_id == user_id else BLUE
        story.by_color[color].add(score(game, color))
    for variant, rating in ratings.items():
        found.setdefault(variant, VariantStory(variant, rating))
    for story in found.values():
        if story.rating is not None:
            changes = RatingChange.objects.filter(rating=story.rating).order_by("at", "id")
            history = [(c.at.strftime("%Y-%m-%d %H:%M"), c.rating_after) for c in changes]
            story.chart = rating_chart(history)
    return [found[v] for v in VARIANTS if v in found]
