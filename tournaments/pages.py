"""What the event pages show, computed once per change and shared by the page, its socket
and the Bot API: the standings rows, the current games, the rounds, the crosstable."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from games.domain.models import Game
from players.models import Rating

from . import table
from .models import Entrant, Pairing, Tournament

RESULT_MARKS = {1.0: "1", 0.5: "½", 0.0: "0"}


@dataclass
class Cell:
    text: str
    css: str = ""
    title: str = ""
    game: str = ""  # the game's page
    detail: str = ""  # the opponent's place now and one's colour (Swiss, arena)


@dataclass
class Line:
    row: table.Row
    cells: list[Cell] = field(default_factory=list)  # by round (Swiss, arena) or opponent (RR)


def game_url(public_id: str) -> str:
    return f"/games/{public_id}/"


def mark(pairing: Pairing, entrant_id: int) -> str:
    if pairing.blue_id is None:
        return _("bye")
    score = pairing.red_score if pairing.red_id == entrant_id else pairing.blue_score
    if score is None:
        return "*"
    text = RESULT_MARKS.get(score, str(score))
    if pairing.note in ("forfeit", "withdrawn", "refused", "aborted"):
        text = {"1": "+", "0": "−"}.get(text, text)  # a game not played out
    return text


def css_of(text: str) -> str:
    return {"1": "win", "+": "win", "0": "loss", "−": "loss", "½": "draw"}.get(text, "")


def lines(tournament: Tournament, rows: list[table.Row], pairings: list[Pairing]) -> list[Line]:
    rank = {row.entrant.pk: row.standing.rank for row in rows}
    names = {row.entrant.pk: row.entrant.name for row in rows}
    out = []
    for row in rows:
        me = row.entrant.pk
        mine = [p for p in pairings if me in (p.red_id, p.blue_id)]
        line = Line(row)
        if tournament.format == Tournament.Format.ROUND_ROBIN:
            by_opponent: dict[int, list[Pairing]] = {}
            for p in mine:
                other = p.blue_id if p.red_id == me else p.red_id
                if other is not None:
                    by_opponent.setdefault(other, []).append(p)
            for other_row in rows:
                other = other_row.entrant.pk
                if other == me:
                    line.cells.append(Cell("■", "self"))
                    continue
                games = by_opponent.get(other, [])
                text = " ".join(mark(p, me) for p in games)
                game = next((game_url(p.game.public_id) for p in games if p.game_id), "")
                title = _("against %(name)s") % {"name": names[other]}
                line.cells.append(Cell(text, css_of(text), title, game))
        else:
            for p in mine:
                text = mark(p, me)
                other = p.blue_id if p.red_id == me else p.red_id
                red = p.red_id == me
                detail = "" if other is None else f"#{rank.get(other, '?')}{'R' if red else 'B'}"
                values = {"round": p.round, "name": names.get(other, "?")}
                if other is None:
                    title = _("round %(round)s: bye") % values
                elif red:
                    title = _("round %(round)s: %(name)s, as Red") % values
                else:
                    title = _("round %(round)s: %(name)s, as Blue") % values
                game = game_url(p.game.public_id) if p.game_id else ""
                line.cells.append(Cell(text, css_of(text), title, game, detail))
        out.append(line)
    return out


def current_games(pairings: list[Pairing]) -> list[Pairing]:
    return [p for p in pairings if p.game_id and p.red_score is None]


def rounds(pairings: list[Pairing]) -> list[tuple[int, list[Pairing]]]:
    grouped: dict[int, list[Pairing]] = {}
    for p in pairings:
        grouped.setdefault(p.round, []).append(p)
    return sorted(grouped.items(), reverse=True)


def context(tournament: Tournament) -> dict:
    entrants = list(tournament.entrants.select_related("user__bot_account"))
    pairings = list(
        tournament.pairings.select_related("game", "red", "blue").order_by("round", "id")
    )
    if tournament.status == Tournament.Status.UPCOMING:
        ratings_now(tournament, entrants, before_start=True)
    elif tournament.rated and tournament.status == Tournament.Status.RUNNING:
        ratings_now(tournament, entrants)
    rows = table.compute(tournament, entrants, pairings)
    return {
        "t": tournament,
        "rows": rows,
        "lines": lines(tournament, rows, pairings),
        "current": current_games(pairings),
        "rounds": rounds(pairings),
        "podium": [r for r in rows if r.standing.rank <= 3][:6]
        if tournament.status == Tournament.Status.FINISHED
        else [],
        "is_arena": tournament.format == Tournament.Format.ARENA,
        "is_round_robin": tournament.format == Tournament.Format.ROUND_ROBIN,
        "column_count": len(rows) if tournament.format == "round_robin" else 0,
    }


def ratings_now(tournament: Tournament, entrants: list[Entrant], before_start: bool = False
                ) -> None:  # fmt: skip
    """Each entrant's rating as it stands (two queries for all): while the event runs, as its
    rating after; before it starts, as the rating it would start with (the seeding)."""
    found = Rating.objects.filter(variant=tournament.variant)
    users = {r.user_id: r.rating for r in found.filter(user_id__in=[e.user_id for e in entrants])}
    levels = [e.computer for e in entrants if e.computer]
    computers = {r.computer: r.rating for r in found.filter(computer__in=levels)}
    for e in entrants:
        if before_start:
            now = users.get(e.user_id) if e.user_id else computers.get(e.computer)
            e.rating_start = now if now is not None else 1500.0
        elif e.rating_start is not None:
            now = users.get(e.user_id) if e.user_id else computers.get(e.computer)
            e.rating_end = now if now is not None else e.rating_start


def live_html(tournament: Tournament) -> str:
    return render_to_string("tournaments/_live.html", context(tournament))


def game_of(tournament: Tournament, user) -> Game | None:  # noqa: ANN001 - a User
    """The user's game of this event still going, if any ("your next game")."""
    if user is None or not user.is_authenticated:
        return None
    entrant = Entrant.objects.filter(tournament=tournament, user=user).first()
    if entrant is None:
        return None
    pairing = (
        tournament.pairings.filter(Q(red=entrant) | Q(blue=entrant), red_score=None)
        .exclude(game=None)
        .select_related("game")
        .order_by("-id")
        .first()
    )
    return pairing.game if pairing and pairing.game.is_active else None


def lists() -> dict:
    """/tournaments/ and the lobby's section: upcoming, running and finished public events."""
    public = Tournament.objects.filter(private=False).order_by("-featured", "starts_at")
    return {
        "running": list(public.filter(status=Tournament.Status.RUNNING)[:20]),
        "upcoming": list(public.filter(status=Tournament.Status.UPCOMING)[:20]),
        "finished": list(
            public.filter(status=Tournament.Status.FINISHED).order_by("-finished_at")[:20]
        ),
    }
