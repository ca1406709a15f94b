"""The scripts that read a tournament's `--dump` (docs/bots-rounds.md), run
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


@pytest.mark.parametrize("flags", [(), ("--mobility",), ("--shared",)])
def test_belief_likelihood_gives_log_probabilities(dump: Path, flags: tuple[str, ...]) -> None:
    out = run("belief_likelihood.py", *flags, "medium", str(dump))
    found = dict(re.findall(r"^(log-likelihood, [\w ]+?)\s+(-?[\d.]+)\s+over", out, re.M))
    assert {"log-likelihood, moved pieces", "log-likelihood, unmoved"} <= set(found)
    assert "log-likelihood, every hidden piece" in found
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


def write_dump(path: Path, results: list[tuple[int, int | None]], void: int = -1) -> str:
    """A dump whose game n has expert as `results[n][0]`'s colour with setup n, won by
    `results[n][1]` (None: a draw); game `void` is marked void."""
    import gzip
    import json

    records = []
    for n, (me, winner) in enumerate(results):
        names = ["expert", "doi"] if me == RED else ["doi", "expert"]
        setups = [{"0": 0}, {"0": 0}]
        setups[me] = {str(n): n}
        outcome = {
            "winner": winner,
            "termination": "flag_captured" if winner is not None else "move_cap",
        }
        records.append(
            {"names": names, "setups": setups, "moves": [], "outcome": outcome, "void": n == void}
        )
    with gzip.open(path, "wt") as handle:
        json.dump(records, handle)
    return str(path)


def test_paired_results_sets_each_game_beside_itself_in_the_other_run(tmp_path: Path) -> None:
    """Games pair by our setup and colour; void games and games one run did not reach are
    left out; the sign test counts only the pairs one run won and the other lost."""
    a = write_dump(
        tmp_path / "a.json.gz",
        [(RED, BLUE), (BLUE, RED), (RED, RED), (BLUE, None), (RED, BLUE), (RED, BLUE)],
        void=5,
    )
    b = write_dump(
        tmp_path / "b.json.gz",
        [(RED, RED), (BLUE, BLUE), (RED, RED), (BLUE, RED), (RED, RED)]
        + [(RED, RED), (BLUE, BLUE)],
    )
    out = run("paired_results.py", "expert", a, b)
    assert out.startswith("5 games in both runs (left out: 0 of A's, 2 of B's)"), out
    rows = dict(re.findall(r"^([WDL])\s+(\d+\s+\d+\s+\d+)$", out, re.M))
    assert rows == {"W": "1    0    0", "D": "0    0    1", "L": "3    0    0"}
    assert "A: 1 won of 5" in out and "B: 4 won of 5" in out
    assert "B won where A lost: 3; A won where B lost: 0; sign test p = 0.250" in out
    spec = importlib.util.spec_from_file_location("paired", ROOT / "scripts" / "paired_results.py")
    assert spec and spec.loader
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.sign_test(0, 0) == 1.0
    assert script.sign_test(10, 2) == pytest.approx(0.0386, abs=1e-4)
    assert script.sign_test(2, 10) == script.sign_test(10, 2)


def write_csv(path: Path, games: list[tuple[int, str, str]]) -> str:
    """A tournament CSV with the columns `paired_results.py` reads: per game its number,
    expert's colour, the winner's name (or draw) and whether it was void."""
    lines = ["variant,game,red,blue,winner,disagreement"]
    for index, (color, winner, void) in enumerate(games):
        red, blue = ("expert", "doi-l3") if color == RED else ("doi-l3", "expert")
        lines.append(f"classic,{index},{red},{blue},{winner},{void}")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_paired_results_pairs_games_by_number_from_the_tournament_csv(tmp_path: Path) -> None:
    """A code that sets up differently is paired by the game's number in the plan."""
    a = write_csv(
        tmp_path / "a.csv",
        [(RED, "doi-l3", ""), (BLUE, "expert", ""), (RED, "draw", ""), (BLUE, "doi-l3", "yes")],
    )
    b = write_csv(
        tmp_path / "b.csv",
        [(RED, "expert", ""), (BLUE, "expert", ""), (RED, "doi-l3", ""), (BLUE, "expert", "")]
        + [(RED, "expert", "")],
    )
    out = run("paired_results.py", "expert", a, b)
    assert out.startswith("3 games in both runs (left out: 0 of A's, 2 of B's)"), out
    rows = dict(re.findall(r"^([WDL])\s+(\d+\s+\d+\s+\d+)$", out, re.M))
    assert rows == {"W": "1    0    0", "D": "0    0    1", "L": "1    0    0"}
    assert "B won where A lost: 1; A won where B lost: 0" in out


