"""A game of Stratego: setup, moves, battles, anti-stalling rules and outcomes.

`Game` is mutable, like python-chess's Board: `push` applies a move after checking it.
The anti-stalling rules (`stalling.py`) keep their state incrementally (the latest run of
each side for the two-squares rule, the current chase for the more-squares rule), so a move
at ply 2,000 costs what a move at ply 50 costs.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping

from .battle import ATTACKER, BOTH, DEFENDER, battle_table
from .errors import IllegalMoveError, SetupError
from .notation import Move, move_tables
from .pieces import BLUE, COLORS, FLAG, IMMOVABLE, OBSERVER, RANK_NAMES, RED, SCOUT, opponent
from .placement import check_placement, generate_setup, remaining, validate_setup
from .results import (
    FINISHED,
    PLAYING,
    SETUP,
    TERMINATIONS,
    MoveResult,
    Outcome,
    Phase,
    Termination,
    new_move_result,
)
from .stalling import (
    Chase,
    ChaseStep,
    Refusal,
    Run,
    chase_targets,
    is_evasion,
    more_squares_refusal,
    return_refusal,
    two_squares_refusal,
)
from .undo import Undo
from .units import Unit
from .variants import Variant, get_variant
from .view import PieceView, View
from .zobrist import zobrist_table

_new_tuple = tuple.__new__  # a NamedTuple's __new__ without its Python frame


class Game:
    def __init__(self, variant: Variant | str = "classic") -> None:
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self.phase: Phase = SETUP
        self.setups: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self.ready = [False, False]
        self.board: list[Unit | None] = [None] * self.variant.size
        self.units: list[Unit] = []
        self.army: tuple[list[Unit], list[Unit]] = ([], [])  # living units by colour
        self.turn = RED
        self.ply = 0
        self.quiet_plies = 0  # plies since the last battle
        self.captured: tuple[list[int], list[int]] = ([], [])
        self.history: list[MoveResult] = []  # moves pushed on this object (not persisted)
        self._undo: list[Undo] = []  # what each of those moves changed, for pop()
        self.last_by: list[MoveResult | None] = [None, None]  # each side's latest move
        self.outcome: Outcome | None = None
        self.hash = 0
        # Anti-stalling state per side (stalling.py): its latest run, the chase it is making.
        self.runs: list[Run | None] = [None, None]
        self.chases: list[Chase | None] = [None, None]
        self.hash_after: list[int | None] = [None, None]  # position after each side's last move
        self._zobrist = zobrist_table(self.variant)
        # the variant's Moves and Battles, made once (move generation and push hand them out)
        self._ray_moves, self._step_moves = move_tables(self.variant)
        self._battles = battle_table(self.variant)
        # per side, a piece that had a legal step when `has_legal_move` last looked: asked
        # first next time (only a shortcut; not part of the game's state)
        self._mobile: list[Unit | None] = [None, None]

    # ----------------------------------------------------------------- setup phase
    def remaining(self, color: int) -> dict[int, int]:
        return remaining(self.variant, self.setups[color])

    def is_setup_complete(self, color: int) -> bool:
        return not any(self.remaining(color).values())

    def _check_setup_open(self, color: int) -> None:
        if color not in COLORS:
            raise SetupError("not_a_player", "only the two players set up pieces")
        if self.phase != SETUP:
            raise SetupError("not_setup_phase", "the setup phase is over")
        if self.ready[color]:
            raise SetupError("already_ready", "you are ready already; your setup is locked")

    def place(self, color: int, square: int, rank: int) -> None:
        self._check_setup_open(color)
        check_placement(self.variant, color, square, rank, self.setups[color])
        self.setups[color][square] = rank

    def remove(self, color: int, square: int) -> int:
        self._check_setup_open(color)
        if square not in self.setups[color]:
            raise SetupError("empty_square", "none of your pieces stands there")
        return self.setups[color].pop(square)

    def clear_setup(self, color: int) -> None:
        self._check_setup_open(color)
        self.setups[color].clear()

    def set_setup(self, color: int, setup: Mapping[int, int]) -> None:
        self._check_setup_open(color)
        validate_setup(self.variant, color, setup)
        self.setups[color].clear()
        self.setups[color].update(setup)

    def random_setup(self, color: int, rng: random.Random | None = None) -> None:
        """Fill the rest of `color`'s setup, keeping what is placed already."""
        self._check_setup_open(color)
        filled = generate_setup(self.variant, color, rng, self.setups[color])
        self.setups[color].update(filled)

    def mark_ready(self, color: int) -> None:
        """START: the setup is locked; when both are ready, Red moves."""
        self._check_setup_open(color)
        if not self.is_setup_complete(color):
            raise SetupError("incomplete", "place all your pieces before you are ready")
        self.ready[color] = True
        if all(self.ready):
            self._start()

    def _start(self) -> None:
        for color in COLORS:
            for square, rank in sorted(self.setups[color].items()):
                unit = Unit(len(self.units), color, rank, square)
                self.units.append(unit)
                self.army[color].append(unit)
                self.board[square] = unit
                self.hash ^= self._zobrist[color][rank][square]
        self.phase = PLAYING
        self._settle_outcome()

    @classmethod
    def from_setups(
        cls, variant: Variant | str, red: Mapping[int, int], blue: Mapping[int, int]
    ) -> Game:
        game = cls(variant)
        game.set_setup(RED, red)
        game.set_setup(BLUE, blue)
        game.mark_ready(RED)
        game.mark_ready(BLUE)
        return game

    @classmethod
    def from_position(
        cls, variant: Variant | str, pieces: Mapping[int, tuple[int, int]], turn: int = RED
    ) -> Game:
        """A game in play from any position {square: (color, rank)}, armies not checked:
        for tests, puzzles and analysis, like a FEN in chess."""
        game = cls(variant)
        for square, (color, rank) in sorted(pieces.items()):
            game.setups[color][square] = rank
        game.ready = [True, True]
        game.turn = turn
        game._start()
        return game

    # ----------------------------------------------------------------- moves
    def generate_legal_moves(self) -> Iterator[Move]:
        """Every legal move of the side to move (scouts' long moves included)."""
        if self.phase != PLAYING:
            return
        yield from self._generate(self.turn, check_stalling=True)

    def legal_moves(self) -> list[Move]:
        """`generate_legal_moves` as a list: the same moves in the same order, built from the
        variant's Move tables (a search asks for them at every inner node). Where a return
        rule or a chase may refuse quiet moves, the generator decides."""
        if self.phase != PLAYING:
            return []
        color, v = self.turn, self.variant
        if v.return_after_moves or (v.more_squares_rule and self.chases[color] is not None):
            return list(self._generate(color, check_stalling=True))
        limit = v.two_squares_limit
        run = self.runs[color] if limit else None
        # only the piece of a run at its limit may have moves the two-squares rule refuses
        busy = run.unit if run is not None and limit is not None and run.count >= limit else -1
        board, width = self.board, v.width
        step_moves, ray_moves = self._step_moves, self._ray_moves
        found: list[Move] = []
        append = found.append
        for unit in self.army[color]:
            rank = unit.rank
            if rank in IMMOVABLE:
                continue
            src, uid = unit.square, unit.id
            if rank == SCOUT:
                for ray in ray_moves[src]:
                    for dst, move in ray:
                        target = board[dst]
                        if target is not None and target.color == color:
                            break
                        if uid != busy or not run.continued_by(uid, src, dst, width):  # type: ignore[union-attr]
                            append(move)
                        if target is not None:
                            break
            else:
                for dst, move in step_moves[src]:
                    target = board[dst]
                    if (target is None or target.color != color) and (
                        uid != busy or not run.continued_by(uid, src, dst, width)  # type: ignore[union-attr]
                    ):
                        append(move)
        return found

    def legal_attacks(self) -> list[Move]:
        """The legal moves of the side to move that attack a piece, in `legal_moves`'s order,
        without generating its quiet moves (a search's quiescence asks at every leaf). An
        attack can be refused only by the two-squares rule (the piece of a run at its limit)
        or the return rule; then `_stalling_refusal` decides."""
        if self.phase != PLAYING:
            return []
        color, v = self.turn, self.variant
        board, ray_moves, step_moves = self.board, self._ray_moves, self._step_moves
        limit = v.two_squares_limit
        run = self.runs[color] if limit else None
        busy = run.unit if run is not None and limit is not None and run.count >= limit else -1
        returns = bool(v.return_after_moves)
        # the squares of the enemy's pieces, as bits: most pieces have none in reach
        bits = v.square_bits
        enemy = sum([bits[unit.square] for unit in self.army[1 - color]])
        step_bits, ray_bits = v.step_bits, v.ray_bits
        found: list[Move] = []
        for unit in self.army[color]:
            rank = unit.rank
            if rank in IMMOVABLE:
                continue
            src = unit.square
            if not ((ray_bits if rank == SCOUT else step_bits)[src] & enemy):
                continue
            check = returns or unit.id == busy
            if rank == SCOUT:
                for ray in ray_moves[src]:
                    for dst, move in ray:
                        target = board[dst]
                        if target is None:
                            continue
                        if target.color != color and not (
                            check and self._stalling_refusal(unit, src, dst, True) is not None
                        ):
                            found.append(move)
                        break
            else:
                for dst, move in step_moves[src]:
                    target = board[dst]
                    if (
                        target is not None
                        and target.color != color
                        and not (check and self._stalling_refusal(unit, src, dst, True) is not None)
                    ):
                        found.append(move)
        return found

    def has_legal_move(self) -> bool:
        """Whether the side to move has a legal move. Asked after every move (a search's
        every node), so a plain step that no anti-stalling rule can touch answers first."""
        if self.phase != PLAYING:
            return False
        color, v = self.turn, self.variant
        if not (v.more_squares_rule and self.chases[color] is not None):
            limit = v.two_squares_limit
            run = self.runs[color] if limit else None
            busy = (
                run.unit if run is not None and limit is not None and run.count >= limit else None
            )
            returns, board, steps = bool(v.return_after_moves), self.board, v.first_steps
            # the piece that had a move last time is asked first: it usually still has one
            hint = self._mobile[color]
            if hint is not None and hint.square >= 0 and hint.id != busy:
                for dst in steps[hint.square]:
                    target = board[dst]
                    if (target is None or target.color != color) and not (
                        returns and dst in hint.recent
                    ):
                        return True
            for unit in self.army[color]:
                if unit.rank in IMMOVABLE or unit.id == busy:
                    continue
                for dst in steps[unit.square]:
                    target = board[dst]
                    if (target is None or target.color != color) and not (
                        returns and dst in unit.recent
                    ):
                        self._mobile[color] = unit
                        return True
        return next(self.generate_legal_moves(), None) is not None

    def can_move(self, color: int) -> bool:
        """Whether `color` has a move on the board, the anti-stalling rules aside: a side
        that has none loses at its turn, whatever the other side plays before it."""
        return next(self._generate(color, check_stalling=False), None) is not None

    def is_legal(self, move: Move) -> bool:
        try:
            self.check_move(move)
        except IllegalMoveError:
            return False
        return True

    def _generate(self, color: int, check_stalling: bool) -> Iterator[Move]:
        board, rays, v = self.board, self.variant.rays, self.variant
        # The anti-stalling rules can only refuse a few moves; find them cheaply first.
        limit = v.two_squares_limit if check_stalling else None
        run = self.runs[color] if limit else None
        if run is not None and limit is not None and run.count < limit:
            run = None
        returns = check_stalling and bool(v.return_after_moves)
        chase = self.chases[color] if check_stalling and v.more_squares_rule else None
        targets = self._chase_targets(chase) if chase is not None else frozenset()
        for unit in self.army[color]:
            rank = unit.rank
            if rank in IMMOVABLE:
                continue
            src = unit.square
            for ray in rays[src]:
                for dst in ray:
                    target = board[dst]
                    if target is not None and target.color == color:
                        break
                    if not (
                        (
                            run is not None
                            and unit.id == run.unit
                            and run.continued_by(unit.id, src, dst, v.width)
                        )
                        or (returns and dst in unit.recent)
                        or (
                            target is None
                            and dst in targets
                            and self._stalling_refusal(unit, src, dst, False) is not None
                        )
                    ):
                        yield Move(src, dst)
                    if target is not None or rank != SCOUT:
                        break

    def check_move(self, move: Move, color: int | None = None) -> None:
        """Raise IllegalMoveError with a reason a player understands, or return None."""
        if self.phase == SETUP:
            raise IllegalMoveError(
                "not_playing", "the game has not started: both players must be ready"
            )
        if self.phase == FINISHED:
            raise IllegalMoveError("game_over", "the game is over")
        if color is not None and color != self.turn:
            raise IllegalMoveError("not_your_turn", "it is not your turn")
        v = self.variant
        if not (isinstance(move.src, int) and isinstance(move.dst, int)) or not (
            v.is_on_board(move.src) and v.is_on_board(move.dst)
        ):
            raise IllegalMoveError("off_board", "that square is off the board")
        unit = self.board[move.src]
        if unit is None:
            raise IllegalMoveError("empty_square", "there is no piece on that square")
        if unit.color != self.turn:
            raise IllegalMoveError("not_your_piece", "that is not your piece")
        if unit.rank in IMMOVABLE:
            raise IllegalMoveError("immovable", f"a {RANK_NAMES[unit.rank]} never moves")
        if move.dst == move.src:
            raise IllegalMoveError("same_square", "a piece must move to another square")
        if move.dst in v.lakes:
            raise IllegalMoveError("lake", "no piece may enter a lake")
        target = self.board[move.dst]
        if target is not None and target.color == unit.color:
            raise IllegalMoveError("own_piece", "that square holds one of your own pieces")
        self._check_path(unit, move)
        refusal = self._stalling_refusal(unit, move.src, move.dst, target is not None)
        if refusal is not None:
            raise IllegalMoveError(*refusal)

    def _check_path(self, unit: Unit, move: Move) -> None:
        width = self.variant.width
        (r1, c1), (r2, c2) = divmod(move.src, width), divmod(move.dst, width)
        if r1 != r2 and c1 != c2:
            raise IllegalMoveError(
                "not_straight", "pieces move in a straight line, never diagonally"
            )
        distance = abs(r1 - r2) + abs(c1 - c2)
        if distance == 1:
            return
        if unit.rank != SCOUT:
            raise IllegalMoveError(
                "too_far", f"a {RANK_NAMES[unit.rank]} moves one square at a time"
            )
        step = (1 if r2 > r1 else -1) * width if r1 != r2 else (1 if c2 > c1 else -1)
        for square in range(move.src + step, move.dst, step):
            if square in self.variant.lakes:
                raise IllegalMoveError("path_blocked", "a scout cannot cross a lake")
            if self.board[square] is not None:
                raise IllegalMoveError("path_blocked", "a scout cannot jump over pieces")

    def _stalling_refusal(self, unit: Unit, src: int, dst: int, is_attack: bool) -> Refusal | None:
        """The anti-stalling rule this move would break, as (code, reason), or None."""
        v = self.variant
        refusal = two_squares_refusal(
            self.runs[unit.color], v.two_squares_limit, unit.id, src, dst, v.width
        ) or return_refusal(v.return_after_moves, unit.recent, dst)
        chase = self.chases[unit.color]
        if refusal is None and chase is not None and not is_attack and v.more_squares_rule:
            own_last = self.last_by[unit.color]
            refusal = more_squares_refusal(
                chase,
                self._chase_step(chase, unit, src, dst),
                src,
                dst,
                (own_last.move.src, own_last.move.dst) if own_last else None,
            )
        return refusal

    def _chase_targets(self, chase: Chase) -> frozenset[int]:
        return chase_targets((self.units[i].square for i in chase.evaders), self.variant.neighbors)

    def _chase_step(self, chase: Chase, unit: Unit, src: int, dst: int) -> ChaseStep:
        """What the quiet move src-dst of `unit` does to its side's chase."""
        table = self._zobrist[unit.color][unit.rank]
        return ChaseStep(dst in self._chase_targets(chase), self.hash ^ table[src] ^ table[dst])

    def _threat_against(self, color: int) -> tuple[int, bool] | None:
        """The opponent's directly preceding move, as (destination, was a battle)."""
        last = self.last_by[opponent(color)]
        if last is None or last.ply != self.ply:
            return None
        return (last.move.dst, last.battle is not None)

    def push(self, move: Move, color: int | None = None) -> MoveResult:
        """Check and play `move`; returns what happened, battle included."""
        self.check_move(move, color)
        return self.push_generated(move)

    def pop(self) -> MoveResult:
        """Take back the last move pushed on this object (a search's move/unmove cycle): the
        game is exactly as before that push. IndexError when there is none (moves before a
        `from_dict` cannot be taken back)."""
        (
            mover,
            mover_state,
            target,
            target_state,
            captured_lengths,
            last_by,
            hash_after,
            run,
            chases,
            self.hash,
            self.quiet_plies,
            self.outcome,
            self.phase,
        ) = self._undo.pop()
        result = self.history.pop()
        color, board = result.color, self.board
        if mover.square >= 0:
            board[mover.square] = None
        else:
            self.army[color].insert(mover_state[1], mover)
        mover.square, _, mover.revealed, mover.moved, mover.scout_known, mover.recent = mover_state
        if target is not None:
            assert target_state is not None and captured_lengths is not None
            if target.square >= 0:
                board[target.square] = None
            else:
                self.army[target.color].insert(target_state[1], target)
            (
                target.square,
                _,
                target.revealed,
                target.moved,
                target.scout_known,
                target.recent,
            ) = target_state
            board[target.square] = target
            for side in COLORS:
                del self.captured[side][captured_lengths[side] :]
        board[mover.square] = mover
        self.last_by[color], self.hash_after[color], self.runs[color] = last_by, hash_after, run
        self.chases[0], self.chases[1] = chases
        self.ply -= 1
        self.turn = color
        return result

    def push_generated(self, move: Move) -> MoveResult:
        """`push` without `check_move`, for a move this game's own generator gave in this
        position (`legal_moves`, `legal_attacks`): a search's make, checked once already."""
        src, dst = move
        board, v = self.board, self.variant
        unit = board[src]
        assert unit is not None
        color, rank, uid = unit.color, unit.rank, unit.id
        target = board[dst]
        width = v.width
        # What the move will change, for `pop`: an `Undo`'s fields as a plain tuple (making
        # a NamedTuple at every node of a search costs more; `pop` only unpacks it). `rest`
        # is what every move may change, with or without a battle.
        rest = (
            self.last_by[color],
            self.hash_after[color],
            self.runs[color],
            (self.chases[0], self.chases[1]),
            self.hash,
            self.quiet_plies,
            self.outcome,
            self.phase,
        )
        if target is None:
            mover_state = (src, -1, unit.revealed, unit.moved, unit.scout_known, unit.recent)
            self._undo.append((unit, mover_state, None, None, None) + rest)  # type: ignore[arg-type]
            battle = None
        else:
            battle = self._battles[rank][target.rank]
            assert battle is not None
            result = battle.result
            # the army places of the pieces the battle removes (`pop` puts them back there)
            army = self.army
            own_at = army[color].index(unit) if result != ATTACKER else -1
            their_at = army[target.color].index(target) if result != DEFENDER else -1
            mover_state = (src, own_at, unit.revealed, unit.moved, unit.scout_known, unit.recent)
            target_state = (
                dst,
                their_at,
                target.revealed,
                target.moved,
                target.scout_known,
                target.recent,
            )
            captured = (len(self.captured[0]), len(self.captured[1]))
            self._undo.append((unit, mover_state, target, target_state, captured) + rest)  # type: ignore[arg-type]
        # Before the move: what it does to its own side's chase, and whether it evades the
        # opponent's threat. A battle ends both chases: no position from before it can recur.
        chase_step, evades = None, False
        if v.more_squares_rule and target is None:
            chase = self.chases[color]
            if chase is not None:
                chase_step = self._chase_step(chase, unit, src, dst)
            last = self.last_by[1 - color]  # `_threat_against`, when it is no battle
            if last is not None and last.ply == self.ply and last.battle is None:
                evades = is_evasion((last.move.dst, False), src, v.neighbors)
        runs = self.runs
        run = runs[color]
        if run is not None and run.unit == uid and run.dst == src:
            runs[color] = run.then(uid, src, dst, width)
        elif src < dst:  # `Run.start`
            runs[color] = _new_tuple(Run, (uid, src, dst, 1, src, dst))
        else:
            runs[color] = _new_tuple(Run, (uid, src, dst, 1, dst, src))
        if v.return_after_moves:
            unit.recent = ((src,) + unit.recent)[: v.return_after_moves - 1]
        unit.moved = True
        step = src - dst
        if step != 1 and step != -1 and step != width and step != -width:
            unit.scout_known = True
        board[src] = None
        keys = self._zobrist[color][rank]
        if target is None:
            unit.square = dst
            board[dst] = unit
            self.hash ^= keys[src] ^ keys[dst]
        else:
            self.hash ^= keys[src]
            unit.revealed = target.revealed = True
            if result != DEFENDER:  # the target is taken
                their = target.color
                board[dst] = None
                self.hash ^= self._zobrist[their][target.rank][dst]
                target.square = -1
                del army[their][their_at]
                self.captured[their].append(target.rank)
            if result == ATTACKER:
                unit.square = dst
                board[dst] = unit
                self.hash ^= keys[dst]
            else:  # the mover is taken (it left the board already)
                unit.square = -1
                del army[color][own_at]
                self.captured[color].append(rank)
        if v.more_squares_rule:
            if chase_step is None and not evades:
                self.chases[0] = self.chases[1] = None
            else:
                self._track_chases(unit, chase_step, evades)
        self.ply += 1
        self.quiet_plies = 0 if battle else self.quiet_plies + 1
        moved = new_move_result(self.ply, color, move, rank, battle)
        self.history.append(moved)
        self.last_by[color] = moved
        self.hash_after[color] = self.hash
        self.turn = 1 - color
        if battle is not None and battle.defender == FLAG:
            self.end(Outcome(color, Termination.FLAG_CAPTURED))
        elif (
            (v.max_plies is not None and self.ply >= v.max_plies)
            or (v.max_quiet_plies is not None and self.quiet_plies >= v.max_quiet_plies)
            or not self.has_legal_move()
        ):
            self._settle_outcome()  # the conditions it checks: it decides which one ends it
        return moved

    def _track_chases(self, unit: Unit, step: ChaseStep | None, evades: bool) -> None:
        color, other = unit.color, opponent(unit.color)
        chase = self.chases[color]
        self.chases[color] = (
            chase.reached(step.position) if chase is not None and step and step.chasing else None
        )
        if not evades:
            self.chases[other] = None
            return
        # The chase began with the threat this move evades: its positions start after it.
        threat = self.hash_after[other]  # (the threat's move recorded it)
        started = self.chases[other] or Chase(frozenset(), frozenset({threat}))  # type: ignore[arg-type]
        self.chases[other] = started.evaded_by(unit.id)

    # ----------------------------------------------------------------- outcomes
    def _settle_outcome(self) -> None:
        v = self.variant
        if v.max_plies is not None and self.ply >= v.max_plies:
            self.end(Outcome(None, Termination.MOVE_CAP))
        elif v.max_quiet_plies is not None and self.quiet_plies >= v.max_quiet_plies:
            self.end(Outcome(None, Termination.MOVE_CAP))
        elif not self.has_legal_move():
            other = opponent(self.turn)
            if not self.can_move(other):
                self.end(Outcome(None, Termination.NO_MOVES_BOTH))
            else:
                self.end(Outcome(other, Termination.NO_MOVES))

    def end(self, outcome: Outcome) -> None:
        """End the game: by the rules, or as the server decides (resignation, time, forfeit...).

        A finished game keeps its outcome: ending it again raises IllegalMoveError
        ("game_over"), so nothing can take a decided game away from its winner."""
        if self.phase == FINISHED:
            raise IllegalMoveError("game_over", "the game is over; its result stands")
        self.outcome = outcome
        self.phase = FINISHED

    def resign(self, color: int) -> None:
        self.end(Outcome(opponent(color), Termination.RESIGNATION))

    @property
    def is_over(self) -> bool:
        return self.phase == FINISHED

    # ----------------------------------------------------------------- views and persistence
    def view(self, viewer: int) -> View:
        """What `viewer` (RED, BLUE or OBSERVER) may know: the security boundary."""
        if viewer not in (*COLORS, OBSERVER):
            raise ValueError(f"unknown viewer {viewer!r}")
        v, over = self.variant, self.phase == FINISHED
        last = self.last_move
        if last is not None and not (over or last.battle or last.color == viewer):
            last = dataclasses.replace(last, rank=None)  # the mover's rank stays hidden
        legal: tuple[tuple[int, int], ...] = ()
        if self.phase == PLAYING and viewer == self.turn:
            legal = tuple((m.src, m.dst) for m in self.generate_legal_moves())
        return View(
            variant=v.name,
            width=v.width,
            height=v.height,
            lakes=tuple(sorted(v.lakes)),
            viewer=viewer,
            phase=self.phase,
            turn=self.turn,
            ply=self.ply,
            ready=(self.ready[0], self.ready[1]),
            board=self._board_seen_by(viewer),
            remaining=self.remaining(viewer) if viewer in COLORS else None,
            captured=(tuple(self.captured[0]), tuple(self.captured[1])),
            last_move=last,
            legal_moves=legal,
            outcome=self.outcome,
            rules=v.rule_settings(),
            army=v.army,
            placed=self.placed_counts(),
        )

    def _board_seen_by(self, viewer: int) -> tuple[PieceView | None, ...]:
        over = self.phase == FINISHED
        board: list[PieceView | None] = [None] * self.variant.size
        if self.units:
            for unit in self.army[0] + self.army[1]:
                known = over or unit.color == viewer or unit.revealed
                board[unit.square] = PieceView(
                    unit.color,
                    unit.rank if known else None,
                    unit.moved,
                    unit.revealed,
                    unit.scout_known,
                )
        else:  # setup: a viewer sees its own pieces only; where the others stand is private
            # (even once a game that never began is over): only their count is public.
            for square, rank in self.setups[viewer].items() if viewer in COLORS else ():
                board[square] = PieceView(viewer, rank)
        return tuple(board)

    def placed_counts(self) -> tuple[int, int]:
        """How many pieces each side has on the board: in setup, the only public fact about it."""
        if self.units:
            return len(self.army[0]), len(self.army[1])
        return len(self.setups[0]), len(self.setups[1])

    def initial_setups(self) -> tuple[dict[int, int], dict[int, int]]:
        """Each side's setup {square: rank}, as copies: changing them changes no game."""
        return (dict(self.setups[0]), dict(self.setups[1]))

    def to_dict(self) -> dict:
        """JSON-safe state; "rules" holds the variant's rule overrides, only when it has any."""
        data = {
            "variant": self.variant.name,
            "phase": self.phase.value,
            "ready": list(self.ready),
            "setups": [{str(sq): rank for sq, rank in s.items()} for s in self.setups],
            "units": [u.to_list() for u in self.units],
            "turn": self.turn,
            "ply": self.ply,
            "quiet_plies": self.quiet_plies,
            "captured": [list(c) for c in self.captured],
            "last_by": [m.to_dict() if m else None for m in self.last_by],
            "outcome": self.outcome.to_dict() if self.outcome else None,
            "runs": [r.to_list() if r else None for r in self.runs],
            "chases": [c.to_dict() if c else None for c in self.chases],
            "hash_after": list(self.hash_after),
        }
        overrides = self.variant.rule_overrides()
        if overrides:
            data["rules"] = overrides
        return data

    @classmethod
    def from_dict(cls, data: Mapping) -> Game:
        game = cls(get_variant(data["variant"]).with_rules(**(data.get("rules") or {})))
        game.phase = Phase(data["phase"])
        game.ready = list(data["ready"])
        for color in COLORS:
            game.setups[color].update({int(sq): rank for sq, rank in data["setups"][color].items()})
        for row in data["units"]:
            unit = Unit.from_list(row)
            game.units.append(unit)
            if unit.square >= 0:
                game.army[unit.color].append(unit)
                game.board[unit.square] = unit
                game.hash ^= game._zobrist[unit.color][unit.rank][unit.square]
        game.turn, game.ply, game.quiet_plies = data["turn"], data["ply"], data["quiet_plies"]
        game.captured = (list(data["captured"][0]), list(data["captured"][1]))
        game.last_by = [MoveResult.from_dict(m) if m else None for m in data["last_by"]]
        game.outcome = Outcome.from_dict(data["outcome"]) if data["outcome"] else None
        game.runs = [Run.from_list(r) if r else None for r in data["runs"]]
        game.chases = [Chase.from_saved(c) if c else None for c in data["chases"]]
        game.hash_after = list(data["hash_after"])
        return game

    @property
    def last_move(self) -> MoveResult | None:
        moves = [m for m in self.last_by if m is not None]
        return max(moves, key=lambda m: m.ply) if moves else None


__all__ = [
    "Game",
    "Outcome",
    "MoveResult",
    "Unit",
    "View",
    "SETUP",
    "PLAYING",
    "FINISHED",
    "TERMINATIONS",
    "OBSERVER",
    "ATTACKER",
    "DEFENDER",
    "BOTH",
]
