"""Seeded, bounded fuzzing of every URL and every websocket message type. Whatever comes in,
the answer is a 4xx/2xx/3xx (never 500) or an error frame, and the log holds no traceback."""

from __future__ import annotations

import json
import logging
import random
import re
import time

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from games import services
from games.transport import consumers

from .conftest import adb, connect, make_guest, receive
from .helpers import seated_game

SEED = 9
JUNK_TEXT = ["", "\x00", "a\x00b", "%00", "\udcff", "\u202e", "null", "-1", "1e999", "0" * 300,
             "<script>", "' OR 1=1 --", "../../etc/passwd", "ß" * 70, " ", "\n"]  # fmt: skip


def junk_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(10 if depth < 3 else 7)
    if kind == 0:
        return rng.choice([0, 1, -1, 7, 2**31, -(2**31) - 1, 2**63, 10**40])
    if kind == 1:
        return rng.choice(JUNK_TEXT)
    if kind == 2:
        return rng.choice([None, True, False])
    if kind == 3:
        return rng.choice([0.5, -0.0, 1e308])
    if kind in (4, 5, 6):
        return rng.randrange(-3, 110)  # squares and ranks, in range or near it
    if kind == 7:
        return [junk_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(JUNK_TEXT + ["7", "12"]): junk_value(rng, depth + 1) for _ in range(3)}


def junk_body(rng: random.Random) -> tuple[bytes, str]:
    kind = rng.randrange(6)
    if kind == 5:  # a report (moderation/reports.py) of a message, or a player
        fields = {"version": junk_value(rng), "reason": rng.choice(JUNK_TEXT + ["abuse", "spam"]),
                  "details": junk_value(rng)}  # fmt: skip
        if rng.random() < 0.5:
            return json.dumps(fields).encode(), "application/json"
        form = "&".join(f"{k}={rng.choice(JUNK_TEXT + ['abuse'])}" for k in ("reason", "details"))
        return form.encode("utf-8", "surrogatepass"), "application/x-www-form-urlencoded"
    if kind == 0:
        return json.dumps(junk_value(rng)).encode(), "application/json"
    if kind == 1:
        return ("[" * 5000 + "]" * 5000).encode(), "application/json"
    if kind == 2:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(64))), "application/json"
    if kind == 3:
        layout = [[rng.choice([None, 1, 2, 11, 12, 99, "x"]) for _ in range(5)] for _ in range(2)]
        name = rng.choice(JUNK_TEXT + ["mine"])
        return json.dumps({"name": name, "layout": layout}).encode(), "application/json"
    form = "&".join(f"{k}={rng.choice(JUNK_TEXT)}" for k in ("nickname", "variant", "seat"))
    return form.encode("utf-8", "surrogatepass"), "application/x-www-form-urlencoded"


# --- HTTP -------------------------------------------------------------------------------

ROUTE_PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")


def routes(patterns=None, prefix: str = "") -> list[str]:
    """Every route of the site (but Django's own admin), as 'games/<game_id:game_id>/'."""
    found = []
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        route = prefix + str(entry.pattern)
        if route.startswith("admin/"):
            continue
        if isinstance(entry, URLResolver):
            found += routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            found.append(route)
    return found


def fill(route: str, rng: random.Random, real: dict[str, str]) -> str:
    def one(match: re.Match) -> str:
        if rng.random() < 0.5:
            return real.get(match.group(2), "1")
        return rng.choice(["%00", "x%00y", "%ff", "9" * 40, "a" * 300, "%2e%2e", "-", "A"])

    return "/" + ROUTE_PARAM.sub(one, route)


@pytest.mark.django_db
def test_fuzzed_requests_to_every_url_never_fail(caplog):
    rng = random.Random(SEED)
    gid, _, _ = seated_game()
    real = {"game_id": gid, "variant": "classic", "name": "mini", "setup_id": "1"}
    member = Client(raise_request_exception=False)
    member.force_login(User.objects.create_user("fuzzer", password="long-enough-pw-1"))
    guest = Client(raise_request_exception=False)
    guest.post("/nickname/", {"nickname": "guest1"})
    clients = [Client(raise_request_exception=False), member, guest]
    all_routes = routes()
    assert len(all_routes) >= 12 and any("<game_id:" in r for r in all_routes)
    caplog.set_level(logging.WARNING)
    failures = []
    for route in all_routes:
        for _ in range(25):
            url, client = fill(route, rng, real), rng.choice(clients)
            method = rng.choice(["get", "post", "post", "put", "delete", "head"])
            body, content_type = junk_body(rng)
            kwargs = {} if method in ("get", "head") else {"content_type": content_type}
            args = () if method in ("get", "head") else (body,)
            status = getattr(client, method)(url, *args, **kwargs).status_code
            if status >= 500:
                failures.append((method, url, body[:80], status))
    assert not failures, failures[:10]
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


