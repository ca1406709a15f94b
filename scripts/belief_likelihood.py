"""How well `expert`'s beliefs expected the opponent's hidden ranks in recorded games.

usage: .venv/bin/python scripts/belief_likelihood.py [--mobility | --shared] NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes;
NAME the player whose beliefs are rebuilt (`expert`, or `medium` in a `hard medium` run:
any of our levels sees what expert would). Every game is replayed from the setups; at every
8th ply where NAME is to move, its beliefs are built from its view as expert builds them,
and the log-probability they give each hidden enemy piece's true rank is averaged, apart
for pieces that have moved and pieces that have not. Higher is better (0 is certainty).
With --mobility, the beliefs also weigh each piece by how often a still army moves its rank
(`opponent_mobility.adjust`, tried and not kept in expert). With --shared, the beliefs
leave out where people put each rank (`origin_prior`) and use the prior all levels share.
Also prints, for the attacks NAME made on a hidden piece that had moved, the chance to
win that the beliefs gave and how often it won.
"""

from __future__ import annotations

import math
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opponent_mobility import adjust as mobility_adjust  # noqa: E402

from games.bots import origin_prior, suspicion  # noqa: E402
from games.bots.dumps import recorded_games  # noqa: E402
from games.bots.knowledge import Tracker, build_beliefs  # noqa: E402
from games.engine import ATTACKER, FLAG, SCOUT, Game, Move, resolve_battle  # noqa: E402

EVERY = 8


def measure(
    name: str, paths: list[str], adjust, people: bool = True
) -> dict[str, tuple[float, int]]:
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for record, me, game in recorded_games(name, paths):
        tracker = Tracker()
        for ply, (src, dst) in enumerate(record["moves"]):
            if game.turn == me:
                view = game.view(me)
                tracker.observe(view)
                target = view.board[dst]
                attack = target is not None and target.color != me and target.rank is None
                if ply % EVERY == 0 or attack and target.moved:  # type: ignore[union-attr]
                    matched = origin_prior.MatchedSetups(
                        game.variant, me, tracker.shown, tracker.movers
                    )
                    beliefs = build_beliefs(
                        view,
                        tracker,
                        flag_structure=True,
                        adjust=adjust,
                        origin_prior=matched.weights if people else None,
                    )
                if ply % EVERY == 0:
                    _score(game, view, beliefs, sums)
                if attack and target.moved and game.board[src].rank != SCOUT:  # type: ignore[union-attr]
                    mine, true = game.board[src].rank, game.board[dst].rank  # type: ignore[union-attr]
                    win = sum(
                        p
                        for rank, p in beliefs.of(dst).items()
                        if resolve_battle(mine, rank, game.variant) == ATTACKER
                    )
                    row = sums["attacks on moved pieces: chance to win"]
                    row[0] += win
                    row[1] += 1
                    row = sums["attacks on moved pieces: won"]
                    row[0] += resolve_battle(mine, true, game.variant) == ATTACKER
                    row[1] += 1
            game.push(Move(src, dst))
    return {key: (total / n, int(n)) for key, (total, n) in sums.items() if n}


def _score(game: Game, view, beliefs, sums) -> None:
    for square, piece in enumerate(view.board):
        if piece is None or piece.color == view.viewer or piece.rank is not None:
            continue
        true = game.board[square].rank  # type: ignore[union-attr]
        kind = "log-likelihood, moved pieces" if piece.moved else "log-likelihood, unmoved"
        score = math.log(max(1e-4, beliefs.p(square, true)))
        kinds = [kind, "log-likelihood, every hidden piece"]
        if true == FLAG:
            kinds.append("log-likelihood, the flag")
        for key in kinds:
            sums[key][0] += score
            sums[key][1] += 1


def with_mobility(view, tracker, weights) -> None:
    suspicion.adjust(view, tracker, weights)
    mobility_adjust(view, tracker, weights)


def main(args: list[str]) -> int:
    mobility = "--mobility" in args
    shared = "--shared" in args
    args = [a for a in args if a not in ("--mobility", "--shared")]
    if len(args) < 2:
        print(__doc__)
        return 2
    adjust = with_mobility if mobility else suspicion.adjust
    found = measure(args[0], args[1:], adjust, people=not shared)
    for key, (mean, n) in sorted(found.items()):
        print(f"{key:42s} {mean:8.3f}  over {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
