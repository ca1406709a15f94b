"""The Player interface and the referee (Duel's GameManager)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence

import pytest

from games.engine import (
    BLUE,
    BOMB,
    FLAG,
    GENERAL,
    MARSHAL,
    MINER,
    RED,
    SCOUT,
    SPY,
    Game,
    Move,
    Outcome,
    PieceView,
    View,
    get_variant,
)
from games.engine.player_interface import (
    DUEL_PIECE_NAMES,
    DuelPlayer,
    Fight,
    Player,
    RandomPlayer,
    duel_move,
)
from games.engine.referee import MatchResult, Referee

DUEL = get_variant("duel")

# Duel's example setup, in its (row, col) coordinates.
DUEL_RED = {
    (0, 7): MINER,
    (0, 8): BOMB,
    (0, 9): FLAG,
    (1, 7): SCOUT,
    (1, 8): SPY,
    (1, 9): BOMB,
    (2, 7): MARSHAL,
    (2, 8): GENERAL,
    (2, 9): MINER,
    (3, 9): SCOUT,
}
DUEL_BLUE = {
    (6, 0): SCOUT,
    (7, 0): MINER,
    (7, 1): GENERAL,
    (7, 2): MARSHAL,
    (8, 0): BOMB,
    (8, 1): SPY,
    (8, 2): SCOUT,
    (9, 0): FLAG,
    (9, 1): BOMB,
    (9, 2): MINER,
}


def sq(row: int, col: int) -> int:
    return row * 10 + col


class ScriptedPlayer(Player):
    """Sets up from a dict (through `position`, as Duel does) and plays a fixed script."""

    def __init__(self, setup: Mapping[tuple[int, int], int], script: Sequence[object]) -> None:
        super().__init__()
        self.free = {
            rank: [sq(r, c) for (r, c), k in setup.items() if k == rank]
            for rank in set(setup.values())
        }
        self.script = list(script)
        self.fights: list[Fight] = []
        self.told: list[tuple[Move, dict]] = []
        self.grid: list[list[int]] = []

    def position(self, rank: int) -> int:
        return self.free[rank].pop(0)

    def view_positions(self, grid: list[list[int]]) -> None:
        self.grid = grid

    def move(self, view: View) -> object:
        return self.script.pop(0)

    def tell_move(self, move: Move, public: Mapping) -> None:
        self.told.append((move, dict(public)))

    def fight(self, fight: Fight) -> None:
        self.fights.append(fight)


def stop_after(plies: int):
    def hook(game: Game, _result: object) -> None:
        if game.ply >= plies and not game.is_over:
            game.end(Outcome(None, "agreed_draw"))

    return hook


def duel_players(
    red_script: Sequence[object], blue_script: Sequence[object]
) -> tuple[ScriptedPlayer, ScriptedPlayer]:
    return ScriptedPlayer(DUEL_RED, red_script), ScriptedPlayer(DUEL_BLUE, blue_script)


# ----------------------------------------------------------------------- Duel examples
def test_duel_moves_convert_to_squares() -> None:
    assert duel_move(DUEL, RED, (2, 8, 1, 1)) == Move(sq(2, 8), sq(3, 8))
    assert duel_move(DUEL, BLUE, (6, 0, 1, 5)) == Move(sq(6, 0), sq(1, 0))
    assert duel_move(DUEL, RED, (1, 7, 4, 7)) == Move(sq(1, 7), sq(1, 0))
    with pytest.raises(ValueError):
        duel_move(DUEL, RED, (1, 7, 3, 7))  # Red's left from column 7: off the board


def test_view_positions_are_the_opponents_occupied_squares() -> None:
    red, blue = duel_players([(2, 8, 1, 1)], [])
    Referee(DUEL, red, blue, on_move=stop_after(1)).play()
    assert red.grid == [
        [1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [1, 1, 1] + [0] * 7,
        [1, 1, 1] + [0] * 7,
        [1, 1, 1] + [0] * 7,
    ]
    assert blue.grid == [[0] * 7 + [1, 1, 1]] * 3 + [[0] * 9 + [1]]


def test_duel_worked_examples_general_scout_and_scout_fight() -> None:
    red, blue = duel_players([(2, 8, 1, 1), (1, 7, 4, 7)], [(6, 0, 1, 5)])
    seen: list[Game] = []
    states: list[list] = []

    def record(game: Game, _result: object) -> None:
        seen.append(game)
        states.append([(u.color, u.rank) if u else None for u in game.board])
        stop_after(3)(game, _result)

    result = Referee(DUEL, red, blue, on_move=record).play()
    after_red, after_blue, after_fight = states
    assert after_red[sq(3, 8)] == (RED, GENERAL) and after_red[sq(2, 8)] is None
    assert after_blue[sq(1, 0)] == (BLUE, SCOUT) and after_blue[sq(6, 0)] is None
    assert (
        after_fight[sq(1, 0)] is None and after_fight[sq(1, 7)] is None
    )  # equal ranks: both removed
    expected = Fight(RED, sq(1, 7), sq(1, 0), SCOUT, SCOUT, "both")
    assert red.fights == [expected] and blue.fights == [expected]
    assert blue.told[0][0] == Move(sq(2, 8), sq(3, 8)) and blue.told[0][1]["battle"] is None
    assert red.told[0][0] == Move(sq(6, 0), sq(1, 0))
    assert result.forfeit is None and result.plies == 3


# ----------------------------------------------------------------------- forfeits
class IllegalPlayer(RandomPlayer):
    def move(self, view: View) -> Move:
        own = next(
            i for i, p in enumerate(view.board) if p and p.color == self.color and p.rank == FLAG
        )
        return Move(own, own + (10 if self.color == RED else -10))  # a flag never moves


class RaisingPlayer(RandomPlayer):
    def move(self, view: View) -> Move:
        raise RuntimeError("bug in the bot")


class BadSetupPlayer(RandomPlayer):
    def setup(self) -> dict[int, int]:
        setup = super().setup()
        setup.pop(next(iter(setup)))
        return setup


@pytest.mark.parametrize("variant", ["classic", "duel"])
def test_an_illegal_move_forfeits(variant: str) -> None:
    result = Referee(variant, IllegalPlayer(1), RandomPlayer(2)).play()
    assert result.outcome == Outcome(BLUE, "forfeit")
    assert (
        result.forfeit is not None and result.forfeit.color == RED and result.forfeit.kind == "move"
    )
    assert "never moves" in result.forfeit.reason and result.plies == 0


def test_a_raising_player_forfeits() -> None:
    result = Referee("classic", RandomPlayer(1), RaisingPlayer(2)).play()
    assert result.outcome == Outcome(RED, "forfeit") and result.plies == 1
    assert result.forfeit is not None and result.forfeit.kind == "exception"
    assert "bug in the bot" in result.forfeit.reason


class RaisesIn(RandomPlayer):
    """Raises from one named method, plays randomly otherwise."""

    def __init__(self, seed: int, method: str) -> None:
        super().__init__(seed)
        self.method = method

    def __getattribute__(self, name: str):  # type: ignore[no-untyped-def]
        if name == object.__getattribute__(self, "method"):

            def fail(*args: object) -> None:
                raise ValueError(f"{name} is broken")

            return fail
        return object.__getattribute__(self, name)


@pytest.mark.parametrize("method", ["start", "setup", "view_positions", "tell_move", "fight"])
def test_raising_in_any_method_forfeits(method: str) -> None:
    result = Referee("barrage", RandomPlayer(1), RaisesIn(2, method)).play()
    assert result.outcome == Outcome(RED, "forfeit")
    assert result.forfeit is not None and result.forfeit.color == BLUE
    assert result.forfeit.kind == "exception" and f"{method} is broken" in result.forfeit.reason


def test_raising_in_finish_changes_nothing() -> None:
    result = Referee("barrage", RandomPlayer(1), RaisesIn(2, "finish")).play()
    assert result.forfeit is None and result.outcome.termination != "forfeit"


def test_an_illegal_setup_forfeits() -> None:
    result = Referee("barrage", BadSetupPlayer(1), RandomPlayer(2)).play()
    assert result.outcome == Outcome(BLUE, "forfeit")
    assert result.forfeit is not None and result.forfeit.kind == "setup" and result.plies == 0


def test_a_malformed_move_forfeits() -> None:
    red, blue = duel_players([(2, 8, 5, 1)], [])
    result = Referee(DUEL, red, blue).play()
    assert result.outcome == Outcome(BLUE, "forfeit") and result.forfeit.kind == "move"  # type: ignore[union-attr]


@pytest.mark.parametrize("variant", ["classic", "barrage", "duel", "mini"])
def test_a_random_game_ends_with_an_outcome(variant: str) -> None:
    result = Referee(variant, RandomPlayer(3), RandomPlayer(4)).play()
    assert result.outcome is not None and result.outcome.termination != "forfeit"
    assert result.forfeit is None and result.plies == result.game.ply  # type: ignore[union-attr]
    assert len(result.think_times[RED]) == (result.plies + 1) // 2
    assert len(result.think_times[BLUE]) == result.plies // 2


# ----------------------------------------------------------------------- leaks
class SpyingPlayer(RandomPlayer):
    """Plays randomly and keeps every object the referee gives it."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.received: list[tuple[str, object]] = []

    def start(self, color: int, variant) -> None:  # type: ignore[no-untyped-def]
        self.received.append(("start", (color, variant)))
        super().start(color, variant)

    def view_positions(self, grid: list[list[int]]) -> None:
        self.received.append(("grid", grid))

    def move(self, view: View) -> Move:
        self.received.append(("view", view))
        return super().move(view)

    def tell_move(self, move: Move, public: Mapping) -> None:
        self.received.append(("tell", (move, public)))

    def fight(self, fight: Fight) -> None:
        self.received.append(("fight", fight))