# --- websockets -------------------------------------------------------------------------

MESSAGE_TYPES = ["ping", "sync", *consumers.ACTIONS]
FIELDS = ["seat", "square", "rank", "from", "to", "pieces", "version"]


def fuzzed_message(rng: random.Random, kind: str) -> str | bytes:
    roll = rng.random()
    if roll < 0.05:
        return rng.choice(
            ["", "{", "[]", "null", '"move"', "[" * 3000, "{}", '{"type":7}', b"\x00"]
        )
    message = {"type": kind}
    for name in FIELDS:
        if rng.random() < 0.6:
            message[name] = junk_value(rng)
    if kind == "setup" and rng.random() < 0.5:
        message["pieces"] = {str(rng.randrange(-2, 30)): rng.randrange(-1, 13) for _ in range(10)}
    return json.dumps(message)


def playable_game(rng: random.Random):
    """A mini game, seated, in setup or (half the time) in play."""
    gid, red, blue = seated_game()
    if rng.random() < 0.5:
        for ident in (red, blue):
            services.random_setup(gid, ident, seed=rng.randrange(1000))
            services.ready(gid, ident)
    return gid, red, blue


async def fenced(comm, text: str | bytes) -> None:
    """Send one frame, then a ping; read up to the pong (every answer in between)."""
    key = "bytes" if isinstance(text, bytes) else "text"
    await comm.send_input({"type": "websocket.receive", key: text})
    await comm.send_json_to({"type": "ping"})
    while (await receive(comm, timeout=10))["type"] != "pong":
        pass


@pytest.mark.django_db(transaction=True)
async def test_fuzzed_frames_of_every_type_never_fail(caplog):
    rng = random.Random(SEED)
    caplog.set_level(logging.WARNING)
    sent = 0
    for _batch in range(12):
        gid, red, blue = await adb(playable_game)(rng)
        watcher = await adb(make_guest)()
        ident = rng.choice([red, blue, watcher, None])
        comm = await connect(f"/ws/games/{gid}/", ident)
        await receive(comm)  # the state
        for _ in range(15):  # 2 frames each: under the flood limit's burst
            await fenced(comm, fuzzed_message(rng, rng.choice(MESSAGE_TYPES)))
            sent += 1
        await comm.disconnect()
    lobby = await connect("/ws/lobby/", await adb(make_guest)())
    await receive(lobby)
    for text in ['{"type":"ping"}', '{"type":"x"}', "[]", "{", '{"type":null}']:
        await fenced(lobby, text)
    await lobby.disconnect()
    assert sent == 180
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


@pytest.mark.django_db(transaction=True)
def test_fuzzed_frames_then_a_sudden_close_on_real_daphne(tmp_path):
    """Real daphne: a socket sends fuzzed frames and a legal move, then closes (cleanly or by
    cutting the TCP connection) without reading the answers. The server's log stays clean."""
    import socket as pysocket

    from websockets.sync.client import connect as ws_connect

    from .daphne import Daphne, assert_clean_log

    rng = random.Random(SEED)
    daphne = Daphne(tmp_path / "daphne.log").start()
    try:
        for round_ in range(8):
            gid, red, blue = playable_game(rng)
            headers = {**daphne.origin, "Cookie": f"sessionid={red.session_key}"}
            with ws_connect(daphne.url(f"/ws/games/{gid}/"), additional_headers=headers) as ws:
                state = json.loads(ws.recv(10))
                for _ in range(6):
                    ws.send(fuzzed_message(rng, rng.choice(MESSAGE_TYPES)))
                legal = state["view"]["legal_moves"]
                if legal:
                    ws.send(json.dumps({"type": "move", "from": legal[0][0], "to": legal[0][1]}))
                if round_ % 2:
                    ws.socket.shutdown(pysocket.SHUT_RDWR)  # the connection cut, no close frame
        time.sleep(2)  # the answers to the closed sockets are attempted meanwhile
    finally:
        daphne.stop()
    assert_clean_log(daphne.log_text())
