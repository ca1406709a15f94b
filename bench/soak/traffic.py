"""The soak's visitors: `python -m bench.soak.traffic plan.json out.json`, a process of its own
(its CPU is not the servers'). Everything goes through nginx, each visitor from a loopback
address of its own, as a crowd of browsers would arrive:

- pairs of guests who open the lobby, sign on, create and join a game over HTTP, and play it
  over sockets (a random legal move after a think; resigned after `plies`), again and again;
- guests playing the computer the same way;
- spectators who watch a live game for a while and go; lobby sockets that come and go;
- page views at a steady rate: the lobby, the leaderboard, profiles, live game pages,
  replays and XML records of finished games;
- sign-ups, log-outs and log-ins.

The runner starts it twice, as two processes: one `part` plays the games and holds the
sockets (it measures move -> opponent and move -> spectator), the other sends the page views
and the sign-ups. In one process, the threads that read the page views' answers (a replay is
hundreds of kilobytes) held the client's own GIL while moves arrived, and the client then
measured its own delays. Each part also measures its event loop's lag: a latency figure is
worth only as much as the lag of the loop that took it.

It writes what it measured, raw: each kind of request's times and statuses, move -> opponent
and move -> spectator, error frames by code, sockets refused or dropped, the loop's lag."""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

from ..stats import summary
from .actors import REC, Plan, Socket, game_of, next_address, now, play, sign_on
from .door import door_games
from .web import Visitor


async def table(plan: Plan, slot: int) -> None:
    """Two guests, game after game."""
    for round_ in itertools.count():
        if not plan.running():
            return
        red, blue = Visitor(next_address(), plan.port), Visitor(next_address(), plan.port)
        signed = [await sign_on(v, f"{c}{slot}x{round_}") for v, c in ((red, "r"), (blue, "b"))]
        if not all(signed):
            await asyncio.sleep(plan.retry())
            continue
        created = await red.post("/games/new/", {"variant": "classic", "seat": "0"})
        REC.http("create game", created)
        gid = game_of(created)
        if gid is None:
            await asyncio.sleep(plan.retry())
            continue
        REC.http("game page", await red.get(f"/games/{gid}/"))
        lobby = await Socket.open(plan.port, "/ws/lobby/", blue, None, "lobby")
        joined = await blue.post(f"/games/{gid}/join/", {"seat": "1"})
        REC.http("join game", joined)
        if lobby is not None:
            await lobby.close()
        REC.http("game page", await blue.get(f"/games/{gid}/"))
        path = f"/ws/games/{gid}/"
        red_ws = await Socket.open(plan.port, path, red, gid, "opponent")
        blue_ws = await Socket.open(plan.port, path, blue, gid, "opponent")
        if red_ws is None or blue_ws is None:
            continue
        REC.live.add(gid)
        REC.games += 1
        try:
            await play(plan, red_ws, blue_ws, plan.data["plies"])
        finally:
            REC.live.discard(gid)
            REC.finished.append(gid)
            await red_ws.close()
            await blue_ws.close()


