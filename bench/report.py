"""The bench's outputs: bench/results/<date>.json, a PNG chart beside it, a markdown summary
printed and written into docs/performance.md (between the bench's markers)."""

from __future__ import annotations

import json
from pathlib import Path

from .stack import ROOT

RESULTS = ROOT / "bench" / "results"
DOC = ROOT / "docs" / "performance.md"
MARKERS = "<!-- bench:live:{mode}:start -->", "<!-- bench:live:{mode}:end -->"
SITE_LAYER = "site"  # the servers' channel layer (CHANNEL_LAYER_BACKEND): the site's own
LAYERS = (SITE_LAYER, "library", "pubsub")  # (stratego_site/settings.py's choices)


def layer(results: dict) -> str:
    return results.get("channel_layer", SITE_LAYER)  # (runs from before the choice: the site's)


def command(results: dict) -> str:
    """The make command of a run: `make bench QUICK=1 LAYER=library`."""
    words = ["make bench"] + (["QUICK=1"] if results["quick"] else [])
    if layer(results) != SITE_LAYER:
        words.append(f"LAYER={layer(results)}")
    return " ".join(words)


def mode(results: dict) -> str:
    """Its section of docs/performance.md: full or quick, and the layer if not the site's."""
    name = "quick" if results["quick"] else "full"
    return name if layer(results) == SITE_LAYER else f"{name}-{layer(results)}"


def fmt(value) -> str:
    return "-" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def ratio(a: float | None, b: float | None) -> str:
    return "-" if not a or not b else f"{a / b:.1f}x"


def one_game_rows(results: dict) -> list[str]:
    echo = results["echo"]["round_trip"]
    rows = ["| processes | move -> mover's ack p50 / p99 | -> opponent p50 / p99 | "
            "-> observer p50 / p99 | opponent p50 / echo p50 | statements per move |",
            "|---|---|---|---|---|---|"]  # fmt: skip
    for n, c in results["configs"].items():
        g = c["one_game"]
        cells = [f"{fmt(g[k]['p50'])} / {fmt(g[k]['p99'])} ms"
                 for k in ("mover", "opponent", "observer")]  # fmt: skip
        rows.append(f"| {n} | {' | '.join(cells)} | {ratio(g['opponent']['p50'], echo['p50'])} "
                    f"| {fmt(c['statements_per_move'])} |")  # fmt: skip
    return rows


def open_loop_rows(results: dict) -> list[str]:
    rows = ["| processes | target moves/s | achieved/s | p50 | p99 | errors |",
            "|---|---|---|---|---|---|"]  # fmt: skip
    for n, c in results["configs"].items():
        for s in c["open_loop"]:
            if "skipped" in s:
                rows.append(f"| {n} | {s['rate']} | not run: {s['skipped']} | | | |")
                continue
            rows.append(f"| {n} | {s['rate']} | {fmt(s['achieved'])} | {fmt(s['p50'])} ms "
                        f"| {fmt(s['p99'])} ms | {s['errors']} |")  # fmt: skip
    return rows


def fan_out_rows(results: dict) -> list[str]:
    rows = ["| processes | spectators | move -> spectator p50 / p99 | events lost | "
            "sockets closed | statements per move |", "|---|---|---|---|---|---|"]  # fmt: skip
    for n, c in results["configs"].items():
        for s in c.get("fan_out", []):
            rows.append(
                f"| {n} | {s['spectators']} | {fmt(s['p50'])} / {fmt(s['p99'])} ms "
                f"| {s['lost']} | {s['closed']} | {fmt(s['statements_per_move'])} |"
            )
    return rows


