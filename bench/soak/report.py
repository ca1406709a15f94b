"""The soak's outputs: bench/results/soak-<date>.json, a chart beside it (memory, descriptors
and PostgreSQL connections of each process over time), and a markdown summary printed and
written into docs/performance.md between the soak's markers."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

from ..report import fmt
from ..stack import ROOT

RESULTS = ROOT / "bench" / "results"
DOC = ROOT / "docs" / "performance.md"
MARKERS = "<!-- bench:soak:{mode}:start -->", "<!-- bench:soak:{mode}:end -->"
TARGET_OPPONENT_P99_MS = 50


def nginx_5xx(access_log: Path) -> int:
    if not access_log.exists():
        return 0
    return sum(1 for line in access_log.open() if re.search(r'" 5\d\d ', line))


def bot_games(work: Path) -> int:
    return sum(p.read_text().count(" over: ") for p in work.glob("bot-*.log"))


def processes(results: dict) -> list[str]:
    """The sampled processes (the servers, and the client once it started)."""
    names: list[str] = []
    for sample in results["samples"]:
        names += [k for k in sample if k not in ("t", "pg") and k not in names]
    return names


def is_client(name: str) -> bool:
    """The traffic's processes (bench/soak/traffic.py), not the site's."""
    return name.startswith("client")


def loop_lag_line(traffic: dict) -> str:
    lags = traffic.get("client_loop_lag") or {}
    return "- the traffic client's event loop lag (how late a 20 ms sleep woke), p50 / p99: " + (
        ", ".join(f"{name} {fmt(s['p50'])} / {fmt(s['p99'])} ms" for name, s in lags.items())
        or "not measured"
    )


def cpu_share(results: dict, name: str) -> str:
    """The process's CPU over the run, in cores (1.0 = one core busy all the time)."""
    series = [(s["t"], s[name]["cpu_s"]) for s in results["samples"]
              if name in s and s[name].get("cpu_s") is not None]  # fmt: skip
    if len(series) < 2 or series[-1][0] == series[0][0]:
        return "-"
    return f"{(series[-1][1] - series[0][1]) / (series[-1][0] - series[0][0]):.2f}"


def memory_rows(results: dict) -> list[str]:
    samples = results["samples"]
    warm = results["mix"]["seconds"] / 4  # the ramp is over by then
    rows = ["| process | CPU (cores) | RSS after warm-up / end / most (MB) | open descriptors "
            "after warm-up / end / most | PostgreSQL connections, most (bound) |",
            "|---|---|---|---|---|"]  # fmt: skip
    for name in processes(results):
        series = [(s["t"], s[name]) for s in samples
                  if name in s and s[name]["rss_mb"] is not None]  # fmt: skip
        after = next((v for t, v in series if t >= warm), series[-1][1] if series else None)
        end = series[-1][1] if series else None
        if after is None or end is None:
            continue
        most_rss = max(v["rss_mb"] for _, v in series)
        most_fds = max(v["fds"] for _, v in series)
        app = f"soak-{name}"
        most_pg = max((s["pg"].get(app, 0) for s in samples), default=0)
        bound = "-" if is_client(name) else f"{most_pg} ({results['pool_size']})"
        rows.append(f"| {name} | {cpu_share(results, name)} | {after['rss_mb']} / "
                    f"{end['rss_mb']} / {most_rss} | {after['fds']} / {end['fds']} / "
                    f"{most_fds} | {bound} |")  # fmt: skip
    return rows


def rss_growth(results: dict) -> dict[str, float]:
    """Each process's RSS at the end over its RSS once the ramp was over, minus one."""
    warm = results["mix"]["seconds"] / 4
    growth = {}
    for name in processes(results):
        if is_client(name):
            continue
        series = [(s["t"], s[name]["rss_mb"]) for s in results["samples"]
                  if name in s and s[name]["rss_mb"] is not None]  # fmt: skip
        after = next((v for t, v in series if t >= warm), None)
        if after and series:
            growth[name] = series[-1][1] / after - 1
    return growth


def http_rows(traffic: dict) -> list[str]:
    rows = ["| request | count | p50 / p99 ms | 5xx | other statuses |", "|---|---|---|---|---|"]
    for kind, s in traffic["http"].items():
        statuses = {int(k): v for k, v in s["statuses"].items()}
        fives = sum(v for k, v in statuses.items() if k >= 500 or k == 0)
        others = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())
                           if k not in (200, 302) and k < 500 and k != 0)  # fmt: skip
        rows.append(f"| {kind} | {s['count']} | {fmt(s['p50'])} / {fmt(s['p99'])} | {fives} | "
                    f"{others or '-'} |")  # fmt: skip
    return rows


