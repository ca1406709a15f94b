"""The soak's TCP players: one signs on at the door, sets up and waits; a browser guest finds
its game in the lobby, joins it and plays it out against it; then the next one comes. The
TCP player keeps count of the moves to know its turn, and tries the steps its Board frame
allows until the door takes one."""

from __future__ import annotations

import asyncio
import itertools
import json
import random

from games.transport.legacy import frames as f
from games.transport.legacy.client import LegacyClient
from games.transport.legacy.pieces import EMPTY, HIDDEN

from .actors import REC, Plan, Socket, next_address, play, sign_on
from .web import Visitor

# Red's 40 pieces by id (the classic army's counts), shuffled over rows 0..3
ARMY = "12334445555666677778888899999999SBBBBBBF"
IMMOBILE = {"B", "F"}


def candidate_steps(cells: str, rng: random.Random) -> list[tuple[int, int, int, int]]:
    steps = []
    for square, piece in enumerate(cells):
        if piece in (EMPTY, HIDDEN, "L") or piece in IMMOBILE:
            continue
        y, x = divmod(square, 10)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < 10 and 0 <= ny < 10 and cells[ny * 10 + nx] in (EMPTY, HIDDEN):
                steps.append((x, y, nx, ny))
    rng.shuffle(steps)
    return steps


async def tcp_side(client: LegacyClient, plan: Plan, name: str) -> None:
    rng = random.Random(name)
    pieces = list(ARMY)
    rng.shuffle(pieces)
    for square, piece in enumerate(pieces):
        await client.setup(piece, square % 10, square // 10)
        await client.read(30)  # Placement Valid
    await client.ready()
    red, moves = None, 0
    while plan.running():
        try:
            frame = await client.read(5)
        except TimeoutError:  # the browser side is thinking: look at the clock again
            continue
        if frame[0] == f.GAME_OVER:
            return
        if frame[0] == f.PLAYING:
            red = frame[1] == name
        elif frame[0] in (f.MOVED, f.BATTLE):
            moves += 1
        elif frame[0] == f.BOARD and red is not None and (moves % 2 == 0) == red:
            for step in candidate_steps(frame[1], rng):
                await asyncio.sleep(plan.think())
                await client.move(*step)
                answer = await client.read(60)
                if answer[0] in (f.MOVED, f.BATTLE):
                    moves += 1
                    break
                if answer[0] == f.GAME_OVER:
                    return


async def browser_side(plan: Plan, name: str) -> None:
    visitor = Visitor(next_address(), plan.port)
    if not await sign_on(visitor, f"x{name}"):
        return
    gid = None
    while gid is None and plan.running():
        lobby = await Socket.open(plan.port, "/ws/lobby/", visitor, None, "lobby")
        if lobby is None:
            return
        for _ in range(100):
            if lobby.lobby is not None:
                break
            await asyncio.sleep(0.1)
        await lobby.close()
        waiting = (lobby.lobby or {}).get("waiting", [])
        gid = next((e["id"] for e in waiting if name in json.dumps(e["seats"])), None)
        if gid is None:
            await asyncio.sleep(1)
    if gid is None:
        return
    REC.http("join game", await visitor.post(f"/games/{gid}/join/", {"seat": "1"}))
    sock = await Socket.open(plan.port, f"/ws/games/{gid}/", visitor, gid, "player")
    if sock is None:
        return
    REC.live.add(gid)
    try:
        await play(plan, sock, None, plan.data["plies"])
    finally:
        REC.live.discard(gid)
        await sock.close()


async def door_games(plan: Plan) -> None:
    for round_ in itertools.count():
        if not plan.running():
            return
        name = f"tcp{round_}"
        try:
            client = await LegacyClient.connect("127.0.0.1", plan.data["door_port"])
        except OSError:
            REC.sockets["tcp refused"] += 1
            await asyncio.sleep(2)
            continue
        try:
            await client.sign_on(name)
            await client.read(30)  # Wait
            await asyncio.gather(tcp_side(client, plan, name), browser_side(plan, name))
            REC.sockets["tcp games"] += 1
        except Exception as exc:  # counted: the soak goes on
            REC.sockets[f"tcp game failed: {type(exc).__name__}"] += 1
            await asyncio.sleep(1)
        finally:
            await client.close()
