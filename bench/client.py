"""The load client: a process of its own (`python -m bench.client plan.json out.json`), so
its CPU is not the server's. It plays the games the runner prepared over real websockets,
choosing each move from the mover's own view (`legal_moves`), and writes what it measured."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
import urllib.request
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake

from .stats import summary, version_gaps

MOVE_TIMEOUT = [10.0]  # seconds a delivery may take before it counts as lost (plan's)
MIN_MOVE_GAP = 0.03  # one game's moves at most ~33/s: each side stays under the flood limit
now = time.perf_counter


def progress(text: str) -> None:
    sys.stderr.write(f"\r  {text:<78}")
    sys.stderr.flush()


@dataclass
class Sock:
    """One websocket and what arrived on it."""

    ws: ClientConnection
    url: str = ""
    origin: str = ""
    cookie: str | None = None
    view: dict | None = None
    version: int = -1
    events: set[int] = field(default_factory=set)
    seen_at: dict[int, float] = field(default_factory=dict)  # event version -> arrival
    states: list[int] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    waiters: list[tuple[int, asyncio.Future]] = field(default_factory=list)
    closed: int | None = None
    reconnects: int = 0

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                self.arrived(json.loads(raw), now())
        except Exception:  # the connection died: what it got so far stands
            pass
        self.closed = self.ws.close_code or 1006
        for _, fut in self.waiters:
            if not fut.done():
                fut.set_result(("closed", now()))

    def arrived(self, frame: dict, at: float) -> None:
        kind = frame.get("type")
        if kind == "error":
            self.errors.append(frame)
            self.resolve(lambda base: True, ("error", at))
            return
        if kind not in ("event", "state"):
            return
        version = frame["version"]
        (self.events.add if kind == "event" else self.states.append)(version)
        if kind == "event":
            self.seen_at.setdefault(version, at)
        self.version = max(self.version, version)
        if "view" in frame:  # the last frame of a batch: the socket is current
            self.view = frame["view"]
            self.resolve(lambda base: base < version, ("ok", at))

    def resolve(self, due, result) -> None:
        keep = []
        for base, fut in self.waiters:
            if due(base) and not fut.done():
                fut.set_result(result)
            elif not fut.done():
                keep.append((base, fut))
        self.waiters = keep

    def wait_after(self, base: int) -> asyncio.Future:
        fut = asyncio.get_running_loop().create_future()
        self.waiters.append((base, fut))
        return fut

    def lost(self, first: int, last: int) -> int:
        """Versions first..last neither received as events nor covered by a later state."""
        covered = max(self.states, default=-1)
        return version_gaps(self.events | set(range(covered + 1)), first, last)


async def open_socket(url: str, origin: str, cookie: str | None = None) -> Sock:
    sock = Sock(await dial(url, origin, cookie), url, origin, cookie)
    asyncio.get_running_loop().create_task(sock.read())
    return sock


async def dial(url: str, origin: str, cookie: str | None, since: int = -1) -> ClientConnection:
    """A websocket; a busy server that drops the handshake is tried again (5 times)."""
    headers = {"Origin": origin}
    if cookie:
        headers["Cookie"] = f"sessionid={cookie}"
    if since >= 0:
        url += f"?version={since}"
    for attempt in range(5):
        try:
            return await connect(url, additional_headers=headers, max_size=2**22,
                                 open_timeout=60)  # fmt: skip
        except (OSError, EOFError, InvalidHandshake):
            if attempt == 4:
                raise
            await asyncio.sleep(1 + attempt)
    raise AssertionError("unreachable")


async def reopen(sock: Sock) -> bool:
    """A closed socket reconnects as the site's client does (resync from its version);
    what it had received stays counted. False if the server would not take it back."""
    try:
        sock.ws = await dial(sock.url, sock.origin, sock.cookie, sock.version)
    except Exception:
        return False
    sock.closed = None
    sock.reconnects += 1
    asyncio.get_running_loop().create_task(sock.read())
    return True


def origin_of(server: str) -> str:
    return server.replace("ws://", "http://")


async def current(sock: Sock, timeout: float = 30.0) -> None:
    """Wait for the socket's first state."""
    deadline = now() + timeout
    while sock.view is None and sock.closed is None and now() < deadline:
        await asyncio.sleep(0.01)


