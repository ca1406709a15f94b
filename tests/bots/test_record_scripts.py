"""The scripts that read a tournament's `--dump` (docs/bots.md, "Results against DoI"), run
on two real games: each prints its figures from the records, and the figures add up."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import ATTACKER, BLUE, BOMB, BOTH, DEFENDER, MARSHAL, RED, SPY
from games.engine.battle import Battle

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def dump(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "games.json.gz"
    subprocess.run(
        [sys.executable, "-m", "games.bots.tournament_cli", "hard", "medium", "--games", "2"]
        + ["--seed", "3", "--no-progress", "--dump", str(path)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=300,
    )
    return path


def run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / script), *args],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.stdout


def test_known_takers_counts_every_game_once(dump: Path) -> None:
    out = run("known_takers.py", "hard", str(dump))
    assert out.startswith("2 games;")
    spies, rest = out.split("its Spy, in how many games:")[1].split(
        "its Marshal, in how many games:"
    )
    marshals, big = rest.split("taken by a known enemy Marshal or General, by what it still had:")
    for fates in (spies, marshals):
        assert sum(int(line.split()[0]) for line in fates.strip().splitlines()) == 2
    taken = re.findall(r"^\s+(\d+)\s+[\d.]+\s+(\w+)\s+(known|hidden)", out, re.M)
    assert taken, out
    assert all(
        rank
        in {
            "marshal",
            "general",
            "colonel",
            "major",
            "captain",
            "lieutenant",
            "sergeant",
            "miner",
            "scout",
            "spy",
        }
        for _, rank, _ in taken
    )
    rows = re.findall(r"^\s+(\d+)\s+(marshal|general)\s+we had: (.*)$", big, re.M)
    known_big = sum(
        int(n) for n, rank, seen in taken if rank in ("marshal", "general") and seen == "known"
    )
    assert sum(int(n) for n, _, _ in rows) == known_big
    assert all(len(had.split(", ")) == 3 for _, _, had in rows)


def test_opponent_mobility_prints_a_share_per_rank_and_phase(dump: Path) -> None:
    out = run("opponent_mobility.py", "medium", str(dump))
    rows = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert {"marshal", "sergeant", "spy"} <= set(rows)
    shares = [float(x) for x in re.findall(r"(\d\.\d\d) \(", rows["marshal"])]
    assert shares and all(0.0 <= share <= 1.0 for share in shares)


@pytest.mark.parametrize("flags", [(), ("--mobility",)])
def test_belief_likelihood_gives_log_probabilities(dump: Path, flags: tuple[str, ...]) -> None:
    out = run("belief_likelihood.py", *flags, "medium", str(dump))
    found = dict(re.findall(r"^(log-likelihood, [\w ]+?)\s+(-?[\d.]+)\s+over", out, re.M))
    assert set(found) == {"log-likelihood, moved pieces", "log-likelihood, unmoved"}
    assert all(float(value) < 0 for value in found.values())


def test_known_takers_tells_how_the_marshal_was_lost() -> None:
    spec = importlib.util.spec_from_file_location(
        "known_takers", ROOT / "scripts" / "known_takers.py"
    )
    assert spec and spec.loader
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    lost = script.marshal_lost
    me, them = RED, BLUE
    spy_takes = Battle(SPY, MARSHAL, ATTACKER)
    assert lost(spy_takes, them, me, True, False) == (
        "taken by the Spy, having just stepped next to it, a Spy that had never moved"
    )
    assert lost(spy_takes, them, me, False, True) == "taken by the Spy, standing"
    assert lost(Battle(MARSHAL, MARSHAL, BOTH), me, me, False, False) == (
        "traded with their Marshal"
    )
    assert lost(Battle(MARSHAL, BOMB, DEFENDER), me, me, False, False) == "on a bomb"
    assert lost(Battle(MARSHAL, SPY, ATTACKER), me, me, False, False) is None  # ours won
    assert lost(Battle(SPY, MARSHAL, ATTACKER), me, me, False, False) is None  # their Marshal


def test_marshal_neighbours_sets_the_spy_chances_beside_the_truth(dump: Path) -> None:
    out = run("marshal_neighbours.py", "hard", str(dump))
    rows = re.findall(
        r"^\s+(all|[a-z ]+, our Marshal \w+)\s+(\d+)\s+([\d.]+)\s+([\d.]+) \((\d+)\)", out, re.M
    )
    assert rows, out
    counts = {
        key: (int(n), float(said), float(share), int(were)) for key, n, said, share, were in rows
    }
    total = counts.pop("all")
    assert total[0] == sum(n for n, _, _, _ in counts.values())
    assert total[3] == sum(were for _, _, _, were in counts.values())
    assert all(0.0 <= said <= 1.0 and 0.0 <= share <= 1.0 for _, said, share, _ in counts.values())