class Replay:
    """The true game, replayed forward from the setups to any later ply."""

    def __init__(self, result: MatchResult) -> None:
        assert result.game is not None
        self.history = result.game.history
        self.game = Game.from_setups(result.game.variant, *result.game.setups)

    def at(self, ply: int) -> Game:
        assert ply >= self.game.ply
        while self.game.ply < ply:
            self.game.push(self.history[self.game.ply].move)
        return self.game


def enemy_ranks_in(obj: object, found: list[PieceView | Mapping]) -> None:
    """Collect every PieceView and every dict carrying a rank, anywhere inside `obj`."""
    if isinstance(obj, PieceView):
        found.append(obj)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            enemy_ranks_in(getattr(obj, f.name), found)
    elif isinstance(obj, Mapping):
        if "rank" in obj:
            found.append(obj)
        for value in obj.values():
            enemy_ranks_in(value, found)
    elif isinstance(obj, (list, tuple)):
        for value in obj:
            enemy_ranks_in(value, found)


def check_view(view: View, truth: Game, color: int) -> None:
    for square, piece in enumerate(view.board):
        unit = truth.board[square]
        assert (piece is None) == (unit is None)
        if piece is not None and unit is not None and piece.color != color:
            assert piece.rank is None or unit.revealed, f"hidden rank leaked at {square}"
            assert piece.rank in (None, unit.rank)