async def versus_computer(plan: Plan, slot: int) -> None:
    for round_ in itertools.count():
        if not plan.running():
            return
        visitor = Visitor(next_address(), plan.port)
        if not await sign_on(visitor, f"c{slot}x{round_}"):
            await asyncio.sleep(plan.retry())
            continue
        level = plan.data["levels"][slot % len(plan.data["levels"])]
        form = {"variant": "classic", "level": level, "seat": "0"}
        created = await visitor.post("/games/computer/play/", form)
        REC.http("play the computer", created)
        gid = game_of(created)
        if gid is None:
            await asyncio.sleep(plan.retry())
            continue
        REC.http("game page", await visitor.get(f"/games/{gid}/"))
        sock = await Socket.open(plan.port, f"/ws/games/{gid}/", visitor, gid, "player")
        if sock is None:
            continue
        REC.live.add(gid)
        try:
            await play(plan, sock, None, plan.data["plies"] // 2)
        finally:
            REC.live.discard(gid)
            REC.finished.append(gid)
            await sock.close()


async def spectator(plan: Plan) -> None:
    await asyncio.sleep(plan.rng.uniform(0, 20))
    while plan.running():
        if not REC.live:
            await asyncio.sleep(1)
            continue
        gid = plan.rng.choice(sorted(REC.live))
        visitor = Visitor(next_address(), plan.port)
        sock = await Socket.open(plan.port, f"/ws/games/{gid}/", visitor, gid, "spectator")
        await asyncio.sleep(plan.rng.uniform(20, 60))
        if sock is not None:
            await sock.close()


async def lobby_watcher(plan: Plan) -> None:
    await asyncio.sleep(plan.rng.uniform(0, 10))
    while plan.running():
        sock = await Socket.open(plan.port, "/ws/lobby/", Visitor(next_address(), plan.port),
                                 None, "lobby")  # fmt: skip
        await asyncio.sleep(plan.rng.uniform(20, 60))
        if sock is not None:
            await sock.close()


def page_to_view(plan: Plan) -> tuple[str, str] | None:
    rng = plan.rng
    choices: list[tuple[str, str]] = [("lobby page", "/"), ("leaderboard", "/players/")]
    if REC.accounts:
        choices.append(("profile", f"/players/{rng.choice(REC.accounts)}/"))
    if REC.live:
        choices.append(("game page", f"/games/{rng.choice(sorted(REC.live))}/"))
    if REC.finished:
        gid = rng.choice(REC.finished[-200:])
        choices += [("replay", f"/games/{gid}/replay/"), ("record", f"/games/{gid}/record.xml")]
    return rng.choice(choices)


async def page_views(plan: Plan) -> None:
    """A steady rate of page views, each from a new address; none waits for another."""
    rate = plan.data["page_views_per_second"]
    pending: set[asyncio.Task] = set()

    async def view(kind: str, path: str) -> None:
        REC.http(kind, await Visitor(next_address(), plan.port).get(path))

    while plan.running():
        kind, path = page_to_view(plan)
        task = asyncio.get_running_loop().create_task(view(kind, path))
        pending.add(task)
        task.add_done_callback(pending.discard)
        await asyncio.sleep(plan.rng.expovariate(rate))
    await asyncio.gather(*pending)


async def finished_games(plan: Plan) -> None:
    """The page views' part learns the live and finished games as a visitor would: from a
    lobby socket (the games' part plays them in another process)."""
    sock = None
    while plan.running():
        if sock is None or sock.reader.done():
            sock = await Socket.open(plan.port, "/ws/lobby/", Visitor(next_address(), plan.port),
                                     None, "lobby (page views)")  # fmt: skip
        if sock is not None and sock.lobby is not None:
            REC.live.clear()
            REC.live.update(g["id"] for g in sock.lobby["live"] if g["status"] == "playing")
            known = set(REC.finished)
            REC.finished += [g["id"] for g in sock.lobby["finished"]
                             if g["id"] not in known and g["ply"] > 0]  # fmt: skip
        await asyncio.sleep(1)
    if sock is not None:
        await sock.close()


async def accounts(plan: Plan) -> None:
    """Sign-ups, each followed by a log-out and a log-in."""
    gap = 60.0 / plan.data["signups_per_minute"]
    for n in itertools.count():
        if not plan.running():
            return
        visitor = Visitor(next_address(), plan.port)
        name, password = f"soaker{n}", f"a-long-soak-password-{n}"
        form = {"username": name, "password1": password, "password2": password}
        signed = await visitor.post("/accounts/signup/", form, page="/accounts/signup/")
        REC.http("sign up", signed)
        if signed.status == 302:
            REC.accounts.append(name)
            REC.http("log out", await visitor.post("/accounts/logout/", {}, page="/"))
            visitor.cookies.pop("sessionid", None)
            login = {"username": name, "password": password}
            REC.http("log in", await visitor.post("/accounts/login/", login,
                                                  page="/accounts/login/"))  # fmt: skip
        await asyncio.sleep(gap)


LAG_TICK = 0.02  # seconds between the loop-lag probe's wake-ups


async def loop_lag(plan: Plan, lags_ms: list[float]) -> None:
    """How late the event loop wakes a task that asked to sleep LAG_TICK."""
    while plan.running():
        asked = now()
        await asyncio.sleep(LAG_TICK)
        lags_ms.append(max(0.0, (now() - asked - LAG_TICK) * 1000))


def raw_results(lags_ms: list[float]) -> dict:
    return {
        "http_ms": dict(REC.http_ms),
        "http_status": {kind: dict(c) for kind, c in REC.http_status.items()},
        "move_to_opponent": REC.opponent_ms,
        "move_to_opponent_at": REC.opponent_at,
        "move_to_spectator": REC.spectator_ms,
        "error_frames": dict(REC.error_frames),
        "sockets": dict(REC.sockets),
        "moves": REC.moves,
        "games": REC.games,
        "accounts": len(REC.accounts),
        "loop_lag_ms": lags_ms,
    }


def merge(parts: dict[str, dict], warm_up: float) -> dict:
    """The parts' raw results as one summary (what report.py reads); move -> opponent also
    once the first `warm_up` seconds (the crowd arriving) are over."""
    http_ms: dict[str, list[float]] = defaultdict(list)
    statuses: dict[str, Counter] = defaultdict(Counter)
    total: dict[str, Counter] = {"error_frames": Counter(), "sockets": Counter()}
    for part in parts.values():
        for kind, times in part["http_ms"].items():
            http_ms[kind] += times
        for kind, counts in part["http_status"].items():
            statuses[kind].update({int(k): v for k, v in counts.items()})
        for key in total:
            total[key].update(part[key])
    return {
        "http": {
            kind: {**summary(times), "statuses": dict(statuses[kind])}
            for kind, times in sorted(http_ms.items())
        },  # fmt: skip
        "move_to_opponent": summary([t for p in parts.values() for t in p["move_to_opponent"]]),
        "move_to_opponent_after_warm_up": summary(
            [
                ms
                for p in parts.values()
                for at, ms in zip(p["move_to_opponent_at"], p["move_to_opponent"], strict=True)
                if at >= warm_up
            ]
        ),
        "move_to_spectator": summary([t for p in parts.values() for t in p["move_to_spectator"]]),
        "error_frames": dict(total["error_frames"]),
        "sockets": dict(total["sockets"]),
        "moves": sum(p["moves"] for p in parts.values()),
        "games": sum(p["games"] for p in parts.values()),
        "accounts": sum(p["accounts"] for p in parts.values()),
        "client_loop_lag": {name: summary(p["loop_lag_ms"]) for name, p in parts.items()},
    }


async def main(data: dict, part: str) -> dict:
    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(64, thread_name_prefix="http"))
    plan = Plan(data)
    ramp = data["ramp_seconds"]

    def staggered(actor, count: int, with_slot: bool = False) -> list:
        """`count` copies of `actor`, started evenly over the ramp."""

        async def later(i: int) -> None:
            await asyncio.sleep(ramp * i / max(count, 1))
            await (actor(plan, i) if with_slot else actor(plan))

        return [later(i) for i in range(count)]

    lags_ms: list[float] = []
    if part == "games":
        tasks = [
            *staggered(table, data["games"], with_slot=True),
            *staggered(versus_computer, data["computer_games"], with_slot=True),
            *staggered(spectator, data["spectators"]),
            *staggered(lobby_watcher, data["lobby_sockets"]),
            door_games(plan),
        ]
    else:
        plan.rng.seed(data["seed"] + 1)
        tasks = [page_views(plan), accounts(plan), finished_games(plan)]
    tasks.append(loop_lag(plan, lags_ms))
    # every actor stops at the deadline; one still waiting on the server a minute later
    # (a read that never ends) is cancelled, and what was measured stands
    running = [asyncio.ensure_future(t) for t in tasks]
    _, late = await asyncio.wait(running, timeout=data["seconds"] + 60)
    for task in late:
        task.cancel()
    REC.sockets["actors cancelled at the end"] = len(late)
    return raw_results(lags_ms)


if __name__ == "__main__":
    plan_file, out_file, part_name = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(plan_file) as f:
        plan_data = json.load(f)
    outcome = asyncio.run(main(plan_data, part_name))
    with open(out_file, "w") as f:
        json.dump(outcome, f)
