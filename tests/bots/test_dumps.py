"""A tournament's dump as it is written, game by game: what a run cut short leaves behind
can be read like the whole dump."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from games.bots.dumps import PARTIAL, load_records, recorded_games, replayed_outcome
from games.engine import BLUE, BOMB, FLAG, RED, SCOUT, Game
from games.engine.notation import Move
from games.engine.results import Outcome, Termination

ROOT = Path(__file__).resolve().parents[2]
FAKE = str(Path(__file__).with_name("fake_program.py"))


def test_a_partial_dump_without_its_cut_off_last_line(tmp_path: Path) -> None:
    path = tmp_path / f"games.json.gz{PARTIAL}"
    records = [{"names": ["a", "b"], "n": n} for n in range(2)]
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + '{"names": ["a", "b"], "n"')
    assert load_records(str(path)) == records


def test_a_broken_line_inside_a_partial_dump_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / f"games.json.gz{PARTIAL}"
    path.write_text('{"names": \n{"names": ["a", "b"]}\n')
    with pytest.raises(json.JSONDecodeError):
        load_records(str(path))


def test_a_run_killed_while_it_plays_leaves_the_games_it_finished(tmp_path: Path) -> None:
    dump = tmp_path / "games.json.gz"
    partial = Path(f"{dump}{PARTIAL}")
    fake = shlex.join([sys.executable, FAKE, "normal"])
    run = subprocess.Popen(
        [sys.executable, "-m", "games.bots.tournament_cli", "random", "--no-progress"]
        + ["--external", fake, "--games", "40", "--dump", str(dump)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not (partial.exists() and partial.read_text().count("\n") >= 2):
            assert run.poll() is None, "the run ended before two games were written"
            assert time.monotonic() < deadline, "no two games written in 120 s"
            time.sleep(0.2)
    finally:
        run.kill()
        run.wait()
    assert not dump.exists()
    games = list(recorded_games("random", [str(partial)]))
    assert len(games) >= 2
    for record, _, game in games:
        for src, dst in record["moves"]:
            game.push(Move(src, dst))
        outcome = replayed_outcome(game)
        assert outcome is not None and outcome.to_dict() == record["outcome"]


@pytest.mark.parametrize("red_scout", [False, True])
def test_a_replay_that_stops_where_the_referee_ended_the_game_at_once(red_scout: bool) -> None:
    pieces = {0: (RED, FLAG), 1: (RED, BOMB), 99: (BLUE, FLAG), 90: (BLUE, SCOUT)}
    if red_scout:
        pieces[5] = (RED, SCOUT)
    game = Game.from_position("classic", pieces, turn=BLUE)
    assert game.outcome is None
    expected = None if red_scout else Outcome(BLUE, Termination.NO_MOVES)
    assert replayed_outcome(game) == expected