def test_flag_structures_counts_the_places_the_flag_may_be(dump: Path) -> None:
    """Both games are counted, fewer structures stand later in a game than earlier, and
    each game's flag column is counted once. (Only the medians over the same games must
    fall: one over the games that are still going may rise when a game that had fewer
    structures left has ended.)"""
    out = run("flag_structures.py", "hard", str(dump))
    assert out.startswith("2 games of hard"), out
    rows = re.findall(r"at ply \d+: median ([\d.]+) \((\d+) games\)", out)
    both = [float(median) for median, games in rows if games == "2"]
    assert len(rows) >= 2 and both and both == sorted(both, reverse=True), out
    columns = re.search(r"^flag column: (.*)$", out, re.M)
    assert columns and sum(int(n) for n in re.findall(r": (\d+)", columns.group(1))) == 2


def test_trade_leads_sorts_every_game_into_a_trade_or_none(dump: Path) -> None:
    out = run("trade_leads.py", "hard", str(dump))
    head, *rows = out.strip().splitlines()
    games, traded = re.match(r"(\d+) games of hard, (\d+) with the Marshals traded", head).groups()
    assert games == "2"
    counted = [sum(map(int, re.findall(r"(?:won|draw|lost) +(\d+)", row))) for row in rows]
    assert sum(counted[:-1]) == int(traded)
    assert rows[-1].strip().startswith("no trade:")
    assert sum(counted) == 2


def test_pooled_results_adds_the_runs_up(dump: Path) -> None:
    once = run("pooled_results.py", "hard", str(dump))
    twice = run("pooled_results.py", "hard", str(dump), str(dump))
    head = re.match(r"(\d+) games of hard against medium in (\d+) runs \((\d+) void", once)
    assert head is not None and head.groups() == ("2", "1", "0")
    assert twice.startswith("4 games of hard against medium in 2 runs (0 void")
    wins, draws, losses = map(int, re.search(r"wins (\d+) draws (\d+) losses (\d+)", once).groups())
    assert wins + draws + losses == 2
    assert f"wins {2 * wins} draws {2 * draws} losses {2 * losses}" in twice
    endings = sum(map(int, re.findall(r" (\d+)", once.splitlines()[2])))
    assert endings == 2
    patterns = re.findall(r"^  [a-z ,]+? +(\d+) \[ *(\d+)\]$", once, re.M)
    doubled = re.findall(r"^  [a-z ,]+? +(\d+) \[ *(\d+)\]$", twice, re.M)
    assert len(patterns) == 5
    assert doubled == [(str(2 * int(a)), str(2 * int(b))) for a, b in patterns]


def test_honest_approaches_sorts_every_approach_and_each_answer(dump: Path) -> None:
    out = run("honest_approaches.py", "hard", str(dump))
    assert out.startswith("2 games of hard")
    sides = re.findall(r"^(hard|its opponent): (\d+) approaches", out, re.M)
    assert [side for side, _ in sides] == ["hard", "its opponent"]
    rows = re.findall(
        r"^\s+(stronger|even|weaker)\s+(\d+) \(\s*[\d.]+%\)\s+then the known piece: "
        r"attacked it (\d+), stepped away (\d+), stayed (\d+)$",
        out,
        re.M,
    )
    assert len(rows) == 6, out
    for (_, total), side_rows in zip(sides, (rows[:3], rows[3:]), strict=True):
        assert sum(int(n) for _, n, *_ in side_rows) == int(total)
        for _, n, *answers in side_rows:  # (a game's last approach may go unanswered)
            assert int(n) - 2 <= sum(map(int, answers)) <= int(n)
    assert sum(int(total) for _, total in sides) > 0


def test_movers_left_counts_each_lost_game_of_either_side(dump: Path) -> None:
    lost = {}
    for name in ("hard", "medium"):
        out = run("movers_left.py", name, str(dump))
        found = re.match(r"(\d+) games lost by", out)
        lost[name] = int(found.group(1)) if found else 0
        if found:
            ours, theirs = map(
                float, re.search(r"median: \w+ ([\d.]+), opponent ([\d.]+)", out).groups()
            )
            assert ours < theirs or "flag_captured" in out, out
    assert sum(lost.values()) == 2  # two games, each won by one of them (none drawn at seed 3)


def test_shown_victims_sorts_every_capture_by_what_was_known_and_how(dump: Path) -> None:
    out = run("shown_victims.py", "hard", str(dump))
    assert out.startswith("2 games of hard")
    parts = re.split(r"^(hard's pieces taken|the opponent's): ([\d.]+) a game$", out, flags=re.M)
    assert [parts[1], parts[4]] == ["hard's pieces taken", "the opponent's"], out
    for total, body in ((parts[2], parts[3]), (parts[5], parts[6])):
        states = re.findall(r"^  (shown|fled|moved|still)\s+(\d+)\s+([\d.]+)$", body, re.M)
        assert [s for s, _, _ in states] == ["shown", "fled", "moved", "still"]
        ways = re.findall(
            r"^  ((?:walked up|left|from afar)[^\d]*?)\s+(\d+)\s+([\d.]+)$", body, re.M
        )
        # every capture sorted once by what was known, and once by how it came about
        assert sum(int(n) for _, n, _ in states) == sum(int(n) for _, n, _ in ways)
        assert sum(float(w) for _, _, w in states) == pytest.approx(float(total), abs=0.1)
        assert sum(float(w) for _, _, w in ways) == pytest.approx(float(total), abs=0.1)
    assert "pieces taken: 0.0" not in out


