"""`/ws/tournaments/<id>/`: an event's page follows it live. On connect and after every
change (tournaments/live.py) the socket sends one `tournament` frame: the standings, games and
rounds as HTML (the same fragment the page renders first), the status, and for an entrant
the game of theirs going on now ("your next game"), in the page's language (its language
cookie, else Accept-Language, as LocaleMiddleware chose it for the page). Several sockets of
one process share one rendering of a change per language."""

from __future__ import annotations

import asyncio
import time

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import translation

from games.transport.consumers import GuardedConsumer, error_frame
from games.transport.guards import CLOSE_NOT_FOUND, BadFrame
from games.transport.language import language_of

from . import live, pages
from .models import Tournament

COALESCE_SECONDS = 0.25  # a burst of changes (a round's games opening) is one frame
_rendered: dict[tuple[int, str], tuple[float, str]] = {}  # (event, language) -> (when, html)
_cost: dict[int, float] = {}  # event -> seconds its last rendering took


def fresh_html(tournament: Tournament, since: float, language: str) -> str:
    key = (tournament.pk, language)
    cached = _rendered.get(key)
    if cached is not None and cached[0] >= since:
        return cached[1]
    at = time.monotonic()
    with translation.override(language):
        html = pages.live_html(tournament)
    _rendered[key] = (at, html)
    _cost[tournament.pk] = time.monotonic() - at
    return html


def wait_before_render(tournament_id: int) -> float:
    """A big event's page takes a while to render (on the process's one database thread):
    its changes are gathered for at least twice that long, so rendering never takes more
    than a third of that thread however fast results come in."""
    return max(COALESCE_SECONDS, 2 * _cost.get(tournament_id, 0.0))


def state(tournament_id: int, user, since: float, language: str) -> dict | None:  # noqa: ANN001
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    game = pages.game_of(tournament, user)
    return {
        "type": "tournament",
        "status": tournament.status,
        "round": tournament.current_round,
        "html": fresh_html(tournament, since, language),
        "your_game": game.public_id if game is not None else None,
    }


class TournamentConsumer(GuardedConsumer):
    tournament_id = 0
    joined = False
    language = settings.LANGUAGE_CODE

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["pk"])
        self.language = language_of(self.scope)
        await self.accept()
        frame = await self.read_state(time.monotonic())
        if frame is None:
            with translation.override(self.language):
                message = translation.gettext("There is no such event.")
            await self.send_json(error_frame("not_found", message, None))
            await self.close_with(CLOSE_NOT_FOUND)
            return
        await self.channel_layer.group_add(live.group(self.tournament_id), self.channel_name)
        self.joined = True
        await self.send_json(frame)

    async def disconnect(self, code: int) -> None:
        if self.joined:
            self.joined = False
            await self.channel_layer.group_discard(
                live.group(self.tournament_id), self.channel_name
            )

    async def read_state(self, since: float) -> dict | None:
        user = self.scope.get("user")
        return await database_sync_to_async(state)(self.tournament_id, user, since, self.language)

    async def handle(self, kind: str, message: dict) -> None:
        if kind == "ping":
            await self.send_json({"type": "pong"})
        else:
            raise BadFrame(
                "unknown_type",
                translation.gettext("Unknown message type %(type)r.") % {"type": kind},
            )

    async def tournament_changed(self, event: dict) -> None:
        since = time.monotonic()
        await asyncio.sleep(wait_before_render(self.tournament_id))
        frame = await self.read_state(since)
        if frame is not None:
            await self.send_json(frame)