def verdict(results: dict) -> list[str]:
    traffic = results["traffic"]
    five = sum(int(k) >= 500 or int(k) == 0 for s in traffic["http"].values()
               for k, v in s["statuses"].items() for _ in range(v))  # fmt: skip
    most_pg = max((s["pg"].get(f"soak-{name}", 0) for s in results["samples"]
                   for name in processes(results)), default=0)  # fmt: skip
    growth = rss_growth(results)
    p99 = traffic["move_to_opponent"]["p99"]
    checks = [
        ("0 5xx (client and nginx)", five == 0 and results["nginx_5xx"] == 0,
         f"{five} / {results['nginx_5xx']}"),
        ("0 tracebacks", not any(results["tracebacks"].values()), str(results["tracebacks"])),
        ("each process's PostgreSQL connections never above its pool",
         most_pg <= results["pool_size"], f"most {most_pg} of {results['pool_size']}"),
        ("RSS flat after warm-up (each process within 10% of its size then)",
         all(g <= 0.10 for g in growth.values()),
         ", ".join(f"{k} {g:+.0%}" for k, g in growth.items())),
        (f"move -> opponent p99 <= {TARGET_OPPONENT_P99_MS} ms",
         p99 is not None and p99 <= TARGET_OPPONENT_P99_MS, f"{fmt(p99)} ms"),
    ]  # fmt: skip
    return [f"- {'met' if ok else 'NOT met'}: {what} ({seen})" for what, ok, seen in checks]


def after_warm_up(traffic: dict) -> str:
    after = traffic.get("move_to_opponent_after_warm_up")
    if not after:
        return "not measured"
    return f"p50 {fmt(after['p50'])} ms, p99 {fmt(after['p99'])} ms ({after['count']} moves)"


def topology(results: dict) -> str:
    pages = results.get("page_servers", 0)
    if not pages:
        return "two daphne processes (sockets and pages)"
    return (f"two daphne processes for the sockets and {pages} for the pages "
            f"(at nice {results['page_nice']})")  # fmt: skip


def markdown(results: dict, json_name: str, png_name: str) -> str:
    t = results["traffic"]
    mix = results["mix"]
    lines = [
        f"Soak of {results['date']} (commit {results['commit']}, `{results['command']}`): "
        f"{results['seconds']} s; {topology(results)} behind nginx, the TCP door, "
        f"PostgreSQL, Redis; load average "
        f"{results['load_average']['before']} before, {results['load_average']['after']} after. "
        f"Files: `bench/results/{json_name}`, `bench/results/{png_name}`.",
        "",
        f"Mix: {mix['games']} games between guests at once (a move every 0.5-2.5 s a side, "
        f"resigned after 60 plies, then a new pair), {mix['computer_games']} against the "
        f"computer, {mix['spectators']} spectators and {mix['lobby_sockets']} lobby sockets "
        f"coming and going, {mix['page_views_per_second']} page views a second, "
        f"{mix['signups_per_minute']} sign-ups a minute (each then logs out and in), two bots "
        f"through the Bot API, TCP players at the door; every visitor from its own address.",
        "",
        f"Played: {t['moves']} moves by the guests' sockets, {t['games']} games between "
        f"guests, {results['bot_games']} bot games, {t['sockets'].get('tcp games', 0)} TCP "
        f"games, {t['accounts']} accounts signed up.",
        "",
        f"- move -> opponent: p50 {fmt(t['move_to_opponent']['p50'])} ms, p99 "
        f"{fmt(t['move_to_opponent']['p99'])} ms ({t['move_to_opponent']['count']} moves); "
        f"after the warm-up (the first quarter of the run, while the crowd arrives): "
        f"{after_warm_up(t)}",
        f"- move -> spectator: p50 {fmt(t['move_to_spectator']['p50'])} ms, p99 "
        f"{fmt(t['move_to_spectator']['p99'])} ms ({t['move_to_spectator']['count']} deliveries)",
        loop_lag_line(t),
        f"- error frames: {t['error_frames'] or 'none'}",
        f"- sockets: {t['sockets']}",
        f"- tracebacks in the logs: {results['tracebacks']}; nginx 5xx: {results['nginx_5xx']}",
        collections_line(results),
        server_lag_line(results),
        stages_table(results),
        "",
        *http_rows(t),
        "",
        *memory_rows(results),
        "",
        *verdict(results),
    ]
    return "\n".join(lines)


