"""Round-robin tournaments between computer players, through the engine's referee.

Every pairing plays `games` games with colours alternated (the first player of a pairing,
the later-named one on the command line, is Red in even games) and fresh setups every
game: each player sets up itself with its own seed, derived from the tournament seed, so a
run can be repeated exactly.

    result = run_tournament("classic", ["random", "medium", "hard"], games=200, seed=1)
    print(format_tables(result))
"""

from __future__ import annotations

import contextlib
import csv
import itertools
import math
import multiprocessing
import random
import signal
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from games.engine import BLUE, RED
from games.engine.player_interface import Player
from games.engine.referee import MatchResult, Referee

from . import get_player
from .external import ExternalPlayer
from .losses import MATERIAL_PLY, PATTERNS, both_sides


@dataclass(frozen=True)
class GameRecord:
    variant: str
    index: int
    red: str
    blue: str
    red_seed: int
    blue_seed: int
    winner: str | None  # the winning player's name, None for a draw
    winner_color: int | None
    termination: str
    plies: int
    forfeit_by: str | None
    forfeit_reason: str
    disagreement: bool = False  # an outside program's setup or move our engine refused
    # what each side suffered, by pattern (games.bots.losses), Red's first
    suffered: tuple[Mapping[str, int], Mapping[str, int]] = ({}, {})


@dataclass(frozen=True)
class ExternalSpec:
    """An outside program taking part under a name of its own (see `games.bots.external`)."""

    command: tuple[str, ...]
    cwd: str | None = None
    timeout: float = 10.0

    def player(self) -> ExternalPlayer:
        return ExternalPlayer(self.command, self.cwd, self.timeout)


@dataclass
class Pairing:
    """The results of `first` against `second`, counted from `first`'s side."""

    first: str
    second: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits_first: int = 0
    forfeits_second: int = 0
    disagreements: int = 0  # games an outside program's refused setup or move ended: void
    plies: list[int] = field(default_factory=list)
    terminations: Counter[str] = field(default_factory=Counter)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def average_plies(self) -> float:
        return statistics.fmean(self.plies) if self.plies else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def add(self, record: GameRecord, first_is_red: bool) -> None:
        if record.disagreement:
            self.disagreements += 1
            return
        first_color = RED if first_is_red else BLUE
        if record.winner_color is None:
            self.draws += 1
        elif record.winner_color == first_color:
            self.wins += 1
        else:
            self.losses += 1
        if record.forfeit_by is not None:
            if (record.forfeit_by == "red") == first_is_red:
                self.forfeits_first += 1
            else:
                self.forfeits_second += 1
        self.plies.append(record.plies)
        self.terminations[record.termination] += 1


@dataclass
class TournamentResult:
    variant: str
    games_per_pairing: int
    seed: int
    pairings: list[Pairing] = field(default_factory=list)
    records: list[GameRecord] = field(default_factory=list)
    think_times: dict[str, list[float]] = field(default_factory=dict)
    seconds: float = 0.0
    not_started: int = 0  # games left unplayed because the run was told to stop
    cut: int = 0  # games stopped unfinished at the hard stop, counted nowhere else


RECORDED = (*PATTERNS, "reached_300", "lost_by_300")  # per side, in the CSV
Progress = Callable[[int, int, str], None]
Externals = Mapping[str, ExternalSpec]
Task = tuple[str, str, str, int, int, Externals]
# a task with its stops (wall-clock, time.time()): no new game after the first, every game
# still going is abandoned at the second
TimedTask = tuple[Task, float | None, float | None]
NOT_STARTED = "not started"
CUT = "cut"


class _OutOfTime(BaseException):
    """Raised in a game at the hard stop; no player's or referee's handler catches it."""


def _out_of_time(signum: int, frame: object) -> None:
    raise _OutOfTime


def make_player(name: str, seed: int | None, externals: Externals) -> Player:
    """The player named `name`: an outside program of `externals`, or one of our levels."""
    spec = externals.get(name)
    return spec.player() if spec is not None else get_player(name, seed)


def referee(variant: str, players: tuple[Player, Player]) -> Referee:
    """The referee of one game: where an outside program plays, a side left with no move
    loses at once, as in the contest the program was written for (`Referee`)."""
    outside = any(isinstance(player, ExternalPlayer) for player in players)
    return Referee(variant, *players, end_when_stuck=outside)