def check_received(spy: SpyingPlayer, result: MatchResult) -> int:
    views, replay = 0, Replay(result)
    for kind, obj in spy.received:
        found: list[PieceView | Mapping] = []
        enemy_ranks_in(obj, found)
        if kind == "view":
            assert isinstance(obj, View)
            check_view(obj, replay.at(obj.ply), spy.color)
            views += 1
        elif kind == "tell":
            move, public = obj  # type: ignore[misc]
            truth = result.game.history[public["ply"] - 1]  # type: ignore[union-attr]
            assert truth.move == move and (public["battle"] is None) == (truth.battle is None)
            assert found == [] and "rank" not in str(public).replace("battle", "")
        elif kind == "fight":
            assert isinstance(obj, Fight)
            battles = [m for m in result.game.history if m.battle and m.move.dst == obj.dst]  # type: ignore[union-attr]
            assert battles, "a fight that never happened"
        elif kind == "grid":
            assert {x for row in obj for x in row} <= {0, 1}  # type: ignore[union-attr]
        for piece in found:
            if isinstance(piece, PieceView) and piece.color != spy.color:
                assert piece.rank is None or piece.revealed
    return views


@pytest.mark.parametrize(
    "variant,seed", [("classic", 1), ("barrage", 2), ("duel", 3), ("mini", 4), ("classic", 5)]
)
def test_a_player_never_receives_a_hidden_enemy_rank(variant: str, seed: int) -> None:
    red, blue = SpyingPlayer(seed), SpyingPlayer(seed + 100)
    result = Referee(variant, red, blue).play()
    assert check_received(red, result) + check_received(blue, result) == result.plies
    assert any(kind == "fight" for kind, _ in red.received) or result.plies < 2


