"""The search's only contact with the engine's state: `make` a move and `unmake` it.

`make` is the engine's `Game.push_generated`, its `push` (every rule, battle and outcome is
the engine's) without the legality check, since the search plays only moves the engine
generated (checking them again was a fifth of a node), and `unmake` its `Game.pop`, which
puts back what the push changed. Copying a whole game per
node (`Game.from_position`) was most of the search's time; push/pop costs far less
(docs/performance.md, "Figures behind the code"). `tests/bots/test_expert.py` checks that a
make/unmake round trip gives back the game exactly (`to_dict`).
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine import Game, Move, MoveResult


class WorldState:
    """One complete board being searched, with an undo stack."""

    def __init__(self, game: Game) -> None:
        self.game = game
        # `make` and `unmake`, bound once: the engine's own methods, called at every node
        self.make: Callable[[Move], MoveResult] = game.push_generated
        self.unmake: Callable[[], MoveResult] = game.pop

    def moves(self) -> list[Move]:
        return self.game.legal_moves()

    def captures(self) -> list[Move]:
        """The legal attacks of the side to move, in the engine's order, without generating
        its quiet moves (quiescence asks for them at every leaf): `Game.legal_attacks`."""
        return self.game.legal_attacks()

    def blind(self, move: Move) -> bool:
        """Whether `move` attacks a piece whose rank its side has not seen (no battle has
        shown it): in a sampled world the searcher knows it, the player would not."""
        target = self.game.board[move.dst]
        return target is not None and not target.revealed

    def occupant(self, square: int) -> tuple[int, int] | None:
        """(colour, rank) of the piece on `square`, or None."""
        unit = self.game.board[square]
        return None if unit is None else (unit.color, unit.rank)

    @property
    def turn(self) -> int:
        return self.game.turn

    @property
    def outcome(self):  # (engine.Outcome | None)
        return self.game.outcome


def reveal(game: Game, squares: list[int]) -> None:
    """Mark the pieces on `squares` as shown by a battle (a world built from a view)."""
    for square in squares:
        unit = game.board[square]
        if unit is not None:
            unit.revealed = True


def bench(plies: int = 60, seconds: float = 2.0, seed: int = 1) -> dict[str, float]:
    """make/unmake cycles a second over every legal move of classic positions `plies` into
    random games (`python -m games.bots.worldstate`), and the same with a copy per move."""
    import random
    import time

    from games.engine import generate_setup, get_variant

    variant, rng = get_variant("classic"), random.Random(seed)
    game = Game.from_setups(
        variant, generate_setup(variant, 0, rng), generate_setup(variant, 1, rng)
    )
    for _ in range(plies):
        game.push(rng.choice(game.legal_moves()))
    state, moves = WorldState(game), game.legal_moves()
    pieces = {sq: (u.color, u.rank) for sq, u in enumerate(game.board) if u is not None}
    rates = {}
    for name in ("make_unmake", "copy_make"):
        done, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds / 2:
            for move in moves:
                if name == "make_unmake":
                    state.make(move)
                    state.unmake()
                else:
                    Game.from_position(variant, pieces, game.turn).push(move)
                done += 1
        rates[name] = done / (time.perf_counter() - started)
    return rates


__all__ = ["WorldState", "bench", "reveal"]


if __name__ == "__main__":
    for name, rate in bench().items():
        print(f"{name:<12} {rate:>9.0f} a second")
