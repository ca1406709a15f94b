"""Engine benchmark: `python -m games.engine.bench [--seconds S] [--rounds N]`.

Prints medians over rounds, measured on one core in one process:
- full random classic games per second (each played to its end or its move cap);
- legal-move generations per second on a mid-game classic position;
- the cost of one move at ply 2,000 against ply 50 (the anti-stalling rules keep their state
  incrementally, so a long game must not become quadratic);
- search nodes per second: a depth-2 walk over every legal move and every reply with
  `push`/`pop` on one game, from a mid-game classic position (a node is one push and its pop).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from .game import Game
from .pieces import BLUE, RED


def new_random_game(rng: random.Random, variant: str = "classic") -> Game:
    game = Game(variant)
    for color in (RED, BLUE):
        game.random_setup(color, rng)
        game.mark_ready(color)
    return game


def play_random(game: Game, rng: random.Random, stop_at_ply: int | None = None) -> Game:
    while not game.is_over and (stop_at_ply is None or game.ply < stop_at_ply):
        game.push(rng.choice(game.legal_moves()))
    return game


def games_per_second(seconds: float, rng: random.Random) -> tuple[float, float]:
    """(games per second, mean plies per game) over about `seconds`."""
    start, games, plies = time.perf_counter(), 0, 0
    while time.perf_counter() - start < seconds:
        game = play_random(new_random_game(rng), rng)
        games, plies = games + 1, plies + game.ply
    return games / (time.perf_counter() - start), plies / games


def midgame_position(rng: random.Random) -> Game:
    while True:
        game = play_random(new_random_game(rng), rng, stop_at_ply=300)
        if not game.is_over:
            return game


def generations_per_second(game: Game, seconds: float) -> float:
    start, count = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            game.legal_moves()
        count += 100
    return count / (time.perf_counter() - start)


def search_nodes_per_second(game: Game, seconds: float) -> float:
    """Nodes per second of a depth-2 push/pop walk (no evaluation: the engine's own cost)."""
    start, nodes = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        for move in game.legal_moves():
            game.push(move)
            for reply in game.legal_moves():
                game.push(reply)
                game.pop()
                nodes += 1
            game.pop()
            nodes += 1
    return nodes / (time.perf_counter() - start)


def long_game_snapshots(rng: random.Random, early: int, late: int) -> tuple[dict, dict]:
    """States of one real random classic game at ply `early` and ply `late`."""
    while True:
        game = play_random(new_random_game(rng), rng, stop_at_ply=early)
        if game.is_over:
            continue
        at_early = game.to_dict()
        play_random(game, rng, stop_at_ply=late)
        if not game.is_over:
            return at_early, game.to_dict()


def move_cost(states: list[dict], repeats: int) -> float:
    """Median seconds of one `push` (legality check and all) over every legal move of `states`."""
    timings = []
    for state in states:
        moves = Game.from_dict(state).legal_moves()
        for _ in range(repeats):
            for move in moves:
                game = Game.from_dict(state)
                begin = time.perf_counter_ns()
                game.push(move)
                timings.append(time.perf_counter_ns() - begin)
    return statistics.median(timings) / 1e9


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each timed round")
    parser.add_argument(
        "--rounds", type=int, default=5, help="rounds per figure; medians are printed"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--games", type=int, default=10, help="long games for the ply-2000 figure")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    rounds = [games_per_second(args.seconds, rng) for _ in range(args.rounds)]
    print(
        f"random classic games per second: {statistics.median(r[0] for r in rounds):.1f} "
        f"(median of {args.rounds} rounds; "
        f"mean game length {statistics.mean(r[1] for r in rounds):.0f} plies)"
    )

    position = midgame_position(rng)
    gens = [generations_per_second(position, args.seconds / 3) for _ in range(args.rounds)]
    print(
        f"legal-move generations per second (classic, ply {position.ply}, "
        f"{len(position.legal_moves())} moves): {statistics.median(gens):,.0f}"
    )

    nodes = [search_nodes_per_second(position, args.seconds / 3) for _ in range(args.rounds)]
    print(f"search nodes per second (push/pop, depth 2): {statistics.median(nodes):,.0f}")

    # Positions differ in cost (how many pieces, scouts' long moves): compare many games.
    pairs = [long_game_snapshots(rng, 50, 2000) for _ in range(args.games)]
    early = [move_cost([pair[0] for pair in pairs], 3) for _ in range(args.rounds)]
    late = [move_cost([pair[1] for pair in pairs], 3) for _ in range(args.rounds)]
    early_s, late_s = statistics.median(early), statistics.median(late)
    print(
        f"one move at ply 50: {early_s * 1e6:.1f} us; at ply 2000: {late_s * 1e6:.1f} us "
        f"(median over every legal move of {args.games} games); "
        f"ratio {late_s / early_s:.2f}"
    )


if __name__ == "__main__":
    main()
