"""A bot account's client (`python -m games.client`) plays a whole game against a person's
socket on a real daphne (PostgreSQL + Redis); wrong and revoked tokens are refused; the bot
never receives a hidden rank."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import InvalidStatus

from botapi.models import ApiToken
from botapi.tokens import make_bot, user_for_token
from clients.bot.connection import SEND_INTERVAL, BotConnection
from clients.bot.seat import PlayerSeat
from games import services
from games.domain.models import Game
from tests.server.conftest import (  # noqa: F401
    BLUE_SETUP,
    adb,
    fresh_channel_layer,
    make_guest,
    no_heartbeat_after_the_test,
)
from tests.server.daphne import ROOT, Daphne
from tests.server.leaks import assert_no_leak

from .botproc import bot_client, finished

PERSON_PAUSE = SEND_INTERVAL  # a person's moves, paced as a bot's (the server closes floods)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daphne(tmp_path):
    server = Daphne(tmp_path / "daphne.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
    assert "Traceback" not in server.log_text()


class Person:
    """A person's browser socket: sets up, then plays random legal moves until the end."""

    def __init__(self, daphne: Daphne, session_key: str, setup: dict | None) -> None:
        self.daphne = daphne
        self.cookie = {"Cookie": f"sessionid={session_key}", **daphne.origin}
        self.setup = setup  # None: join the free seat first, then a random setup
        self.rng = random.Random(5)

    async def play(self, public_id: str) -> dict:
        url = self.daphne.url(f"/ws/games/{public_id}/")
        async with ws_connect(url, additional_headers=self.cookie) as ws:
            if self.setup is None:
                await ws.send(json.dumps({"type": "join", "seat": None}))
                await ws.send(json.dumps({"type": "random_setup"}))
            else:
                pieces = {str(s): r for s, r in self.setup.items()}
                await ws.send(json.dumps({"type": "setup", "pieces": pieces}))
            await ws.send(json.dumps({"type": "ready"}))
            moved = None
            async for raw in ws:
                frame = json.loads(raw)
                event = frame.get("event") or {}
                if event.get("kind") == "game_over":
                    return event
                view = frame.get("view")
                if view and view["phase"] == "playing" and view["turn"] == view["viewer"]:
                    if view["legal_moves"] and moved != view["ply"]:
                        moved = view["ply"]
                        src, dst = self.rng.choice(view["legal_moves"])
                        await asyncio.sleep(PERSON_PAUSE)
                        await ws.send(json.dumps({"type": "move", "from": src, "to": dst}))
        raise AssertionError("the person's socket closed before the end")


def doc_example_bot():  # (the Player class of docs/bots.md's example)
    text = (ROOT / "docs" / "bots.md").read_text()
    section = text[text.index("## Playing on a server") :]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(code, "docs/bots.md", "exec"), namespace)  # noqa: S102 - our own doc
    return namespace["Greedy"]


def check_leaks(frames: list[dict]) -> int:
    """Leak-check every frame the bot received, with the role it had then."""
    role = 2
    for frame in frames:
        if frame.get("type") == "state":
            role = frame["role"]
        elif "view" in frame:
            role = frame["view"]["viewer"]
        if frame.get("type") in ("state", "event"):
            assert_no_leak(frame, role)
    return role


async def test_a_bot_plays_a_whole_game_against_a_person(daphne):
    _, token = await adb(make_guest_bot)("robo")
    person = await adb(make_guest)("pat")
    game = await adb(services.create_game)(person, "mini", 1)  # the person is Blue
    frames: list[dict] = []
    bot = BotConnection(f"http://127.0.0.1:{daphne.port}", token, record=frames)
    found = await bot.seek("mini")
    assert found == game.public_id
    results = await asyncio.wait_for(
        asyncio.gather(
            bot.play(found, PlayerSeat(doc_example_bot()())),
            Person(daphne, person.session_key, BLUE_SETUP).play(found),
        ),
        120,
    )
    bot_result, person_end = results
    assert bot_result["termination"] == person_end["termination"]
    assert check_leaks(frames) == 0  # the bot took Red, the free seat
    stored = await adb(Game.objects.get)(public_id=found)
    assert (stored.red_name, stored.blue_name, stored.status) == ("robo", "pat", "finished")
    assert stored.red_user_id is not None and stored.ply > 0


def make_guest_bot(name: str):
    return make_bot(name, "test")


@pytest.mark.parametrize("case", ["wrong", "revoked", "other scheme"])
async def test_a_wrong_or_revoked_token_is_refused(daphne, case):
    bot, token = await adb(make_bot)("tokenbot")
    header = f"Bearer {token}"
    if case == "wrong":
        header = f"Bearer {token[:-2]}xx"
    elif case == "revoked":
        await adb(lambda: [t.revoke() for t in ApiToken.objects.filter(bot=bot)])()
        assert await adb(user_for_token)(token) is None
    else:
        header = f"Basic {token}"
    headers = {"Authorization": header, **daphne.origin}
    with pytest.raises(InvalidStatus) as refused:
        async with ws_connect(daphne.url("/ws/lobby/"), additional_headers=headers):
            pass
    assert refused.value.response.status_code == 403