@dataclass
class Table:
    """One game's two players (maybe on two servers) and its observers."""

    red: Sock
    blue: Sock
    observers: list[Sock]
    rng: random.Random

    @classmethod
    async def open(cls, game: dict, servers: list[str], observers: int, seed: int) -> Table:
        red_url, blue_url = servers[0], servers[1 % len(servers)]
        path = f"/ws/games/{game['id']}/"
        red = await open_socket(red_url + path, origin_of(red_url), game["red"])
        blue = await open_socket(blue_url + path, origin_of(blue_url), game["blue"])
        watchers = await open_many(
            [
                (servers[i % len(servers)] + path, origin_of(servers[i % len(servers)]))
                for i in range(observers)
            ]  # fmt: skip
        )
        for sock in (red, blue, *watchers):
            await current(sock)
        return cls(red, blue, watchers, random.Random(seed))

    def over(self) -> bool:
        return any(s.view and s.view.get("outcome") for s in (self.red, self.blue))

    async def wait_for_mover(self, timeout: float = 2.0) -> Sock | None:
        """The side to move; a view still on its way (a late frame) is waited for."""
        deadline = now() + timeout
        while (mover := self.mover()) is None and not self.over() and now() < deadline:
            await asyncio.sleep(0.01)
        return mover

    def mover(self) -> Sock | None:
        for sock in (self.red, self.blue):
            if sock.view and sock.view.get("legal_moves"):
                return sock
        return None

    async def move(self, watch_observers: bool) -> dict | None:
        """Play one legal move; when each socket saw it (None: lost), or None if over."""
        for sock in (self.red, self.blue):
            if sock.closed is not None and await reopen(sock):
                await asyncio.sleep(0.2)  # its resync
        mover = await self.wait_for_mover()
        if mover is None:
            if self.over():
                return None
            return {"sent": now(), "base": -1, "error": True, "mover": None, "opponent": None}
        opponent = self.blue if mover is self.red else self.red
        frm, to = self.rng.choice(mover.view["legal_moves"])
        base = mover.version
        watched = self.observers if watch_observers else []
        futures = {"mover": mover.wait_after(base), "opponent": opponent.wait_after(base)}
        futures.update({f"obs{i}": s.wait_after(base) for i, s in enumerate(watched)})
        sent = now()
        try:
            await mover.ws.send(json.dumps({"type": "move", "from": frm, "to": to}))
        except Exception:  # closed meanwhile: this move is an error, the next one reconnects
            return {"sent": sent, "base": base, "error": True, **dict.fromkeys(futures)}
        done, _ = await asyncio.wait(futures.values(), timeout=MOVE_TIMEOUT[0])
        result = {"sent": sent, "base": base, "error": False}
        for name, fut in futures.items():
            status, at = fut.result() if fut in done else ("lost", None)
            result[name] = at if status == "ok" else None
            result["error"] |= status == "error" and name == "mover"
        return result

    async def close(self) -> None:
        await asyncio.gather(*(s.ws.close() for s in (self.red, self.blue, *self.observers)))


async def open_many(targets: list[tuple[str, str]], parallel: int = 20) -> list[Sock]:
    gate = asyncio.Semaphore(parallel)

    async def one(url: str, origin: str) -> Sock:
        async with gate:
            return await open_socket(url, origin)

    return list(await asyncio.gather(*(one(u, o) for u, o in targets)))


async def statements(servers: list[str]) -> int:
    """SQL statements the servers ran so far (bench.counted_asgi's counter)."""

    def read(server: str) -> int:
        address = server.replace("ws://", "http://") + "/__bench__/statements"
        with urllib.request.urlopen(address, timeout=30) as response:
            return json.loads(response.read())["statements"]

    counts = await asyncio.gather(*(asyncio.to_thread(read, s) for s in servers))
    return sum(counts)


def ms(start: float, end: float | None) -> float | None:
    return None if end is None else (end - start) * 1000


# --- scenarios ----------------------------------------------------------------------------


async def echo(plan: dict) -> dict:
    """Round trips of a small frame to the bare echo server, one at a time."""
    url = plan["echo"]
    async with connect(url + "/", additional_headers={"Origin": origin_of(url)}) as ws:
        times = []
        for i in range(plan["echo_frames"]):
            started = now()
            await ws.send(json.dumps({"type": "ping", "n": i}))
            await ws.recv()
            times.append((now() - started) * 1000)
    return {"round_trip": summary(times)}


async def one_game(plan: dict) -> dict:
    """Sequential moves of one game with one observer: mover's ack, opponent, observer."""
    table = await Table.open(plan["games"][0], plan["servers"], 1, plan["seed"])
    lat = {"mover": [], "opponent": [], "observer": []}
    errors = lost = 0
    counted = await statements(plan["servers"])
    for i in range(plan["moves"]):
        started = now()
        result = await table.move(watch_observers=True)
        if result is None:
            break
        errors += result["error"]
        for key, name in (("mover", "mover"), ("opponent", "opponent"), ("obs0", "observer")):
            value = ms(result["sent"], result[key])
            lost += value is None
            if value is not None:
                lat[name].append(value)
        progress(f"one game: move {i + 1}/{plan['moves']}")
        await asyncio.sleep(max(0.0, MIN_MOVE_GAP - (now() - started)))
    await table.close()
    counted = await statements(plan["servers"]) - counted
    reconnects = table.red.reconnects + table.blue.reconnects
    played = max(1, len(lat["opponent"]))
    return {"moves": len(lat["opponent"]), "errors": errors, "lost": lost, "reconnects": reconnects,
            "statements_per_move": round(counted / played, 1),
            **{k: summary(v) for k, v in lat.items()}}  # fmt: skip


