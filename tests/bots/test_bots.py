"""The computer players: what they believe, what they choose, and that they play whole games."""

from __future__ import annotations

import random

import pytest

from games.bots import LEVELS, HardPlayer, MediumPlayer, get_player
from games.bots.hard import MoveScorer
from games.bots.knowledge import Beliefs, build_beliefs, fit, hidden_counts
from games.engine import (
    BLUE,
    BOMB,
    CAPTAIN,
    FLAG,
    GENERAL,
    LIEUTENANT,
    MAJOR,
    MARSHAL,
    MINER,
    RED,
    SCOUT,
    SERGEANT,
    SPY,
    Game,
    Move,
    get_variant,
    validate_setup,
)
from games.engine.player_interface import RandomPlayer
from games.engine.referee import Referee

BARRAGE = get_variant("barrage")


def sq(row: int, col: int) -> int:
    return row * 10 + col


def test_registry_knows_every_level() -> None:
    assert LEVELS == ("random", "medium", "hard", "expert")
    assert isinstance(get_player("random", 1), RandomPlayer)
    assert isinstance(get_player("medium", 1), MediumPlayer)
    assert isinstance(get_player("hard", 1), HardPlayer)
    with pytest.raises(ValueError, match="unknown computer player"):
        get_player("grandmaster")


@pytest.mark.parametrize("variant", ["classic", "barrage", "duel", "mini"])
def test_hard_setup_is_legal_with_a_guarded_flag(variant: str) -> None:
    bot = HardPlayer(3)
    bot.start(BLUE, get_variant(variant))
    setup = bot.setup()
    validate_setup(get_variant(variant), BLUE, setup)
    flag = next(s for s, r in setup.items() if r == FLAG)
    assert get_variant(variant).is_back_row(BLUE, flag)


@pytest.mark.parametrize("level", ["medium", "hard"])
@pytest.mark.parametrize("variant", ["classic", "barrage", "duel", "mini"])
def test_bots_play_whole_games_without_forfeit(level: str, variant: str) -> None:
    result = Referee(variant, get_player(level, 1), RandomPlayer(2)).play()
    assert result.forfeit is None and result.outcome is not None
    result = Referee(variant, RandomPlayer(3), get_player(level, 4)).play()
    assert result.forfeit is None and result.outcome is not None


def test_fit_matches_counts_and_rows() -> None:
    weights = {
        1: {BOMB: 1.0, FLAG: 1.0, SCOUT: 1.0},
        2: {BOMB: 1.0, FLAG: 4.0, SCOUT: 1.0},
        3: {SCOUT: 1.0},
    }
    probs = fit(weights, {BOMB: 1, FLAG: 1, SCOUT: 1})
    assert probs[3] == {SCOUT: pytest.approx(1.0)}
    for row in probs.values():
        assert sum(row.values()) == pytest.approx(1.0)
    assert probs[1][BOMB] + probs[2][BOMB] == pytest.approx(1.0, abs=0.03)
    assert probs[2][FLAG] > probs[1][FLAG]


def barrage_position(extra_moves: list[Move]) -> Game:
    red = {
        sq(0, 0): FLAG,
        sq(0, 1): BOMB,
        sq(1, 0): MARSHAL,
        sq(3, 4): GENERAL,
        sq(3, 5): MINER,
        sq(3, 8): SCOUT,
        sq(2, 9): SCOUT,
        sq(0, 9): 1,
    }
    blue = {
        sq(9, 9): FLAG,
        sq(9, 8): BOMB,
        sq(6, 4): MARSHAL,
        sq(6, 0): GENERAL,
        sq(7, 5): MINER,
        sq(6, 9): SCOUT,
        sq(8, 1): SCOUT,
        sq(9, 0): 1,
    }
    game = Game.from_setups("barrage", red, blue)
    for move in extra_moves:
        game.push(move)
    return game


def test_beliefs_use_moves_scouts_and_counts() -> None:
    # Red's scout runs (3,8) -> (5,8); blue's scout (6,9) runs to (4,9): both show as scouts.
    game = barrage_position([Move(sq(3, 8), sq(5, 8)), Move(sq(6, 9), sq(4, 9))])
    view = game.view(RED)
    beliefs = build_beliefs(view)
    assert beliefs.of(sq(4, 9)) == {SCOUT: 1.0}
    assert hidden_counts(BARRAGE, view)[SCOUT] == 2
    for square, probs in beliefs.probs.items():
        assert sum(probs.values()) == pytest.approx(1.0)
        if view.board[square].moved:
            assert probs.get(BOMB, 0.0) == 0.0 and probs.get(FLAG, 0.0) == 0.0
    total_flag = sum(p.get(FLAG, 0.0) for p in beliefs.probs.values())
    assert total_flag == pytest.approx(1.0, abs=1e-3)
    back_row = beliefs.p(sq(9, 9), FLAG)
    assert back_row > beliefs.p(sq(7, 5), FLAG)