async def test_two_bots_one_opening_one_seeking_play_game_after_game(daphne):
    """One bot opens timed mini games and waits; the other seeks them in the lobby; two
    whole games, one after the other, each a normal stored game between the two accounts."""
    _, opener_token = await adb(make_bot)("opener")
    _, seeker_token = await adb(make_bot)("seeker")
    seeker = await bot_client(
        daphne, seeker_token, "--player", "medium", "--variant", "mini", "--games", "2", "--verbose"
    )  # fmt: skip (it waits for games to appear; --verbose: each move, should it stall)
    opener = await bot_client(daphne, opener_token, "--player", "random", "--create", "--verbose",
                              "--variant", "mini", "--clock", "5+3", "--games", "2")  # fmt: skip
    opened, sought = await asyncio.gather(finished(opener), finished(seeker))
    assert opened.count("waiting for an opponent") == 2 and "signed in as opener (BOT)" in opened
    ids = [line.split()[1] for line in sought.splitlines() if line.startswith("game ")]
    assert len(ids) == 2 and all(f"opened game {i}" in opened for i in ids), (opened, sought)
    games = await adb(lambda: list(Game.objects.filter(public_id__in=ids)))()
    for game in games:
        assert {game.red_name, game.blue_name} == {"opener", "seeker"}
        assert (game.status, game.variant, game.clock_base_ms) == ("finished", "mini", 300_000)
        assert game.ply > 0 and game.red_user_id and game.blue_user_id


async def test_a_person_joins_a_game_a_bot_opened(daphne):
    _, token = await adb(make_bot)("host")
    person = await adb(make_guest)("visitor")
    bot = await bot_client(daphne, token, "--player", "random", "--create", "--variant", "mini")
    cookie = {"Cookie": f"sessionid={person.session_key}", **daphne.origin}
    async with ws_connect(daphne.url("/ws/lobby/"), additional_headers=cookie) as lobby:
        while True:  # the lists come again when the bot's game is created
            lists = json.loads(await asyncio.wait_for(lobby.recv(), 60))
            entry = next((g for g in lists["waiting"] if g["variant"] == "mini"), None)
            if entry is not None:
                break
    bot_seat = next(s for s in entry["seats"] if s is not None)
    assert bot_seat == {**bot_seat, "name": "host", "bot": True}  # BOT in the lobby
    end = await asyncio.wait_for(Person(daphne, person.session_key, None).play(entry["id"]), 120)
    out = await finished(bot, 30)
    assert f"game {entry['id']} over" in out and end["kind"] == "game_over"
    game = await adb(Game.objects.get)(public_id=entry["id"])
    assert {game.red_name, game.blue_name} == {"host", "visitor"} and game.status == "finished"


async def game_ply(public_id: str) -> int:
    return (await adb(Game.objects.get)(public_id=public_id)).ply


async def wait_for_ply(public_id: str, ply: int, timeout: float = 60) -> int:
    for _ in range(int(timeout * 10)):
        now = await game_ply(public_id)
        if now >= ply:
            return now
        await asyncio.sleep(0.1)
    raise AssertionError(f"game {public_id} stayed at ply {now}, below {ply}")


async def test_bots_get_back_into_their_game_after_a_server_restart(daphne):
    """The server restarts mid-game (every socket drops): both bot clients open their game's
    socket again and play on from where it stood."""
    _, opener_token = await adb(make_bot)("phoenix")
    _, seeker_token = await adb(make_bot)("ember")
    slow = ("--player", "tests.doors.slow_bot:Slow", "--variant", "classic", "--verbose")
    opener = await bot_client(daphne, opener_token, *slow, "--create")
    seeker = await bot_client(daphne, seeker_token, *slow)
    try:
        line = (await asyncio.wait_for(opener.stdout.readline(), 60)).decode()
        line += (await asyncio.wait_for(opener.stdout.readline(), 60)).decode()
        public_id = line.split("opened game ")[1].split()[0]
        before = await wait_for_ply(public_id, 4)
        daphne.stop()
        daphne.start()  # on the same port
        after = await wait_for_ply(public_id, before + 6)
        assert after > before
    finally:
        for bot in (opener, seeker):
            if bot.returncode is None:
                bot.terminate()
        _, err = await opener.communicate()
    assert "the socket dropped" in err.decode(), err.decode()
    assert "Traceback" not in err.decode()


async def test_the_client_runs_as_a_command_with_a_computer_level(daphne):
    """`python -m games.client` itself, with the `medium` level, against a person."""
    _, token = await adb(make_guest_bot)("levelbot")
    person = await adb(make_guest)("paula")
    game = await adb(services.create_game)(person, "mini", 1)
    command = [sys.executable, "-m", "clients.bot", "--server", f"http://127.0.0.1:{daphne.port}",
               "--token", token, "--player", "medium", "--game", game.public_id]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    bot = await asyncio.create_subprocess_exec(
        *command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    end = await asyncio.wait_for(
        Person(daphne, person.session_key, BLUE_SETUP).play(game.public_id), 120
    )
    out, err = await asyncio.wait_for(bot.communicate(), 30)
    assert bot.returncode == 0, err.decode()
    assert f"game {game.public_id} over" in out.decode() and end["kind"] == "game_over"
