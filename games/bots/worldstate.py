"""The search's only contact with the engine's state: `make` a move and `unmake` it.

`make` plays the move with the engine's public `Game.push` (so every rule, battle and
outcome is the engine's), after saving what a push can change; `unmake` puts it back.
Copying a whole game per node (`Game.from_position`, ~100-150 us) was most of the search's
time; saving and restoring the few fields one move touches costs a few microseconds.

This module knows the engine's internal fields (`board`, `army`, `runs`, ...). When the
engine offers its own push/pop, `make`/`unmake` become calls to it and nothing else
changes; `tests/bots/test_expert.py` checks that a make/unmake round trip gives back the
game exactly (`to_dict`), so a change of the engine's internals cannot go unnoticed.
"""

from __future__ import annotations

from games.engine import Game, Move, MoveResult


class WorldState:
    """One complete board being searched, with an undo stack."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._undo: list[tuple] = []

    def moves(self) -> list[Move]:
        return self.game.legal_moves()

    def captures(self) -> list[Move]:
        board = self.game.board
        return [m for m in self.game.generate_legal_moves() if board[m.dst] is not None]

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
    def outcome(self):  # noqa: ANN201 - engine.Outcome | None
        return self.game.outcome

    def make(self, move: Move) -> MoveResult:
        g = self.game
        mover, target = g.board[move.src], g.board[move.dst]
        assert mover is not None
        self._undo.append(
            (
                move,
                mover,
                (mover.square, mover.revealed, mover.moved, mover.scout_known, mover.recent),
                target,
                None if target is None else (target.square, target.revealed),
                (g.army[0][:], g.army[1][:]),
                (len(g.captured[0]), len(g.captured[1]), len(g.history)),
                (g.turn, g.ply, g.quiet_plies, g.hash, g.outcome, g.phase),
                (g.last_by[:], g.hash_after[:], g.runs[:]),
                [None if c is None else [c[0], c[1], set(c[2])] for c in g.chases],
            )
        )
        return g.push(move)

    def unmake(self) -> None:
        g = self.game
        move, mover, mover_state, target, target_state, army, lengths, scalars, lists, chases = (
            self._undo.pop()
        )
        g.board[move.src], g.board[move.dst] = mover, target
        mover.square, mover.revealed, mover.moved, mover.scout_known, mover.recent = mover_state
        if target is not None:
            target.square, target.revealed = target_state
        g.army = army
        del g.captured[0][lengths[0] :], g.captured[1][lengths[1] :], g.history[lengths[2] :]
        g.turn, g.ply, g.quiet_plies, g.hash, g.outcome, g.phase = scalars
        g.last_by, g.hash_after, g.runs = lists
        g.chases = chases


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