def test_hard_takes_a_revealed_weaker_piece() -> None:
    game = Game.from_position(
        "classic",
        {
            sq(0, 0): (RED, FLAG),
            sq(3, 3): (RED, GENERAL),
            sq(9, 9): (BLUE, FLAG),
            sq(8, 0): (BLUE, MINER),
            sq(3, 4): (BLUE, CAPTAIN),
        },
    )
    game.board[sq(3, 4)].revealed = True
    bot = HardPlayer(1)
    bot.start(RED, get_variant("classic"))
    assert bot.move(game.view(RED)) == Move(sq(3, 3), sq(3, 4))


def test_hard_removes_a_threat_to_its_flag() -> None:
    game = Game.from_position(
        "classic",
        {
            sq(0, 5): (RED, FLAG),
            sq(0, 4): (RED, BOMB),
            sq(0, 6): (RED, BOMB),
            sq(2, 5): (RED, MARSHAL),
            sq(3, 0): (RED, SCOUT),
            sq(9, 9): (BLUE, FLAG),
            sq(1, 5): (BLUE, CAPTAIN),
            sq(8, 0): (BLUE, MINER),
        },
    )
    game.board[sq(1, 5)].moved = True
    bot = HardPlayer(1)
    bot.start(RED, get_variant("classic"))
    assert bot.move(game.view(RED)) == Move(sq(2, 5), sq(1, 5))


@pytest.mark.parametrize("level", LEVELS)
def test_bots_answer_a_legal_move_of_the_view(level: str) -> None:
    game = barrage_position([])
    bot = get_player(level, 5)
    bot.start(RED, BARRAGE)
    view = game.view(RED)
    move = bot.move(view)
    assert (move.src, move.dst) in view.legal_moves


def test_a_piece_that_walks_up_to_a_revealed_general_is_likely_the_marshal() -> None:
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(4, 4): (RED, GENERAL),
        sq(0, 9): (RED, SCOUT),
        sq(9, 9): (BLUE, FLAG),
        sq(6, 4): (BLUE, MARSHAL),
        sq(6, 0): (BLUE, SCOUT),
        sq(7, 1): (BLUE, MINER),
    }
    game = Game.from_position("classic", pieces, turn=BLUE)
    game.board[sq(4, 4)].revealed = True
    game.board[sq(6, 0)].moved = game.board[sq(7, 1)].moved = True
    hard = HardPlayer(1)
    hard.start(RED, get_variant("classic"))
    game.push(Move(sq(6, 4), sq(5, 4)))  # the unknown piece steps next to the general
    view = game.view(RED)
    hard.tracker.observe(view)
    informed = build_beliefs(view, hard.tracker)
    naive = build_beliefs(view)
    assert informed.p(sq(5, 4), MARSHAL) > naive.p(sq(5, 4), MARSHAL)
    assert informed.p(sq(5, 4), MARSHAL) > informed.p(sq(6, 0), MARSHAL)


@pytest.mark.parametrize("moved", [True, False], ids=["moved", "never-moved"])
def test_a_piece_that_walks_up_to_a_hidden_piece_that_has_moved_is_likely_stronger(
    moved: bool,
) -> None:
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(4, 4): (RED, CAPTAIN),
        sq(0, 9): (RED, SCOUT),
        sq(9, 9): (BLUE, FLAG),
        sq(6, 4): (BLUE, MAJOR),
        sq(6, 0): (BLUE, SCOUT),
        sq(7, 1): (BLUE, MINER),
        sq(8, 8): (BLUE, GENERAL),
    }
    game = Game.from_position("classic", pieces, turn=BLUE)
    game.board[sq(4, 4)].moved = moved
    game.board[sq(6, 0)].moved = game.board[sq(7, 1)].moved = True
    hard = HardPlayer(1)
    hard.start(RED, get_variant("classic"))
    game.push(Move(sq(6, 4), sq(5, 4)))  # the unknown piece steps next to the captain
    view = game.view(RED)
    hard.tracker.observe(view)
    informed = build_beliefs(view, hard.tracker)
    naive = build_beliefs(view)

    def stronger(beliefs: Beliefs) -> float:
        return sum(p for rank, p in beliefs.of(sq(5, 4)).items() if rank > CAPTAIN)

    rise = stronger(informed) - stronger(naive)
    if moved:
        assert rise > 0.1
    else:
        assert rise == pytest.approx(0.0)


def walled_in_flag_position() -> Game:
    """Duel, late: Blue's flag in the corner (9,0) behind two bombs that battles revealed;
    Red (hard) has its general, its spy and two miners, far away."""
    pieces = {
        sq(0, 9): (RED, FLAG),
        sq(0, 8): (RED, BOMB),
        sq(1, 9): (RED, BOMB),
        sq(1, 7): (RED, SPY),
        sq(3, 0): (RED, GENERAL),
        sq(3, 7): (RED, MINER),
        sq(3, 8): (RED, MINER),
        sq(9, 0): (BLUE, FLAG),
        sq(8, 0): (BLUE, BOMB),
        sq(9, 1): (BLUE, BOMB),
        sq(7, 5): (BLUE, MARSHAL),
        sq(9, 2): (BLUE, MINER),
        sq(9, 3): (BLUE, GENERAL),
    }
    game = Game.from_position("duel", pieces)
    for square in (sq(8, 0), sq(9, 1)):
        game.board[square].revealed = True
    for square in (sq(7, 5), sq(9, 2), sq(9, 3)):
        game.board[square].moved = True
    game.captured[RED].extend([MARSHAL, SCOUT, SCOUT])
    game.captured[BLUE].extend([MINER, SCOUT, SCOUT, SPY])
    return game