def play_one(
    variant: str,
    red: str,
    blue: str,
    red_seed: int,
    blue_seed: int,
    externals: Externals | None = None,
) -> MatchResult:
    externals = externals or {}
    players = (make_player(red, red_seed, externals), make_player(blue, blue_seed, externals))
    try:
        return referee(variant, players).play()
    finally:
        for player in players:
            if isinstance(player, ExternalPlayer):
                player.close()


def is_disagreement(
    result: MatchResult, names: tuple[str, str], externals: Collection[str]
) -> bool:
    """Whether an outside program's setup or move that our engine refused ended the game
    (void: a disagreement about the rules, not a result)."""
    forfeit = result.forfeit
    return (
        forfeit is not None
        and forfeit.kind in ("setup", "move")
        and names[forfeit.color] in externals
    )


def _record(
    variant: str,
    index: int,
    names: tuple[str, str],
    seeds: tuple[int, int],
    result: MatchResult,
    externals: Externals,
) -> GameRecord:
    winner = None if result.outcome.winner is None else names[result.outcome.winner]
    forfeit = result.forfeit
    disagreement = is_disagreement(result, names, externals)
    return GameRecord(
        variant,
        index,
        names[RED],
        names[BLUE],
        seeds[RED],
        seeds[BLUE],
        winner,
        result.outcome.winner,
        result.outcome.termination,
        result.plies,
        None if forfeit is None else ("red" if forfeit.color == RED else "blue"),
        "" if forfeit is None else forfeit.reason,
        disagreement,
        both_sides(result.game),
    )


def _play_task(timed: TimedTask) -> MatchResult | str:
    task, soft_stop, hard_stop = timed
    if soft_stop is not None and time.time() >= soft_stop:
        return NOT_STARTED
    if hard_stop is None:
        return play_one(*task)
    left = hard_stop - time.time()
    if left <= 0:
        return NOT_STARTED
    previous = signal.signal(signal.SIGALRM, _out_of_time)
    signal.setitimer(signal.ITIMER_REAL, left)
    try:
        return play_one(*task)
    except _OutOfTime:
        return CUT
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_tournament(
    variant: str,
    players: Sequence[str],
    games: int,
    seed: int = 1,
    progress: Progress | None = None,
    on_match: Callable[[tuple[str, str], MatchResult], None] | None = None,
    jobs: int = 1,
    externals: Externals | None = None,
    stop_after: float | None = None,
    cut_after: float | None = None,
) -> TournamentResult:
    """Every pair of `players` plays `games` games; see the module docstring. `on_match`, if
    given, sees each game as played (the names by colour, Red's first). `jobs` > 1 plays
    the games in that many processes; the games, their seeds and the order of the results
    are the same as with one. `externals` names outside programs that take part, each
    under its name in `players`; when any takes part, only pairings of one of our levels
    against an outside program are played. `stop_after` seconds: no game starts later
    (the rest are counted as not started); `cut_after` seconds: a game still going then is
    abandoned and counted apart (`cut`), in no table."""
    externals = dict(externals or {})
    if len(players) < 2:
        raise ValueError("a tournament needs at least two players")
    for name in players:
        if name not in externals:
            get_player(name)  # unknown names fail before any game is played
    rng = random.Random(seed)
    result = TournamentResult(variant, games, seed)
    pairs = list(itertools.combinations(list(reversed(players)), 2))  # stronger first
    if externals:
        pairs = [
            (ours, theirs) if theirs in externals else (theirs, ours)
            for ours, theirs in pairs
            if (ours in externals) != (theirs in externals)
        ]
    # every game is drawn before any is played, so the seeds do not depend on `jobs`
    plan: list[tuple[Pairing, int, tuple[str, str], tuple[int, int]]] = []
    for first, second in pairs:
        pairing = Pairing(first, second)
        result.pairings.append(pairing)
        for index in range(games):
            names = (first, second) if index % 2 == 0 else (second, first)
            seeds = (rng.randrange(2**31), rng.randrange(2**31))
            plan.append((pairing, index, names, seeds))
    tasks: list[Task] = [
        (variant, names[RED], names[BLUE], *seeds, externals) for _, _, names, seeds in plan
    ]
    started = time.perf_counter()
    now = time.time()
    soft = None if stop_after is None else now + stop_after
    hard = None if cut_after is None else now + cut_after
    timed: list[TimedTask] = [(task, soft, hard) for task in tasks]
    with _matches(timed, jobs) as matches:
        for done, ((pairing, index, names, seeds), match) in enumerate(
            zip(plan, matches, strict=True), 1
        ):
            if match == NOT_STARTED:
                result.not_started += 1
                continue
            if match == CUT:
                result.cut += 1
                continue
            assert isinstance(match, MatchResult)
            record = _record(variant, index, names, seeds, match, externals)
            result.records.append(record)
            pairing.add(record, index % 2 == 0)
            for color in (RED, BLUE):
                result.think_times.setdefault(names[color], []).extend(match.think_times[color])
            if on_match is not None:
                on_match(names, match)
            if progress is not None:
                score = f"{pairing.wins}/{pairing.draws}/{pairing.losses}"
                progress(done, len(plan), f"{pairing.first} vs {pairing.second} {score}")
    result.seconds = time.perf_counter() - started
    return result