def test_players_get_a_start_with_their_seat() -> None:
    red, blue = SpyingPlayer(1), SpyingPlayer(2)
    Referee("barrage", red, blue).play()
    assert red.received[0] == ("start", (RED, get_variant("barrage")))
    assert blue.received[0] == ("start", (BLUE, get_variant("barrage")))


def test_random_player_is_reproducible() -> None:
    first = Referee("barrage", RandomPlayer(5), RandomPlayer(6)).play()
    second = Referee("barrage", RandomPlayer(5), RandomPlayer(6)).play()
    assert first.outcome == second.outcome and first.plies == second.plies


def test_the_leak_check_catches_a_leak() -> None:
    truth = Game("barrage")
    truth.random_setup(RED, random.Random(1))
    truth.random_setup(BLUE, random.Random(2))
    truth.mark_ready(RED)
    truth.mark_ready(BLUE)
    honest = truth.view(RED)
    enemy = next(i for i, p in enumerate(honest.board) if p and p.color == BLUE)
    board = list(honest.board)
    board[enemy] = board[enemy]._replace(rank=truth.board[enemy].rank)  # type: ignore[arg-type, union-attr]
    check_view(honest, truth, RED)
    with pytest.raises(AssertionError, match="leaked"):
        check_view(dataclasses.replace(honest, board=tuple(board)), truth, RED)


# ----------------------------------------------------------------------- after the end
# A 5x5 board with one Scout and the Flag a side: Red's scout E2-E5 takes Blue's flag at once.
FLAG_RACE = dataclasses.replace(get_variant("mini"), army=((SCOUT, 1), (FLAG, 1)))


class FlagRacer(Player):
    """Plays one fixed setup and fixed moves; raises `error` from the method named `breaks`."""

    def __init__(
        self,
        setup: dict[int, int],
        moves: Sequence[Move],
        breaks: str = "",
        error: type = ValueError,
    ) -> None:
        super().__init__()
        self.fixed_setup, self.moves = setup, list(moves)
        self.breaks, self.error = breaks, error
        self.calls: list[str] = []

    def _note(self, name: str) -> None:
        self.calls.append(name)
        if name == self.breaks:
            raise self.error(f"{name} is broken")

    def setup(self) -> dict[int, int]:
        self._note("setup")
        return dict(self.fixed_setup)

    def move(self, view: View) -> Move:
        self._note("move")
        return self.moves.pop(0)

    def tell_move(self, move: Move, public: Mapping) -> None:
        self._note("tell_move")

    def fight(self, fight: Fight) -> None:
        self._note("fight")

    def finish(self, outcome: Outcome) -> None:
        self._note("finish")


def flag_race(red_breaks: str = "", blue_breaks: str = "", error: type = ValueError) -> MatchResult:
    red = FlagRacer({9: SCOUT, 0: FLAG}, [Move(9, 24)], red_breaks, error)
    blue = FlagRacer({24: FLAG, 15: SCOUT}, [], blue_breaks, error)
    return Referee(FLAG_RACE, red, blue).play()


def test_the_flag_race_is_won_by_red_at_once() -> None:
    result = flag_race()
    assert result.outcome == Outcome(RED, "flag_captured") and result.plies == 1