def test_hard_digs_through_bombs_towards_a_walled_in_flag() -> None:
    game = walled_in_flag_position()
    beliefs = build_beliefs(game.view(RED))
    # The flag is all but certain, yet a sliver of "it could move" keeps the enemy's movable
    # pieces above three: no endgame rule may be what makes the miners go.
    assert 0.9 < beliefs.p(sq(9, 0), FLAG) < 1.0
    assert sum(beliefs.can_move(square) for square in beliefs.probs) > 3.0
    flag_row, flag_col = 9, 0
    for seed in range(3):
        bot = HardPlayer(seed)
        bot.start(RED, get_variant("duel"))
        move = bot.move(game.view(RED))
        assert game.board[move.src].rank == MINER
        before = abs(move.src // 10 - flag_row) + abs(move.src % 10 - flag_col)
        after = abs(move.dst // 10 - flag_row) + abs(move.dst % 10 - flag_col)
        assert after < before
    for seed in range(3):  # and it gets there: through a bomb, then onto the flag
        game = walled_in_flag_position()
        bot = HardPlayer(seed)
        bot.start(RED, get_variant("duel"))
        rng = random.Random(seed)
        for _ in range(25):
            game.push(bot.move(game.view(RED)))
            if game.is_over:
                break
            game.push(rng.choice(game.legal_moves()))
        assert game.outcome is not None and game.outcome.winner == RED
        assert game.outcome.termination == "flag_captured"


def likely_bomb_position(red_pieces: dict[int, int]) -> Game:
    """Classic: Blue has six unmoved pieces on its back row, among them its flag, three
    bombs, a captain and a lieutenant (every other piece was captured); Red's marshal
    stands next to one of them, (9,0): half a bomb, a sixth of a flag."""
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(8, 0): (RED, MARSHAL),
        **{square: (RED, rank) for square, rank in red_pieces.items()},
        sq(9, 0): (BLUE, BOMB),
        sq(9, 1): (BLUE, FLAG),
        sq(9, 2): (BLUE, BOMB),
        sq(9, 5): (BLUE, BOMB),
        sq(9, 6): (BLUE, LIEUTENANT),
        sq(9, 8): (BLUE, CAPTAIN),
        sq(6, 8): (BLUE, SERGEANT),
        sq(6, 9): (BLUE, SCOUT),
    }
    game = Game.from_position("classic", pieces)
    for square in (sq(6, 8), sq(6, 9)):
        game.board[square].moved = True
    left = {FLAG: 1, BOMB: 3, CAPTAIN: 1, LIEUTENANT: 1, SERGEANT: 1, SCOUT: 1}
    for rank, count in get_variant("classic").army:
        game.captured[BLUE].extend([rank] * (count - left.get(rank, 0)))
    return game


def test_hard_leaves_a_likely_bomb_to_a_miner_nearby() -> None:
    game = likely_bomb_position({sq(6, 1): MINER, sq(2, 5): GENERAL})
    view = game.view(RED)
    beliefs = build_beliefs(view)
    assert beliefs.p(sq(9, 0), BOMB) == pytest.approx(0.5, abs=0.05)
    assert beliefs.p(sq(9, 0), FLAG) > 0.1
    for seed in range(3):
        bot = HardPlayer(seed)
        bot.start(RED, get_variant("classic"))
        move = bot.move(view)
        assert move.src != sq(8, 0)  # the marshal stays
        assert game.board[move.src].rank == MINER  # the miner comes to make the probe
    # With no cheaper piece in reach, the same probe is still worth the marshal's risk.
    alone = likely_bomb_position({sq(2, 5): GENERAL})
    view = alone.view(RED)
    bot = HardPlayer(1)
    bot.start(RED, get_variant("classic"))
    scorer = MoveScorer(view, build_beliefs(view), bot)
    assert scorer.score(Move(sq(8, 0), sq(9, 0))) > 0


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_bots_count_the_army_a_mini_game_drew(level: str) -> None:
    """The console game's draw (a General, three Sergeants): what is hidden is counted from it."""
    drawn = get_variant("mini").with_rules(
        army={GENERAL: 1, SERGEANT: 3, MINER: 1, SPY: 1, BOMB: 3, FLAG: 1}
    )
    game = Game(drawn)
    for color in (RED, BLUE):
        game.random_setup(color, random.Random(color))
        game.mark_ready(color)
    view = game.view(RED)
    assert hidden_counts(view.game_variant(), view) == dict(drawn.army_counts)
    for seed in range(6):
        result = Referee(drawn, get_player(level, seed), RandomPlayer(seed)).play()
        assert result.forfeit is None and result.outcome is not None
