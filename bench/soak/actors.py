"""The soak's visitors' common parts: what is measured (one process, one clock), a socket read
in a task of its own, signing on as a guest, and playing a game out from a player's view."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect

from .web import Visitor

now = time.perf_counter
_addresses = itertools.count()


def next_address() -> str:
    """127.0.x.y for x in 1..254, y in 1..254 (127.0.0.1 is left to the servers' own)."""
    n = next(_addresses) % (254 * 254)
    return f"127.0.{1 + n // 254}.{1 + n % 254}"


@dataclass
class Record:
    """Everything measured, in one process (one clock)."""

    http_ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    http_status: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    opponent_ms: list[float] = field(default_factory=list)
    opponent_at: list[float] = field(default_factory=list)  # when, in seconds from the start
    spectator_ms: list[float] = field(default_factory=list)
    error_frames: Counter = field(default_factory=Counter)
    sockets: Counter = field(default_factory=Counter)
    sent_at: dict[tuple[str, int], float] = field(default_factory=dict)
    live: set[str] = field(default_factory=set)
    finished: list[str] = field(default_factory=list)
    accounts: list[str] = field(default_factory=list)
    moves: int = 0
    games: int = 0
    started: float = field(default_factory=lambda: now())

    def http(self, kind: str, answer) -> None:  # (a web.Answer)
        self.http_ms[kind].append(answer.ms)
        self.http_status[kind][answer.status] += 1


REC = Record()


class Socket:
    """One websocket of a visitor, read in a task of its own."""

    def __init__(self, ws: ClientConnection, game: str | None, role: str) -> None:
        self.ws, self.game, self.role = ws, game, role
        self.view: dict | None = None
        self.lobby: dict | None = None  # a lobby socket's latest lists
        self.version = -1
        self.reader = asyncio.get_running_loop().create_task(self.read())

    @classmethod
    async def open(cls, port: int, path: str, visitor: Visitor, game: str | None,
                   role: str) -> Socket | None:  # fmt: skip
        headers = {"Origin": f"http://127.0.0.1:{port}"}
        if visitor.cookies:
            headers["Cookie"] = visitor.cookie_header()
        REC.sockets[f"{role} opened"] += 1
        try:
            ws = await connect(f"ws://127.0.0.1:{port}{path}", additional_headers=headers,
                               local_addr=(visitor.address, 0), open_timeout=30,
                               max_size=2**22)  # fmt: skip
        except Exception as exc:
            REC.sockets[f"{role} refused: {type(exc).__name__}"] += 1
            return None
        return cls(ws, game, role)

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                self.arrived(json.loads(raw), now())
        except Exception:
            pass
        code = self.ws.close_code
        if code not in (1000, None) or not self.ws.close_sent:
            REC.sockets[f"{self.role} closed by the server: {code}"] += 1

    def arrived(self, frame: dict, at: float) -> None:
        kind = frame.get("type")
        if kind == "lobby":
            self.lobby = frame
            return
        if kind == "error":
            REC.error_frames[f"{frame.get('code', '?')} ({frame.get('request', '-')})"] += 1
            return
        if kind not in ("event", "state") or self.game is None:
            return
        version = frame.get("version", -1)
        if kind == "event" and version > self.version and self.role in ("opponent", "spectator"):
            sent = REC.sent_at.get((self.game, version))
            if sent is not None and self.role == "opponent":
                REC.opponent_ms.append((at - sent) * 1000)
                REC.opponent_at.append(at - REC.started)
            elif sent is not None:
                REC.spectator_ms.append((at - sent) * 1000)
        self.version = max(self.version, version)
        if "view" in frame:
            self.view = frame["view"]

    async def send(self, message: dict) -> bool:
        try:
            await self.ws.send(json.dumps(message))
            return True
        except Exception:
            return False

    async def close(self) -> None:
        try:
            await self.ws.close()
        except Exception:
            pass
        self.reader.cancel()


async def sign_on(visitor: Visitor, name: str) -> bool:
    page = await visitor.get("/")
    REC.http("lobby page", page)
    answer = await visitor.post("/nickname/", {"nickname": name, "next": "/"}, page=None)
    REC.http("sign on", answer)
    return answer.status == 302 and "sessionid" in visitor.cookies


def game_of(answer) -> str | None:  # (a web.Answer)
    location = answer.headers.get("location", "")
    parts = [p for p in location.split("/") if p]
    return parts[1] if len(parts) >= 2 and parts[0] == "games" else None


class Plan:
    def __init__(self, data: dict) -> None:
        self.port: int = data["port"]
        self.ends_at = now() + data["seconds"]
        self.rng = random.Random(data["seed"])
        self.data = data

    def running(self) -> bool:
        return now() < self.ends_at

    def retry(self) -> float:
        """A person's pause before trying again after a failure."""
        return self.rng.uniform(5, 15)

    def think(self) -> float:
        low, high = self.data["think"]
        return self.rng.uniform(low, high)


async def play(plan: Plan, me: Socket, other: Socket | None, plies: int) -> None:
    """Set up at random, get ready, then move whenever it is my turn until the game ends, the
    plies run out or the soak ends; then resign if the game is still on."""
    sockets = [s for s in (me, other) if s is not None]
    for sock in sockets:
        await sock.send({"type": "random_setup"})
        await sock.send({"type": "ready"})
    played = 0
    while plan.running() and played < plies:
        await asyncio.sleep(0.05)
        if any(s.view and s.view.get("outcome") for s in sockets):
            return
        mover = next((s for s in sockets if s.view and s.view.get("legal_moves")), None)
        if mover is None:
            continue
        base = mover.version
        await asyncio.sleep(plan.think())
        if mover.version != base or not mover.view.get("legal_moves") or mover.view.get("outcome"):
            continue
        frm, to = plan.rng.choice(mover.view["legal_moves"])
        REC.sent_at[(mover.game, base + 1)] = now()
        if not await mover.send({"type": "move", "from": frm, "to": to}):
            return
        REC.moves += 1
        played += 1
    if not any(s.view and s.view.get("outcome") for s in sockets):
        await me.send({"type": "resign"})
        await asyncio.sleep(0.5)