@pytest.mark.parametrize(
    "red_breaks, blue_breaks",
    [
        ("fight", ""),  # the winner's own fight notification
        ("", "tell_move"),  # the loser is told the deciding move
        ("", "fight"),
        ("finish", "finish"),
    ],
)
def test_a_raise_after_the_end_changes_nothing(red_breaks: str, blue_breaks: str) -> None:
    result = flag_race(red_breaks, blue_breaks)
    assert result.outcome == Outcome(RED, "flag_captured")
    assert result.forfeit is None and result.game is not None
    assert result.game.outcome == Outcome(RED, "flag_captured")


def test_after_the_end_every_player_still_gets_its_notifications() -> None:
    red = FlagRacer({9: SCOUT, 0: FLAG}, [Move(9, 24)], breaks="fight")
    blue = FlagRacer({24: FLAG, 15: SCOUT}, [], breaks="tell_move")
    Referee(FLAG_RACE, red, blue).play()
    assert red.calls == ["setup", "move", "fight", "finish"]
    assert blue.calls == ["setup", "tell_move", "fight", "finish"]


def test_system_exit_from_a_player_forfeits() -> None:
    result = flag_race(red_breaks="move", error=SystemExit)
    assert result.outcome == Outcome(BLUE, "forfeit") and result.plies == 0
    assert result.forfeit is not None and result.forfeit.kind == "exception"
    assert "SystemExit" in result.forfeit.reason
    assert flag_race(blue_breaks="finish", error=SystemExit).outcome == Outcome(
        RED, "flag_captured"
    )


def test_keyboard_interrupt_stops_the_referee() -> None:
    with pytest.raises(KeyboardInterrupt):
        flag_race(red_breaks="move", error=KeyboardInterrupt)


def test_a_player_cannot_frame_its_opponent_by_raising_a_player_fault() -> None:
    from games.engine.referee import PlayerFault

    class Framer(FlagRacer):
        def move(self, view: View) -> Move:
            raise PlayerFault(RED, "move", "red cheated")

    red = FlagRacer({9: SCOUT, 0: FLAG}, [Move(9, 14)])
    blue = Framer({24: FLAG, 15: SCOUT}, [])
    result = Referee(FLAG_RACE, red, blue).play()
    assert result.outcome == Outcome(RED, "forfeit")
    assert result.forfeit is not None and result.forfeit.color == BLUE


# ----------------------------------------------------------------------- Duel's names
# Duel's "esempio tipico", by the names its GameManager passes to position().
DUEL_RED_NAMES = {"SM": (0, 7), "SB": (0, 8), "FL": (0, 9), "SS": (1, 7), "SP": (1, 8)}
DUEL_RED_NAMES |= {"FB": (1, 9), "MA": (2, 7), "GE": (2, 8), "FM": (2, 9), "FS": (3, 9)}
DUEL_BLUE_NAMES = {"FS": (6, 0), "FM": (7, 0), "GE": (7, 1), "MA": (7, 2), "FB": (8, 0)}
DUEL_BLUE_NAMES |= {"SP": (8, 1), "SS": (8, 2), "FL": (9, 0), "SB": (9, 1), "SM": (9, 2)}


class ScriptedDuelPlayer(DuelPlayer):
    """Duel's player: position(name) -> [row, col], moves as (row, col, direction, steps)."""

    def __init__(self, places: Mapping[str, Sequence[int]], script: Sequence[object]) -> None:
        super().__init__()
        self.places, self.script = places, list(script)
        self.asked: list[str] = []
        self.fights: list[Fight] = []

    def position(self, piece: str) -> list[int]:
        self.asked.append(piece)
        return list(self.places[piece])

    def move(self, view: View) -> object:
        return self.script.pop(0)

    def fight(self, fight: Fight) -> None:
        self.fights.append(fight)


def test_duel_piece_names_are_the_duel_army() -> None:
    assert list(DUEL_PIECE_NAMES) == ["FL", "FB", "SB", "MA", "GE", "FM", "SM", "FS", "SS", "SP"]
    ranks = [DUEL_PIECE_NAMES[n] for n in ("FL", "FB", "MA", "GE", "FM", "FS", "SP")]
    assert ranks == [FLAG, BOMB, MARSHAL, GENERAL, MINER, SCOUT, SPY]
    assert sorted(DUEL_PIECE_NAMES.values()) == sorted(
        rank for rank, count in DUEL.army for _ in range(count)
    )


