"""An outside program as a player: the protocol's lines, and whole games against a fake
program in Python (tests/bots/fake_program.py) that plays normally, breaks the rules,
falls silent or crashes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from games.bots.dumps import replayed_outcome
from games.bots.external import (
    ExternalError,
    ExternalPlayer,
    board_rows,
    move_text,
    outcome_text,
    parse_move,
    parse_setup,
)
from games.bots.tournament import ExternalSpec, format_tables, referee, run_tournament
from games.engine import BLUE, RED, get_variant
from games.engine.battle import ATTACKER, BOTH, DEFENDER
from games.engine.game import Game
from games.engine.notation import Move
from games.engine.pieces import BOMB, FLAG, GENERAL, MARSHAL, MINER, SCOUT, SPY
from games.engine.player_interface import RandomPlayer
from games.engine.referee import Referee
from games.engine.results import Termination

FAKE = str(Path(__file__).with_name("fake_program.py"))


def fake(mode: str, seed: int = 1, timeout: float = 5.0) -> ExternalPlayer:
    return ExternalPlayer([sys.executable, FAKE, mode, str(seed)], timeout=timeout)


def spec(mode: str, timeout: float = 5.0) -> ExternalSpec:
    return ExternalSpec((sys.executable, FAKE, mode), timeout=timeout)


def test_moves_and_outcomes_in_the_protocol_words() -> None:
    width = 10
    assert move_text(Move(33, 34), width) == "3 3 RIGHT"
    assert move_text(Move(33, 3), width) == "3 3 UP 3"
    assert move_text(Move(62, 42), width) == "2 6 UP 2"
    assert parse_move("3 3 UP 3", width, 10) == Move(33, 3)
    assert parse_move("0 9 RIGHT", width, 10) == Move(90, 91)
    battle = {"attacker": SPY, "defender": MARSHAL, "result": ATTACKER}
    assert outcome_text(Move(33, 43), width, battle) == "3 3 DOWN KILLS s 1"
    battle = {"attacker": GENERAL, "defender": BOMB, "result": DEFENDER}
    assert outcome_text(Move(33, 43), width, battle) == "3 3 DOWN DIES 2 B"
    battle = {"attacker": SCOUT, "defender": SCOUT, "result": BOTH}
    assert outcome_text(Move(33, 43), width, battle) == "3 3 DOWN BOTHDIE 9 9"
    battle = {"attacker": MINER, "defender": FLAG, "result": ATTACKER}
    assert outcome_text(Move(33, 43), width, battle) == "3 3 DOWN VICTORY_FLAG 8 F"
    assert outcome_text(Move(33, 43), width, None) == "3 3 DOWN OK"


@pytest.mark.parametrize("line", ["3 3", "3 3 NORTH", "a 3 UP", "0 0 UP", "9 9 RIGHT", "3 3 UP 0"])
def test_a_line_that_is_no_move_on_the_board_is_a_protocol_error(line: str) -> None:
    with pytest.raises(ExternalError):
        parse_move(line, 10, 10)


def test_setup_rows_land_in_the_seat_s_own_rows() -> None:
    variant = get_variant("classic")
    rows = ["B9B8F8B989", "7654321765", "49s9598B98", "B6B7974635"]
    red, blue = parse_setup(rows, variant, RED), parse_setup(rows, variant, BLUE)
    assert red[0] == BOMB and red[4] == FLAG and red[16] == MARSHAL and red[22] == SPY
    assert blue[60] == BOMB and blue[64] == FLAG and blue[76] == MARSHAL
    assert len(red) == len(blue) == 40 and max(red) == 39 and min(blue) == 60
    with pytest.raises(ExternalError, match="no rank"):
        parse_setup(["B9B8F8B98X", *rows[1:]], variant, RED)


def test_the_board_shows_own_ranks_and_hides_the_enemy_s() -> None:
    game = Game("classic")
    game.random_setup(RED)
    game.random_setup(BLUE)
    game.mark_ready(RED)
    game.mark_ready(BLUE)
    rows = board_rows(game.view(RED))
    assert len(rows) == 10 and all(len(row) == 10 for row in rows)
    assert set("".join(rows[6:])) == {"#"} and "#" not in "".join(rows[:4])
    assert rows[4][2:4] == "++" and rows[5][6:8] == "++" and rows[4][:2] == ".."


@pytest.mark.parametrize("seat", [RED, BLUE])
def test_a_whole_game_against_the_fake_program(seat: int) -> None:
    program = fake("normal", seed=seat + 3)
    players = [RandomPlayer(7), program] if seat == BLUE else [program, RandomPlayer(7)]
    result = Referee("classic", *players).play()
    # the fake program exits with an error the moment our lines and its own count disagree
    assert result.forfeit is None, result.forfeit
    assert result.plies > 50
    assert result.outcome.termination in (
        Termination.FLAG_CAPTURED,
        Termination.NO_MOVES,
        Termination.MOVE_CAP,
    )
    assert program.process is None  # finish() ended it


def test_a_refused_move_is_a_disagreement_counted_apart() -> None:
    result = run_tournament("classic", ["random", "fake"], 2, externals={"fake": spec("illegal")})
    [pairing] = result.pairings
    assert (pairing.first, pairing.second) == ("random", "fake")
    assert pairing.disagreements == 2 and pairing.games == 0
    assert all(r.disagreement and "illegal move" in r.forfeit_reason for r in result.records)
    assert "    2 " in format_tables(result).splitlines()[2]


def test_silence_past_the_timeout_forfeits() -> None:
    program = fake("silent", timeout=0.5)
    result = Referee("classic", RandomPlayer(1), program).play()
    assert result.forfeit is not None and result.forfeit.color == BLUE
    assert "silent for 0.5 s" in result.forfeit.reason
    assert result.outcome.winner == RED and result.outcome.termination == Termination.FORFEIT
    assert program.process is None


def test_silence_is_a_loss_not_a_disagreement() -> None:
    result = run_tournament(
        "classic", ["random", "fake"], 1, externals={"fake": spec("silent", timeout=0.5)}
    )
    [pairing] = result.pairings
    assert (pairing.wins, pairing.losses, pairing.disagreements) == (1, 0, 0)
    assert pairing.forfeits_second == 1


def test_a_crashing_program_forfeits_and_its_error_is_kept() -> None:
    program = fake("crash")
    result = Referee("classic", program, RandomPlayer(1)).play()
    assert result.forfeit is not None and result.forfeit.color == RED
    # it is found dead when we read from it or when we write to it, whichever comes first
    reason = result.forfeit.reason
    assert "the program ended" in reason or "the program stopped reading" in reason
    assert result.forfeit.kind == "exception" and result.plies == 0
    assert result.outcome.winner == BLUE


def test_a_program_that_cannot_start_forfeits() -> None:
    program = ExternalPlayer([os.devnull])
    result = Referee("classic", program, RandomPlayer(1)).play()
    assert result.forfeit is not None and result.forfeit.color == RED
    assert result.forfeit.kind == "exception"


def test_the_tournament_pairs_our_levels_only_against_the_program() -> None:
    result = run_tournament(
        "classic",
        ["random", "medium", "fake"],
        2,
        seed=3,
        externals={"fake": spec("normal")},
        jobs=2,
    )
    assert [(p.first, p.second) for p in result.pairings] == [
        ("medium", "fake"),
        ("random", "fake"),
    ]
    assert all(p.games == 2 and p.disagreements == 0 for p in result.pairings)
    assert {r.red for r in result.records} == {"random", "medium", "fake"}
    assert set(result.think_times) == {"random", "medium", "fake"}


def test_a_program_whose_every_setup_is_refused_leaves_a_table_of_void_games() -> None:
    """The classic army in a barrage game: refused before anyone moves."""
    result = run_tournament("barrage", ["random", "fake"], 2, externals={"fake": spec("normal")})
    [pairing] = result.pairings
    assert pairing.disagreements == 2 and pairing.games == 0
    assert all("illegal setup" in r.forfeit_reason for r in result.records)
    table = format_tables(result)
    assert "random vs fake" in table and "fake " not in table.split("move time")[1]


def test_the_tournament_command_plays_an_outside_program() -> None:
    import io
    import shlex

    from django.core.management import call_command
    from django.core.management.base import CommandError

    out = io.StringIO()
    command = shlex.join([sys.executable, FAKE, "normal"])
    call_command(
        "tournament",
        "random",
        "--external",
        command,
        "--external-name",
        "fake",
        "--games",
        "2",
        "--jobs",
        "2",
        "--no-progress",
        stdout=out,
    )
    text = out.getvalue()
    assert "random vs fake" in text and "95% interval" in text and "void" in text
    assert "how random lost to fake" in text and "flag taken by a miner" in text
    with pytest.raises(CommandError, match="also a level"):
        call_command("tournament", "random", "--external", command, "--external-name", "random")


def test_the_command_line_without_django_stops_cuts_and_dumps(tmp_path: Path) -> None:
    """`python -m games.bots.tournament_cli` plays what `manage.py tournament` plays; a game
    still going at --cut-after is abandoned and counted apart, the games not yet started at
    --stop-after are not played, and --dump keeps every finished game to replay."""
    import gzip
    import json
    import shlex
    import subprocess

    from games.engine.notation import Move as EngineMove

    fake = shlex.join([sys.executable, FAKE, "normal"])
    silent = shlex.join([sys.executable, FAKE, "silent"])
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    base = [sys.executable, "-m", "games.bots.tournament_cli", "random", "--no-progress"]
    dump = tmp_path / "games.json.gz"
    done = subprocess.run(
        [*base, "--external", fake, "--games", "2", "--dump", str(dump), "--out", str(tmp_path)]
        + ["--no-chart"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "random vs external" in done.stdout and "how random lost to external" in done.stdout
    games = json.loads(gzip.open(dump, "rt").read())
    assert len(games) == 2
    assert not Path(f"{dump}.partial").exists()  # the games as they ended, gone once whole
    assert [record["void"] for record in games] == [False, False]
    for record in games:
        setups = [{int(k): v for k, v in s.items()} for s in record["setups"]]
        game = Game.from_setups("classic", *setups)
        for src, dst in record["moves"]:
            game.push(EngineMove(src, dst))
        outcome = replayed_outcome(game)
        assert outcome is not None and outcome.to_dict() == record["outcome"]
        # ended at once: the side not to move had no move left (the engine waits a move)
        assert game.outcome == outcome or not game.can_move(1 - game.turn)
    refused = tmp_path / "refused.json.gz"
    illegal = shlex.join([sys.executable, FAKE, "illegal"])
    done = subprocess.run(
        [*base, "--external", illegal, "--games", "1", "--dump", str(refused)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert [r["void"] for r in json.loads(gzip.open(refused, "rt").read())] == [True]
    header = (tmp_path / "tournament-classic.csv").read_text().splitlines()[0]
    assert "red_flag_by_miner" in header and "blue_out_of_moves" in header
    cut = subprocess.run(
        [*base, "--external", silent, "--external-timeout", "60", "--games", "3"]
        + ["--stop-after", "1", "--cut-after", "3"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert cut.returncode == 0, cut.stderr
    assert "(stopped: 2 games not started, 1 cut unfinished)" in cut.stdout
    assert "random vs external       0     0      0" in cut.stdout


def test_where_a_program_plays_a_side_left_with_no_move_loses_at_once() -> None:
    # a program written for the contest falls silent in a game it sees as won
    program = ExternalPlayer(["no-such-program"])
    assert referee("classic", (RandomPlayer(1), program)).end_when_stuck
    assert referee("classic", (program, RandomPlayer(1))).end_when_stuck
    assert not referee("classic", (RandomPlayer(1), RandomPlayer(2))).end_when_stuck


def test_pooled_results_counts_an_old_forfeit_of_a_won_game_as_the_win_it_was(
    tmp_path: Path,
) -> None:
    """Before the referee ended such games at once, a program that fell silent because our
    side had no move left forfeited: the pooled figures count those games by the rules."""
    import gzip
    import json
    import shlex
    import subprocess

    from games.engine.notation import Move as EngineMove

    root = Path(__file__).resolve().parents[2]
    dump = tmp_path / "games.json.gz"
    subprocess.run(
        [sys.executable, "-m", "games.bots.tournament_cli", "random", "--no-progress"]
        + ["--external", shlex.join([sys.executable, FAKE, "normal"]), "--games", "2"]
        + ["--dump", str(dump)],
        cwd=root,
        check=True,
        capture_output=True,
        timeout=120,
    )
    records = json.loads(gzip.open(dump, "rt").read())
    stuck = 0
    for record in records:
        setups = [{int(k): v for k, v in s.items()} for s in record["setups"]]
        game = Game.from_setups("classic", *setups)
        for src, dst in record["moves"]:
            game.push(EngineMove(src, dst))
        if game.outcome is None:  # ended at once: as an old run recorded it
            stuck += 1
            record["outcome"] = {"winner": 1 - game.turn, "termination": "forfeit"}
    assert stuck, "no game ended at once: the test needs one"
    old = tmp_path / "old.json.gz"
    with gzip.open(old, "wt") as handle:
        json.dump(records, handle)

    def pooled(path: Path) -> list[str]:
        script = root / "scripts" / "pooled_results.py"
        done = subprocess.run(
            [sys.executable, str(script), "random", str(path)],
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
        )
        return done.stdout.splitlines()

    now, then = pooled(dump), pooled(old)
    assert then[3].endswith(f"counted as its loss: {stuck}")
    assert now[3].endswith("counted as its loss: 0")
    assert then[:3] == now[:3] and then[4:] == now[4:]
