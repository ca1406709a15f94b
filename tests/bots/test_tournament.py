"""Round-robin tournaments: counting, colours, outputs and the management command."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from games.bots.tournament import ProgressBar, format_tables, run_tournament, write_outputs


def test_round_robin_counts_every_game_and_alternates_colours() -> None:
    calls: list[int] = []
    labels: list[str] = []
    result = run_tournament(
        "mini",
        ["random", "medium"],
        games=4,
        seed=5,
        progress=lambda done, total, label: calls.append(done) or labels.append(label),
    )
    assert calls == [1, 2, 3, 4]
    assert labels[-1].startswith("medium vs random ")  # and the score so far, W/D/L
    [pairing] = result.pairings
    assert (pairing.first, pairing.second) == ("medium", "random")
    assert pairing.games == 4 and len(pairing.plies) == 4
    assert [r.red for r in result.records] == ["medium", "random", "medium", "random"]
    wins = sum(1 for r in result.records if r.winner == "medium")
    assert pairing.wins == wins and pairing.draws == sum(
        1 for r in result.records if r.winner is None
    )
    assert set(result.think_times) == {"medium", "random"}
    score = [pairing.wins, pairing.draws, pairing.losses]
    assert [int(n) for n in labels[-1].split()[-1].split("/")] == score


def test_same_seed_same_tournament() -> None:
    first = run_tournament("barrage", ["random", "hard"], games=2, seed=9)
    second = run_tournament("barrage", ["random", "hard"], games=2, seed=9)
    assert first.records == second.records


def test_jobs_play_the_same_games_in_the_same_order() -> None:
    one = run_tournament("mini", ["random", "medium", "hard"], games=3, seed=4)
    two = run_tournament("mini", ["random", "medium", "hard"], games=3, seed=4, jobs=2)
    assert one.records == two.records and len(two.records) == 9
    assert [p.wins for p in one.pairings] == [p.wins for p in two.pairings]
    assert {k: len(v) for k, v in one.think_times.items()} == {
        k: len(v) for k, v in two.think_times.items()
    }


def test_unknown_player_fails_before_playing() -> None:
    with pytest.raises(ValueError, match="unknown computer player"):
        run_tournament("classic", ["random", "nobody"], games=1)


def test_tables_csv_and_chart(tmp_path: Path) -> None:
    result = run_tournament("barrage", ["random", "medium", "hard"], games=2, seed=2)
    table = format_tables(result)
    assert "hard vs medium" in table and "hard vs random" in table and "medium vs random" in table
    assert "p95" in table
    csv_path, png_path = write_outputs(result, tmp_path)
    rows = list(csv.DictReader(csv_path.open()))
    assert len(rows) == 6 and {row["variant"] for row in rows} == {"barrage"}
    assert png_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_progress_bar_without_terminal_prints_lines() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream)
    for done in range(1, 41):
        bar(done, 40, "a vs b")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 20 and lines[-1].startswith("[" + "#" * 30 + "] 40/40")


def test_management_command_prints_the_tables(tmp_path: Path) -> None:
    from django.core.management import call_command

    out, err = io.StringIO(), io.StringIO()
    call_command(
        "tournament",
        "random",
        "hard",
        "--variant",
        "mini",
        "--games",
        "2",
        "--seed",
        "4",
        "--out",
        str(tmp_path),
        stdout=out,
        stderr=err,
    )
    text = out.getvalue()
    assert "hard vs random" in text and "move time (ms)" in text
    assert (tmp_path / "tournament-mini.csv").exists() and (
        tmp_path / "tournament-mini.png"
    ).exists()


def test_expert_nodes_flag_gives_expert_a_node_budget(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from games.bots import get_player
    from games.bots.weakness import main

    monkeypatch.setenv("EXPERT_NODES", "0")  # restored after the test (the flag sets it)
    assert get_player("expert", 1).node_budget is None  # type: ignore[attr-defined]
    argv = ["--variant", "mini", "--games", "2", "--seed", "3", "--expert-nodes", "200"]
    partial = tmp_path / "partial.txt"
    assert main([*argv, "--partial", str(partial), "random", "expert"]) == 0
    out = capsys.readouterr().out
    assert "expert vs random" in out and "expert: 200 nodes a move" in out
    wins = int(out.split("expert vs random")[1].split()[0])
    first = partial.read_text().splitlines()[0]  # the counts after the last game
    assert first.startswith("after 2 of 2 games: random ")
    record = re.search(r"expert (\d+) / (\d+) / (\d+)$", first)
    assert record is not None and int(record[1]) == wins
    assert sum(int(n) for n in record.groups()) == 2
    assert get_player("expert", 1).node_budget == 200  # type: ignore[attr-defined]
