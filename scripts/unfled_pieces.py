"""Why a level's pieces stayed to be taken when they could have fled, in recorded games.

usage: .venv/bin/python scripts/unfled_pieces.py NAME DUMP [DUMP ...]

DUMP is the gzipped JSON that `--dump` of `python -m games.bots.tournament_cli` writes;
NAME the level whose games are read (`expert`). Every game is replayed from its setups.
For each hidden piece of NAME's that had moved and that a piece of the opponent's, whose
rank a battle had shown, took after stepping up next to it while a flight was free
(`fallen_movers.py`'s "it stepped up, a flight was free"), `expert` (as the code stands,
4000 nodes a move, beliefs built from the game so far) decides NAME's move in between
again, and the script sorts what it weighed:
- "the flight was not a candidate": no move of the piece was searched;
- "the search preferred the move played": the move played, or what replaced it, was
  better by search than every flight;
- "the search preferred a flight, the terms the move played": by search a flight was at
  least as good, and the terms the search does not see (`ExpertPlayer.positional`)
  tipped the choice; split by how much the search preferred the flight;
- "the replay flees": the code as it stands now chooses a flight.
Each line with how many of those flights cost the guard penalty of a flag's guard.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fallen_movers import takes  # noqa: E402

from games.bots import expert as expert_module  # noqa: E402
from games.bots.hard import MoveScorer  # noqa: E402
from games.engine import Game, Move, get_variant  # noqa: E402

NODES = 4000
FREE_FLIGHT = "it stepped up, a flight was free"
KINDS = (
    "the flight was not a candidate",
    "the search preferred the move played",
    "the search preferred a flight by less than 3, the terms the move played",
    "the search preferred a flight by 3 to 10, the terms the move played",
    "the search preferred a flight by 10 or more, the terms the move played",
    "the replay flees",
)


def unfled(name: str, path: str) -> list[tuple[dict, int, int, int]]:
    """(record, NAME's colour, index of NAME's move in between, square of the piece then)
    for every take of a hidden mover after a free flight by a shown attacker."""
    found = []
    for take in takes(name, [path]):
        if take is None or not take.known or not take.kind.startswith(FREE_FLIGHT):
            continue
        last_src, last_dst = take.record["moves"][take.index - 1]
        square = last_src if last_dst == take.dst else take.dst
        found.append((take.record, take.me, take.index - 1, square))
    return found


class Recorder:
    """Keeps the search values `expert.think` returned on the last move."""

    def __init__(self) -> None:
        self.think = expert_module.think
        self.last: dict[Move, float] | None = None

    def __call__(self, *args, **kwargs):  # the signature of `expert.think`
        self.last = self.think(*args, **kwargs)
        return self.last


def sort(events: list[tuple[dict, int, int, int]], recorder: Recorder) -> tuple[Counter, Counter]:
    kinds: Counter = Counter()
    guarded: Counter = Counter()  # of those, where every flight cost a guard's penalty
    variant = get_variant("classic")
    by_game: dict[int, list[tuple[int, int]]] = {}
    games: dict[int, tuple[dict, int]] = {}
    for record, me, index, square in events:
        by_game.setdefault(id(record), []).append((index, square))
        games[id(record)] = (record, me)
    for key, wanted in by_game.items():
        record, me = games[key]
        at = dict(wanted)
        setups = [{int(sq): rank for sq, rank in s.items()} for s in record["setups"]]
        game = Game.from_setups("classic", *setups)
        bot = expert_module.ExpertPlayer(1, budget=1.0, nodes=NODES)
        bot.start(me, variant)
        for index, (src, dst) in enumerate(record["moves"]):
            if game.turn == me:
                view = game.view(me)
                if index in at:
                    kind, pinned = judge(bot, view, Move(src, dst), at[index], recorder)
                    kinds[kind] += 1
                    guarded[kind] += pinned
                else:
                    bot.tracker.observe(view)
                    bot._count_quiet(view)
            game.push(Move(src, dst))
    return kinds, guarded


def judge(bot, view, played: Move, square: int, recorder: Recorder) -> tuple[str, bool]:
    recorder.last = None
    choice = bot.move(view)
    if choice.src == square:
        return KINDS[5], False
    searched = recorder.last
    flights = [m for m in searched or () if m.src == square]
    if not searched or not flights:
        return KINDS[0], False
    scorer = MoveScorer(view, bot.beliefs(view), bot)
    pinned = all(scorer._leaves_guard(m) > 0 for m in flights)
    other = played if played in searched else choice
    gap = max(searched[m] for m in flights) - searched[other]
    if gap < 0:
        return KINDS[1], pinned
    return KINDS[2] if gap < 3 else KINDS[3] if gap < 10 else KINDS[4], pinned


def main(args: list[str]) -> int:
    if len(args) < 2:
        print(__doc__)
        return 2
    recorder = Recorder()
    expert_module.think = recorder
    events = [event for path in args[1:] for event in unfled(args[0], path)]
    kinds, guarded = sort(events, recorder)
    print(
        f"{len(events)} pieces of {args[0]}'s taken by a shown piece that stepped up"
        " while a flight was free"
    )
    print(f"  {'what expert weighs in the position, replayed':<72s} pieces  guard")
    for kind in KINDS:
        print(f"  {kind:<72s} {kinds[kind]:6d} {guarded[kind]:6d}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