@contextlib.contextmanager
def _matches(tasks: list[TimedTask], jobs: int) -> Iterator[Iterator[MatchResult | str]]:
    """The matches of `tasks` in order, played here or in `jobs` worker processes."""
    if jobs <= 1:
        yield (_play_task(task) for task in tasks)
        return
    context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with context.Pool(jobs) as pool:
        yield pool.imap(_play_task, tasks, chunksize=1)


# ---------------------------------------------------------------------- output
def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion, as fractions."""
    if trials == 0:
        return (0.0, 1.0)
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    return (max(0.0, centre - half / denominator), min(1.0, centre + half / denominator))


def format_tables(result: TournamentResult) -> str:
    lines = [
        f"{result.variant}: {result.games_per_pairing} games per pairing, seed {result.seed}, "
        f"{result.seconds:.0f} s"
        + (
            f" (stopped: {result.not_started} games not started, {result.cut} cut unfinished)"
            if result.not_started or result.cut
            else ""
        ),
        f"{'pairing':<20} {'wins':>5} {'draws':>5} {'losses':>6} {'forfeits':>9} "
        f"{'void':>5} {'win %':>6} {'95% interval':>13} {'avg plies':>9}",
    ]
    for p in result.pairings:
        low, high = wilson_interval(p.wins, p.games)
        lines.append(
            f"{p.first + ' vs ' + p.second:<20} {p.wins:>5} {p.draws:>5} {p.losses:>6} "
            f"{f'{p.forfeits_first}/{p.forfeits_second}':>9} {p.disagreements:>5} "
            f"{100 * p.win_rate:>6.1f} {f'{100 * low:.1f}-{100 * high:.1f}':>13} "
            f"{p.average_plies:>9.1f}"
        )
    lines.append(
        "endings: "
        + "; ".join(
            f"{p.first} vs {p.second}: "
            + ", ".join(f"{k} {v}" for k, v in p.terminations.most_common())
            for p in result.pairings
        )
    )
    lines.append(f"{'move time (ms)':<20} {'median':>7} {'p95':>7} {'max':>7} {'moves':>7}")
    for name, times in result.think_times.items():
        if not times:  # every game of it ended before its first move
            continue
        lines.append(
            f"{name:<20} {1000 * statistics.median(times):>7.2f} "
            f"{1000 * percentile(times, 0.95):>7.2f} {1000 * max(times):>7.1f} {len(times):>7}"
        )
    return "\n".join(lines)


def write_csv(result: TournamentResult, path: Path) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            [
                "variant",
                "game",
                "red",
                "blue",
                "red_seed",
                "blue_seed",
                "winner",
                "termination",
                "plies",
                "forfeit_by",
                "forfeit_reason",
                "disagreement",
                *(f"red_{key}" for key in RECORDED),
                *(f"blue_{key}" for key in RECORDED),
            ]
        )
        for r in result.records:
            writer.writerow(
                [
                    r.variant,
                    r.index,
                    r.red,
                    r.blue,
                    r.red_seed,
                    r.blue_seed,
                    r.winner or "draw",
                    r.termination,
                    r.plies,
                    r.forfeit_by or "",
                    r.forfeit_reason,
                    "yes" if r.disagreement else "",
                    *(r.suffered[0].get(key, "") for key in RECORDED),
                    *(r.suffered[1].get(key, "") for key in RECORDED),
                ]
            )


def write_chart(result: TournamentResult, path: Path) -> None:
    """Stacked bars of wins, draws and losses per pairing (matplotlib, Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{p.first} vs {p.second}" for p in result.pairings]
    wins = [p.wins for p in result.pairings]
    draws = [p.draws for p in result.pairings]
    losses = [p.losses for p in result.pairings]
    fig, ax = plt.subplots(figsize=(7, 1.8 + 0.7 * len(labels)))
    ax.barh(labels, wins, color="#2e7d32", label="wins")
    ax.barh(labels, draws, left=wins, color="#9e9e9e", label="draws")
    ax.barh(
        labels,
        losses,
        left=[w + d for w, d in zip(wins, draws, strict=True)],
        color="#c62828",
        label="losses",
    )
    ax.invert_yaxis()
    ax.set_xlabel(f"games (of {result.games_per_pairing}), counted for the first-named player")
    ax.set_title(f"{result.variant}: round robin, seed {result.seed}")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=3, fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_outputs(result: TournamentResult, out_dir: Path, chart: bool = True) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    csv_path = out_dir / f"tournament-{result.variant}.csv"
    write_csv(result, csv_path)
    if not chart:  # matplotlib is not needed for the CSV
        return [csv_path]
    png_path = out_dir / f"tournament-{result.variant}.png"
    write_chart(result, png_path)
    return [csv_path, png_path]


class ProgressBar:
    """A one-line progress bar on a stream; plain lines every 5% when it is not a terminal."""

    def __init__(self, stream: TextIO = sys.stderr, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.started = time.perf_counter()
        self.tty = stream.isatty()

    def __call__(self, done: int, total: int, label: str) -> None:
        filled = self.width * done // total
        elapsed = time.perf_counter() - self.started
        eta = elapsed / done * (total - done)
        text = (
            f"[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} {label} "
            f"{elapsed:.0f}s elapsed, ~{eta:.0f}s left"
        )
        if self.tty:
            self.stream.write("\r" + text + ("\n" if done == total else ""))
        elif done == total or done % max(1, total // 20) == 0:
            self.stream.write(text + "\n")
        self.stream.flush()


__all__ = [
    "ExternalSpec",
    "GameRecord",
    "Pairing",
    "ProgressBar",
    "TournamentResult",
    "format_tables",
    "is_disagreement",
    "run_tournament",
    "wilson_interval",
    "write_outputs",
]


def format_patterns(result: TournamentResult, externals: Collection[str]) -> str:
    """Per level playing an outside program: the patterns summed over its lost games, and
    in brackets over all its games (what it suffered; the program's own in the last line)."""
    lines = []
    for pairing in result.pairings:
        ours, theirs = pairing.first, pairing.second
        if ours in externals or theirs not in externals:
            continue
        lost: Counter[str] = Counter()
        every: Counter[str] = Counter()
        opposite: Counter[str] = Counter()
        losses = 0
        for record in result.records:
            if {record.red, record.blue} != {ours, theirs} or record.disagreement:
                continue
            color = 0 if record.red == ours else 1
            mine = record.suffered[color]
            every.update(mine)
            opposite.update(record.suffered[1 - color])
            if record.winner == theirs:
                losses += 1
                lost.update(mine)
        lines.append(f"how {ours} lost to {theirs} ({losses} losses; [all its games])")
        for key, label in PATTERNS.items():
            lines.append(f"  {label:<32} {lost[key]:>4} [{every[key]:>4}]")
        lines.append(f"  {theirs}: " + ", ".join(f"{PATTERNS[k]} {opposite[k]}" for k in PATTERNS))
        if every["reached_300"]:
            lines.append(
                f"  worth lost by ply {MATERIAL_PLY}, on average over the "
                f"{every['reached_300']} games that lasted so long: {ours} "
                f"{every['lost_by_300'] / every['reached_300']:.0f}, {theirs} "
                f"{opposite['lost_by_300'] / opposite['reached_300']:.0f}"
            )
    return "\n".join(lines)