def markdown(results: dict, json_name: str, png_name: str) -> str:
    echo = results["echo"]["round_trip"]
    knees = ", ".join(f"{n} process(es): {fmt(c['knee']) if c['knee'] else 'none'}"
                      for n, c in results["configs"].items())  # fmt: skip
    usage = "; ".join(
        f"{n} process(es): "
        + ", ".join(f"{u['cpu_seconds']} s CPU / {u['peak_rss_mb']} MB peak" for u in c["usage"])
        for n, c in results["configs"].items()
    )
    tracebacks = ", ".join(f"{n}: {c['tracebacks']}" for n, c in results["configs"].items())
    return "\n".join([
        f"Run of `{command(results)}` on {results['date']} (commit `{results['commit']}`, "
        f"{results['seconds']} s), load average before {results['load_before']}, after "
        f"{results['load_after']} (2 cores: a load above 2 means the figures are noisy; "
        "compare ratios). "
        f"Raw figures: `bench/results/{json_name}`, chart: `bench/results/{png_name}`.",
        "",
        f"Echo baseline (bare daphne, round trip): p50 {fmt(echo['p50'])} ms, "
        f"p99 {fmt(echo['p99'])} ms.",
        "", "One game, sequential moves (one observer):", "", *one_game_rows(results),
        "", f"Open loop over {results['plan']['open_loop_games']} games, "
        f"{fmt(results['plan']['step_seconds'])} s per rate (latency from the move's scheduled "
        "time to the opponent's update):", "", *open_loop_rows(results),
        "", f"Knee (highest rate with p99 <= 50 ms, no error, >= 95% achieved): {knees}.",
        "", "Fan-out, one game:", "", *fan_out_rows(results),
        "", f"Server processes, whole configuration: {usage}. "
        f"Tracebacks in the servers' logs: {tracebacks}.",
    ])  # fmt: skip


def chart(results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for n, c in results["configs"].items():
        steps = [s for s in c["open_loop"] if "skipped" not in s and s["p99"] is not None]
        left.plot([s["rate"] for s in steps], [s["p99"] for s in steps], "o-",
                  label=f"{n} process(es) p99")  # fmt: skip
        fan = [s for s in c.get("fan_out", []) if s["p99"] is not None]
        if fan:
            right.plot([s["spectators"] for s in fan], [s["p99"] for s in fan], "o-",
                       label=f"{n} process(es) p99")  # fmt: skip
    left.axhline(50, color="grey", linestyle="--", label="50 ms (knee limit)")
    left.axhline(results["echo"]["round_trip"]["p99"] or 0, color="green", linestyle=":",
                 label="echo p99")  # fmt: skip
    left.set(xlabel="target moves/s (50 games)", ylabel="move -> opponent (ms)", yscale="log",
             title="Open loop")  # fmt: skip
    right.set(xlabel="spectators on one game", ylabel="move -> spectator (ms)", yscale="log",
              title="Fan-out")  # fmt: skip
    for ax in (left, right):
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    fig.suptitle(f"{command(results)}, {results['date']}")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def write_doc(text: str, results: dict) -> None:
    """Replace the figures of this run's mode (full or quick, and its layer) in
    docs/performance.md."""
    start, end = (m.format(mode=mode(results)) for m in MARKERS)
    doc = DOC.read_text()
    block = f"{start}\n{text}\n{end}"
    if start in doc and end in doc:
        head, rest = doc.split(start, 1)
        doc = head + block + rest.split(end, 1)[1]
    else:
        doc = doc.rstrip("\n") + f"\n\n### The last `{command(results)}`\n\n" + block + "\n"
    DOC.write_text(doc)


def names(results: dict) -> str:
    stamp = results["date"].replace(" ", "T").replace(":", "")[:15]
    suffix = "" if layer(results) == SITE_LAYER else f"-{layer(results)}"
    return f"{stamp}{'-quick' if results['quick'] else ''}{suffix}"


def write(results: dict) -> str:
    """Write the JSON, the chart and the doc section; return the markdown summary."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    name = names(results)
    (RESULTS / f"{name}.json").write_text(json.dumps(results, indent=1))
    chart(results, RESULTS / f"{name}.png")
    return rewrite_doc(results)


def rewrite_doc(results: dict) -> str:
    """The doc section of a run (also from a saved JSON: `python -m bench --report FILE`)."""
    name = names(results)
    text = markdown(results, f"{name}.json", f"{name}.png")
    write_doc(text, results)
    return text
