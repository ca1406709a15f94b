"""A whole 8-player Swiss of bot programs, each `python -m games.client --tournament ID` in
its own process, through the Bot API on a real daphne with PostgreSQL and Redis: one bot
enters and never shows up (it forfeits every game after the grace), one sends an illegal
move (it forfeits that game, as games/engine/referee.py rules), and the server restarts between
two rounds (the next round still starts on time, from the database)."""

from __future__ import annotations

import asyncio
import time
import urllib.request
from datetime import timedelta

import pytest
from django.utils import timezone

from botapi.tokens import make_bot
from games.domain.models import Game
from players.models import RatingChange
from tests.doors.botproc import bot_client, finished
from tests.server.conftest import adb, fresh_channel_layer, no_heartbeat_after_the_test  # noqa: F401
from tests.server.daphne import Daphne
from tournaments import events
from tournaments.models import Pairing, Tournament

from .helpers import account, event

pytestmark = pytest.mark.django_db(transaction=True)
ROUNDS = 3


@pytest.fixture
def daphne(tmp_path):
    server = Daphne(tmp_path / "daphne.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
    assert "Traceback" not in server.log_text(), server.log_text()


def new_event() -> Tournament:
    swiss = event(account("host"), name="Bots' Swiss", rounds=ROUNDS, rated=True,
                  starts_at=timezone.now() + timedelta(days=1))  # fmt: skip
    # a bot polls its pairings every second: 6 s is ample even on a loaded machine
    swiss.grace_seconds, swiss.round_pause_seconds = 6, 3
    swiss.save()
    return swiss


def enter_over_http(port: int, tournament_id: int, token: str) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/bot/tournaments/{tournament_id}/enter/",
        data=b"{}", headers={"Authorization": f"Bearer {token}"}, method="POST")  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


async def wait_for(check, timeout: float, what: str):  # noqa: ANN001, ANN201
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = await adb(check)()
        if found:
            return found
        await asyncio.sleep(0.2)
    raise AssertionError(f"waited {timeout:.0f} s for {what}")


async def test_an_eight_bot_swiss_with_a_no_show_an_illegal_move_and_a_restart(daphne):
    swiss = await adb(new_event)()
    tokens = {}
    for name in ("ada", "bea", "cy", "dot", "eve", "fox", "gus", "nobody"):
        tokens[name] = (await adb(make_bot)(name))[1]
    assert await asyncio.to_thread(enter_over_http, daphne.port, swiss.pk, tokens["nobody"]) == 201
    players = {name: "random" for name in ("ada", "bea", "cy", "dot", "eve", "fox")}
    players["gus"] = "tests.tournaments.bots:IllegalOnce"
    clients = {
        name: await bot_client(
            daphne, tokens[name], "--player", player, "--tournament", str(swiss.pk)
        )  # fmt: skip
        for name, player in players.items()
    }
    try:
        await wait_for(lambda: swiss.entrants.count() == 8, 60, "eight entrants")
        chosen = await adb(events.settings_of)(swiss)
        chosen.starts_at = timezone.now()
        await adb(events.edit)(swiss.pk, swiss.created_by, chosen)  # it starts now

        def between_rounds() -> bool:
            t = Tournament.objects.get(pk=swiss.pk)
            return t.current_round == 1 and t.next_round_at is not None

        await wait_for(between_rounds, 120, "round 1 to end")
        paused = await adb(lambda: Tournament.objects.get(pk=swiss.pk).next_round_at)()
        daphne.stop()
        daphne.start()  # the same port; the bots wait for it
        await wait_for(
            lambda: Tournament.objects.get(pk=swiss.pk).status == "finished", 240, "the end"
        )
        outputs = await asyncio.gather(*(finished(c, timeout=60) for c in clients.values()))
    finally:
        for client in clients.values():
            if client.returncode is None:
                client.kill()
                await client.wait()

    for name, out in zip(clients, outputs, strict=True):
        assert f"event {swiss.pk} finished: {ROUNDS} games played" in out, (name, out)

    def check() -> None:
        pairings = list(Pairing.objects.filter(tournament=swiss).select_related("red", "blue"))
        assert len(pairings) == ROUNDS * 4 and all(p.blue_id for p in pairings)
        second = min(p.created for p in pairings if p.round == 2)
        assert second >= paused  # round 2 began when it was due, after the restart
        met = [frozenset((p.red_id, p.blue_id)) for p in pairings]
        assert len(set(met)) == len(met)
        for p in pairings:
            names = (p.red.name, p.blue.name)
            if "nobody" in names:  # never there: lost every game by forfeit
                nobody = names.index("nobody")
                assert (p.red_score, p.blue_score)[nobody] == 0.0 and p.note == "forfeit"
                assert p.game.termination == "forfeit" and p.game.winner == 1 - nobody
        gus = [p for p in pairings if "gus" in (p.red.name, p.blue.name)]
        against_players = [p for p in gus if "nobody" not in (p.red.name, p.blue.name)]
        broke = [p for p in against_players if p.game.termination == "forfeit"]
        assert len(broke) == 1, [(p.game.termination, p.game.ply, p.note) for p in gus]
        (p,) = broke
        gus_seat = 0 if p.red.name == "gus" else 1
        assert p.game.winner == 1 - gus_seat and (p.red_score, p.blue_score)[gus_seat] == 0.0
        event_games = Game.objects.filter(pairing__tournament=swiss)
        assert all(g.status == "finished" for g in event_games)
        assert RatingChange.objects.filter(game__in=event_games).count() == 2 * ROUNDS * 4
        places = sorted(e.place for e in swiss.entrants.all())
        assert places[0] == 1 and len(places) == 8
        assert swiss.entrants.get(name="nobody").points == 0
        assert all(e.rating_end is not None for e in swiss.entrants.all())

    await adb(check)()