async def open_loop(plan: dict) -> dict:
    """Moves arrive at a fixed rate over many games, whether the server keeps up or not; a
    move's latency runs from its scheduled time (so a backlog counts) to the opponent."""
    tables = [await Table.open(g, plan["servers"], 0, plan["seed"] + i)
              for i, g in enumerate(plan["games"])]  # fmt: skip
    steps: list[dict] = []
    saturated = False
    for rate in plan["rates"]:
        if saturated:
            steps.append({"rate": rate, "skipped": "a lower rate already achieved under half"})
            continue
        steps.append(await open_loop_step(tables, rate, plan["step_seconds"]))
        s = steps[-1]
        saturated = plan["stop_when_saturated"] and s["achieved"] < rate / 2
        progress(f"open loop {rate}/s: achieved {s['achieved']}/s p99 {s['p99']} ms")
        await asyncio.sleep(2)  # let a backlog drain before the next rate
    await asyncio.gather(*(t.close() for t in tables))
    return {"steps": steps}


def reconnections(tables: list[Table]) -> int:
    return sum(t.red.reconnects + t.blue.reconnects for t in tables)


async def open_loop_step(tables: list[Table], rate: float, seconds: float) -> dict:
    start = now() + 0.2
    count = int(rate * seconds)
    reconnected = reconnections(tables)
    schedule: list[list[float]] = [[] for _ in tables]
    for i in range(count):
        schedule[i % len(tables)].append(start + i / rate)
    latencies: list[float] = []
    tally = {"errors": 0, "over": 0, "done": 0, "last": start}
    give_up = start + seconds + MOVE_TIMEOUT[0]

    async def play(table: Table, times: list[float]) -> None:
        for due in times:
            await asyncio.sleep(max(0.0, due - now()))
            if now() > give_up:
                tally["errors"] += 1  # never sent: the server fell that far behind
                continue
            result = await table.move(watch_observers=False)
            if result is None:
                tally["over"] += 1  # the game ended (counted apart, not an error)
                continue
            if result["error"] or result["opponent"] is None:
                tally["errors"] += 1
                continue
            latencies.append((result["opponent"] - due) * 1000)
            tally["done"] += 1
            tally["last"] = max(tally["last"], result["opponent"])

    await asyncio.gather(*(play(t, s) for t, s in zip(tables, schedule, strict=True)))
    elapsed = max(seconds, tally["last"] - start)
    return {"rate": rate, "achieved": round(tally["done"] / elapsed, 1), "errors": tally["errors"],
            "games_over": tally["over"], **summary(latencies),
            "reconnects": reconnections(tables) - reconnected}  # fmt: skip


async def fan_out(plan: dict) -> dict:
    """One game watched by N spectators: move -> every spectator (late frames included: a
    delivery is timed whenever it arrives), and versions a spectator never got."""
    results = []
    for n, game in zip(plan["spectators"], plan["games"], strict=False):
        table = await Table.open(game, plan["servers"], n, plan["seed"])
        first = table.red.version + 1
        counted, moves = await statements(plan["servers"]), []
        for i in range(plan["fan_moves"]):
            started = now()
            result = await table.move(watch_observers=True)
            if result is None:
                break
            moves.append(result)
            progress(f"fan-out {n} spectators: move {i + 1}/{plan['fan_moves']}")
            await asyncio.sleep(max(0.0, MIN_MOVE_GAP - (now() - started)))
        last = max(table.red.version, table.blue.version)
        await settle(table.observers, last, timeout=2 * MOVE_TIMEOUT[0])
        per_move = round((await statements(plan["servers"]) - counted) / max(1, len(moves)), 1)
        latencies = [
            ms(m["sent"], s.seen_at[m["base"] + 1])
            for m in moves
            if not m["error"]
            for s in table.observers
            if m["base"] + 1 in s.seen_at
        ]
        lost = sum(s.lost(first, last) for s in table.observers)
        closed = sum(s.closed is not None for s in table.observers)
        results.append({"spectators": n, "lost": lost, "closed": closed, **summary(latencies),
                        "statements_per_move": per_move})  # fmt: skip
        await table.close()
    return {"steps": results}


async def settle(socks: list[Sock], version: int, timeout: float) -> None:
    """Wait until every open socket has `version` (late frames count), at most `timeout`."""
    deadline = now() + timeout
    while now() < deadline and any(s.version < version and s.closed is None for s in socks):
        await asyncio.sleep(0.05)


SCENARIOS = {"echo": echo, "one_game": one_game, "open_loop": open_loop, "fan_out": fan_out}


def main() -> None:
    plan_path, out_path = sys.argv[1], sys.argv[2]
    with open(plan_path) as f:
        plan = json.load(f)
    MOVE_TIMEOUT[0] = plan.get("move_timeout", MOVE_TIMEOUT[0])
    result = asyncio.run(SCENARIOS[plan["scenario"]](plan))
    with open(out_path, "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