def test_a_duel_player_sets_up_by_name() -> None:
    red = ScriptedDuelPlayer(DUEL_RED_NAMES, [(2, 8, 1, 1), (1, 7, 4, 7)])
    blue = ScriptedDuelPlayer(DUEL_BLUE_NAMES, [(6, 0, 1, 5)])
    result = Referee(DUEL, red, blue, on_move=stop_after(3)).play()
    assert red.asked == blue.asked == list(DUEL_PIECE_NAMES)  # ten calls, Duel's order
    assert result.game is not None
    assert result.game.setups[RED] == {sq(r, c): rank for (r, c), rank in DUEL_RED.items()}
    assert result.game.setups[BLUE] == {sq(r, c): rank for (r, c), rank in DUEL_BLUE.items()}
    # Stratego Duel's examples: Red's "SB" goes to {0,8}, Blue's "MA" to {7,2}.
    assert red.pieces["SB"] == sq(0, 8) and blue.pieces["MA"] == sq(7, 2)
    # {1,7,4,7}: Red's second scout SS strikes Blue's first scout FS, which had come to (1,0).
    assert red.pieces["SS"] == sq(1, 7) and blue.pieces["FS"] == sq(6, 0)
    fight = Fight(RED, sq(1, 7), sq(1, 0), SCOUT, SCOUT, "both")
    assert red.fights == blue.fights == [fight]
    assert result.forfeit is None and result.plies == 3


@pytest.mark.parametrize(
    "answer, message",
    [((0, 10), "not (row, col) on the board"), ("A1", "not (row, col)"), ((0, 7), "again")],
)
def test_a_bad_position_answer_forfeits(answer: object, message: str) -> None:
    places = dict(DUEL_RED_NAMES, SP=answer)
    result = Referee(DUEL, ScriptedDuelPlayer(places, []), RandomPlayer(1)).play()
    assert result.outcome == Outcome(BLUE, "forfeit")
    assert result.forfeit is not None and message in result.forfeit.reason


def test_duel_names_only_fit_the_duel_army() -> None:
    result = Referee("barrage", ScriptedDuelPlayer(DUEL_RED_NAMES, []), RandomPlayer(1)).play()
    assert result.outcome == Outcome(BLUE, "forfeit")
    assert result.forfeit is not None and "duel army" in result.forfeit.reason


# Red's Scout dies on Blue's bomb: Red has no move left, and Blue is to move.
SCOUT_AND_BOMB = dataclasses.replace(get_variant("mini"), army=((SCOUT, 1), (BOMB, 1), (FLAG, 1)))


def scout_on_the_bomb(
    end_when_stuck: bool, blue_moves: Sequence[Move]
) -> tuple[MatchResult, FlagRacer]:
    red = FlagRacer({9: SCOUT, 1: BOMB, 0: FLAG}, [Move(9, 19)])
    blue = FlagRacer({19: BOMB, 15: SCOUT, 24: FLAG}, blue_moves)
    result = Referee(SCOUT_AND_BOMB, red, blue, end_when_stuck=end_when_stuck).play()
    return result, blue


def test_a_side_left_with_no_move_loses_at_its_turn() -> None:
    result, blue = scout_on_the_bomb(False, [Move(15, 16)])
    assert result.outcome == Outcome(BLUE, "no_moves") and result.plies == 2
    assert blue.calls.count("move") == 1


def test_a_referee_may_end_the_game_at_once_when_a_side_is_left_with_no_move() -> None:
    # Blue has no move to give: asked for one, it would raise and forfeit
    result, blue = scout_on_the_bomb(True, [])
    assert result.outcome == Outcome(BLUE, "no_moves") and result.plies == 1
    assert result.forfeit is None and "move" not in blue.calls
    assert blue.calls[-1] == "finish"
    asked, _ = scout_on_the_bomb(False, [])
    assert asked.outcome == Outcome(RED, "forfeit")