def test_approach_danger_bands_every_step_next_to_a_hidden_piece(dump: Path) -> None:
    out = run("approach_danger.py", "hard", str(dump))
    assert out.startswith("2 games of hard\n")
    tables = re.split(r"^(.*): (\d+)$", out, flags=re.M)[1:]
    titles = tables[0::3]
    assert len(titles) == 4 and titles[0].startswith("hard's steps next to a hidden enemy piece")
    for total, body in zip(tables[1::3], tables[2::3], strict=True):
        rows = re.findall(
            r"^  ([\d.]+)-([\d.]+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$",
            body,
            re.M,
        )
        assert sum(int(r[2]) for r in rows) == int(total), body
        for low, high, _, mean, *shares in rows:
            assert float(low) <= float(mean) <= float(high)  # each step in the band it names
            assert all(0.0 <= float(share) <= 1.0 for share in shares)
    assert int(tables[1]) > 0


def test_attack_outcomes_sorts_every_attack_once(dump: Path) -> None:
    out = run("attack_outcomes.py", "hard", str(dump))
    assert out.startswith("2 games of hard")
    sides = re.findall(r"^(hard's attacks|the opponent's): (\d+) \(", out, re.M)
    assert [side for side, _ in sides] == ["hard's attacks", "the opponent's"], out
    blocks = re.split(r"^(?:hard's attacks|the opponent's): .*$", out, flags=re.M)[1:]
    for (_, total), block in zip(sides, blocks, strict=True):
        rows = re.findall(
            r"^  on (shown|moved|still|bomb or flag)\s+(\d+): won (\d+) \(\d+%\), "
            r"lost (\d+) \(\d+%\), both (\d+) \(\d+%\); net [+-][\d.]+$",
            block,
            re.M,
        )
        assert sum(int(n) for _, n, *_ in rows) == int(total), block
        for _, n, *ends in rows:
            assert sum(map(int, ends)) == int(n)
    assert sum(int(total) for _, total in sides) > 0


def test_fallen_movers_sorts_each_hidden_mover_taken_once(dump: Path) -> None:
    out = run("fallen_movers.py", "hard", str(dump))
    head = re.match(r"2 games of hard; .*: (\d+) \([\d.]+ a game\), worth ([\d.]+) a game", out)
    assert head, out
    rows = re.findall(r"^  (.+?)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)$", out, re.M)
    assert len(rows) == 6, out
    assert sum(int(taken) for _, taken, *_ in rows) == int(head[1])
    assert sum(float(worth) for *_, worth in rows) == pytest.approx(float(head[2]), abs=0.1)
    for _, taken, shown, traded, per_game, _ in rows:
        assert int(shown) <= int(taken) and int(traded) <= int(taken)
        assert float(per_game) == pytest.approx(int(taken) / 2, abs=0.01)
    # the same attacks as attack_outcomes.py's: the opponent's on hidden movers, won or traded
    outcomes = run("attack_outcomes.py", "hard", str(dump))
    theirs = outcomes.split("the opponent's:")[1]
    moved = re.search(r"on moved\s+\d+: won (\d+) \(\d+%\), lost \d+ \(\d+%\), both (\d+)", theirs)
    assert moved, outcomes
    assert int(head[1]) == int(moved[1]) + int(moved[2]) > 0


def test_unfled_pieces_sorts_each_free_flight_once(dump: Path) -> None:
    out = run("unfled_pieces.py", "hard", str(dump))
    head = re.match(r"(\d+) pieces of hard's taken by a shown piece", out)
    assert head, out
    rows = re.findall(r"^  (.+?)\s+(\d+)\s+(\d+)$", out, re.M)
    assert len(rows) == 6, out
    assert sum(int(pieces) for _, pieces, _ in rows) == int(head[1])
    assert all(int(guard) <= int(pieces) for _, pieces, guard in rows)
    # the same takes as fallen_movers.py's free flights by a shown attacker
    fallen = run("fallen_movers.py", "hard", str(dump))
    free = r"^  it stepped up, a flight was free.*?\s+\d+\s+(\d+)\s+\d+\s"
    shown = re.findall(free, fallen, re.M)
    assert len(shown) == 2, fallen
    assert int(head[1]) == sum(int(s) for s in shown) > 0