def collections_line(results: dict) -> str:
    """The servers' full collections: how long each stalled its process (wall), and what
    its walk cost (CPU; the wall time is more when the machine is busy)."""
    parts = []
    for kind, pauses in results.get("collections", {}).items():
        if pauses:
            walls, cpus = sorted(p[0] for p in pauses), sorted(p[1] for p in pauses)
            middle = len(pauses) // 2
            parts.append(f"{len(pauses)} {kind}, pause p50 {fmt(walls[middle])} / most "
                         f"{fmt(walls[-1])} ms (CPU p50 {fmt(cpus[middle])} / most "
                         f"{fmt(cpus[-1])} ms)")  # fmt: skip
    return f"- the servers' full collections: {'; '.join(parts) or 'none logged'}"


def server_lag_line(results: dict) -> str:
    """How late each server's event loop ran what was due, over the whole run: the median of
    its 30-second medians, the most of its 99th percentiles and the most."""
    parts = []
    for name, rows in results.get("server_loop_lag", {}).items():
        if rows:
            medians = sorted(row[0] for row in rows)
            parts.append(
                f"{name} {fmt(medians[len(medians) // 2])} / "
                f"{fmt(max(row[1] for row in rows))} / {fmt(max(row[2] for row in rows))}"
            )
    return ("- the servers' event loop lag, p50 / p99 / most ms: "
            f"{'; '.join(parts) or 'none logged'}")  # fmt: skip


def chart(results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    samples = results["samples"]
    times = [s["t"] for s in samples]
    fig, axes = plt.subplots(3, 1, figsize=(9, 9), sharex=True)
    for name in processes(results):
        if is_client(name):
            continue
        axes[0].plot(times, [s[name]["rss_mb"] for s in samples], label=name)
        axes[1].plot(times, [s[name]["fds"] for s in samples], label=name)
        axes[2].plot(times, [s["pg"].get(f"soak-{name}", 0) for s in samples], label=name)
    axes[2].axhline(results["pool_size"], color="grey", linestyle="--", label="pool bound")
    titles = ("RSS (MB)", "open file descriptors", "PostgreSQL connections")
    for ax, title in zip(axes, titles, strict=True):
        ax.set_ylabel(title)
        ax.legend(loc="upper left", fontsize=8)
        ax.grid(alpha=0.3)
    axes[2].set_xlabel("seconds")
    fig.suptitle("make soak: each process over time")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def stages_table(results: dict) -> str:
    """Where a move's time went inside each server (`--stages`): p50 / p99 / most per stage."""
    stages = results.get("stages") or {}
    if not stages:
        return ""
    names = list(stages)
    order = [st for server in stages.values() for st in server]
    rows = ["| stage (ms) | " + " | ".join(f"{n}: p50 / p99 / most (count)" for n in names) + " |",
            "|---|" + "---|" * len(names)]  # fmt: skip
    for stage in dict.fromkeys(order):
        cells = []
        for name in names:
            s = stages[name].get(stage)
            cells.append(f"{fmt(s['p50'])} / {fmt(s['p99'])} / {fmt(s['most'])} ({s['n']})"
                         if s else "-")  # fmt: skip
        rows.append(f"| {stage} | " + " | ".join(cells) + " |")
    return "\n".join(["", "Inside the servers, stage by stage (bench/stages.py):", "", *rows])


def write_doc(text: str, quick: bool) -> None:
    start, end = (m.format(mode="quick" if quick else "full") for m in MARKERS)
    doc = DOC.read_text()
    if start not in doc:
        doc += f"\n{start}\n{end}\n"
    head, rest = doc.split(start, 1)
    _, tail = rest.split(end, 1)
    DOC.write_text(f"{head}{start}\n{text}\n{end}{tail}")


def write(results: dict) -> str:
    results["date"] = time.strftime("%Y-%m-%dT%H%M")
    results["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                       capture_output=True, text=True).stdout.strip()  # fmt: skip
    RESULTS.mkdir(exist_ok=True)
    name = f"soak-{results['date']}"
    (RESULTS / f"{name}.json").write_text(json.dumps(results, indent=1))
    chart(results, RESULTS / f"{name}.png")
    text = markdown(results, f"{name}.json", f"{name}.png")
    write_doc(text, results["quick"])
    return text
