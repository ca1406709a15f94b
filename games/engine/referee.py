"""The referee: Duel's GameManager, for every variant.

It runs two `Player`s through a `Game`, gives each only what its side may know (its own
setup and the 0/1 grid of the opponent's occupied setup squares, its own `View` on its
turn, the opponent's public move record, the ranks a battle revealed) and forfeits a player
for any irregularity while the game is still going: an illegal setup, an illegal or
malformed move, or an exception (SystemExit included) raised from any of its methods. The
opponent then wins with termination "forfeit". Once the game is over its result stands: an
exception from a later notification (the last tell_move or fight, finish) changes nothing.

    result = Referee("classic", RandomPlayer(1), RandomPlayer(2)).play()
    result.outcome, result.plies, result.forfeit, result.think_times
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .errors import EngineError, IllegalMoveError
from .game import Game
from .notation import Move
from .pieces import BLUE, COLOR_NAMES, COLORS, RED, opponent
from .player_interface import Fight, Player, duel_move, opponent_setup_grid
from .results import MoveResult, Outcome, Termination
from .variants import Variant, get_variant


@dataclass(frozen=True)
class Forfeit:
    """Why a player lost by forfeit: `kind` is "setup", "move" or "exception"."""

    color: int
    kind: str
    reason: str


@dataclass
class MatchResult:
    variant: str
    outcome: Outcome
    plies: int
    forfeit: Forfeit | None = None
    think_times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    game: Game | None = None  # the finished game, for replay and analysis

    @property
    def winner(self) -> int | None:
        return self.outcome.winner


class PlayerFault(Exception):
    """A player broke the rules of the match; the referee turns it into a forfeit."""

    def __init__(self, color: int, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.forfeit = Forfeit(color, kind, reason)


class Referee:
    """Runs one game between `red` and `blue`. `on_move(game, result)` is an optional hook
    for progress display or recording; it sees the whole game and is never a player."""

    def __init__(
        self,
        variant: Variant | str,
        red: Player,
        blue: Player,
        on_move: Callable[[Game, MoveResult], None] | None = None,
        end_when_stuck: bool = False,
    ) -> None:
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self.players = (red, blue)
        self.on_move = on_move
        # End the game as soon as the side that is not to move has no move left: it would
        # lose at its turn whatever comes first. The 2012 contest's manager ends games so,
        # and a program written for it (DoI) falls silent, waiting for the end, rather than
        # move once more in a game it sees as won.
        self.end_when_stuck = end_when_stuck
        self.game = Game(self.variant)
        self.think_times: tuple[list[float], list[float]] = ([], [])

    def play(self) -> MatchResult:
        """Play the game to its end; players own their randomness."""
        try:
            self._start_players()
            self._setups()
            while not self.game.is_over:
                self._ply()
            forfeit = None
        except PlayerFault as fault:  # only raised while the game is still going
            forfeit = fault.forfeit
            self.game.end(Outcome(opponent(forfeit.color), Termination.FORFEIT))
        self._finish()
        assert self.game.outcome is not None
        return MatchResult(
            self.variant.name,
            self.game.outcome,
            self.game.ply,
            forfeit,
            self.think_times,
            self.game,
        )

    # ------------------------------------------------------------------ phases
    def _call(self, color: int, what: str, call: Callable[[], object]) -> object:
        """Call a player. A crash of a program forfeits its game (as in Duel) while the game is
        going; after the end (the notifications of the deciding move) it changes nothing.
        SystemExit is a crash like any other; KeyboardInterrupt stops the referee itself."""
        try:
            return call()
        except (Exception, SystemExit) as error:
            if self.game.is_over:
                return None
            raise PlayerFault(
                color, "exception", f"{what} raised {type(error).__name__}: {error}"
            ) from error

    def _start_players(self) -> None:
        for color in COLORS:
            player = self.players[color]
            self._call(color, "start", functools.partial(player.start, color, self.variant))

    def _setups(self) -> None:
        for color in COLORS:
            setup = self._call(color, "setup", self.players[color].setup)
            try:
                self.game.set_setup(color, dict(setup))  # type: ignore[call-overload]
            except (EngineError, TypeError, ValueError) as error:
                raise PlayerFault(color, "setup", f"illegal setup: {error}") from error
        for color in COLORS:
            occupied = set(self.game.initial_setups()[opponent(color)])
            grid = opponent_setup_grid(self.variant, color, occupied)
            self._call(
                color, "view_positions", functools.partial(self.players[color].view_positions, grid)
            )
        self.game.mark_ready(RED)
        self.game.mark_ready(BLUE)

    def _ply(self) -> None:
        color = self.game.turn
        if self.end_when_stuck and not self.game.can_move(opponent(color)):
            self.game.end(Outcome(color, Termination.NO_MOVES))
            return
        view = self.game.view(color)
        started = time.perf_counter()
        answer = self._call(color, "move", lambda: self.players[color].move(view))
        self.think_times[color].append(time.perf_counter() - started)
        move = self._as_move(color, answer)
        try:
            result = self.game.push(move, color)
        except IllegalMoveError as error:
            raise PlayerFault(
                color, "move", f"illegal move {list(move.as_pair())}: {error.message}"
            ) from error
        if self.on_move is not None:
            self.on_move(self.game, result)
        self._tell(result)

    def _as_move(self, color: int, answer: object) -> Move:
        if isinstance(answer, Move):
            return answer
        try:
            return duel_move(self.variant, color, answer)  # type: ignore[arg-type]
        except (TypeError, ValueError) as error:
            raise PlayerFault(color, "move", f"malformed move {answer!r}: {error}") from error

    def _tell(self, result: MoveResult) -> None:
        other = opponent(result.color)
        public = result.to_public_dict(self.variant)
        self._call(other, "tell_move", lambda: self.players[other].tell_move(result.move, public))
        if result.battle is None:
            return
        battle = result.battle
        fight = Fight(
            result.color,
            result.move.src,
            result.move.dst,
            battle.attacker,
            battle.defender,
            battle.result,
        )
        for color in (result.color, other):
            self._call(color, "fight", functools.partial(self.players[color].fight, fight))

    def _finish(self) -> None:
        assert self.game.outcome is not None
        for color, player in enumerate(self.players):
            self._call(color, "finish", functools.partial(player.finish, self.game.outcome))


def play_match(variant: Variant | str, red: Player, blue: Player) -> MatchResult:
    """One game between two players; see `Referee`."""
    return Referee(variant, red, blue).play()


def describe(result: MatchResult) -> str:
    """One line: who won and how, for logs."""
    outcome = result.outcome
    who = "draw" if outcome.winner is None else f"{COLOR_NAMES[outcome.winner]} wins"
    extra = (
        f" ({COLOR_NAMES[result.forfeit.color]}: {result.forfeit.reason})" if result.forfeit else ""
    )
    return f"{who} by {outcome.termination} after {result.plies} plies{extra}"


__all__ = ["Forfeit", "MatchResult", "PlayerFault", "Referee", "describe", "play_match"]
