"""The loss patterns counted from a finished game's moves."""

from __future__ import annotations

from test_expert import endgame, sq

from games.bots.losses import big_piece_losses, material_lost, suffered
from games.engine import (
    BLUE,
    BOMB,
    CAPTAIN,
    FLAG,
    GENERAL,
    MARSHAL,
    MINER,
    RED,
    SCOUT,
    SERGEANT,
    SPY,
    Game,
    Move,
)


def test_each_pattern_is_counted_for_the_side_that_suffered_it() -> None:
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(1, 0): (RED, BOMB),
        sq(4, 4): (RED, MARSHAL),
        sq(6, 6): (RED, CAPTAIN),
        sq(3, 9): (RED, SERGEANT),
        sq(2, 0): (BLUE, MINER),
        sq(5, 4): (BLUE, SPY),
        sq(7, 6): (BLUE, BOMB),
        sq(9, 9): (BLUE, FLAG),
        sq(9, 0): (BLUE, SERGEANT),
    }
    game = endgame(pieces, turn=RED)
    game.push(Move(sq(6, 6), sq(7, 6)))  # Red's captain dies on a bomb
    game.push(Move(sq(5, 4), sq(4, 4)))  # Blue's spy takes the marshal
    game.push(Move(sq(3, 9), sq(4, 9)))
    game.push(Move(sq(2, 0), sq(1, 0)))  # the miner clears the bomb ...
    game.push(Move(sq(4, 9), sq(3, 9)))
    game.push(Move(sq(1, 0), sq(0, 0)))  # ... and takes the flag
    assert game.outcome is not None and game.outcome.winner == BLUE
    red, blue = suffered(game, RED), suffered(game, BLUE)
    assert red["flag_by_miner"] == 1 and red["marshal_to_spy"] == 1
    assert red["high_on_bomb"] == 1 and red["marshals_traded"] == 0
    assert red["out_of_moves"] == 0 and red["reached_300"] == 0
    assert all(blue[key] == 0 for key in ("flag_by_miner", "marshal_to_spy", "high_on_bomb"))


def test_traded_marshals_and_running_out_of_moves() -> None:
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(4, 4): (RED, MARSHAL),
        sq(9, 9): (BLUE, FLAG),
        sq(5, 4): (BLUE, MARSHAL),
        sq(8, 8): (BLUE, SERGEANT),
    }
    game = endgame(pieces, turn=RED)
    game.push(Move(sq(4, 4), sq(5, 4)))
    game.push(Move(sq(8, 8), sq(7, 8)))  # and Red has nothing left to move
    assert game.outcome is not None and game.outcome.winner == BLUE
    red, blue = suffered(game, RED), suffered(game, BLUE)
    assert red["marshals_traded"] == blue["marshals_traded"] == 1
    assert red["out_of_moves"] == 1 and blue["out_of_moves"] == 0
    assert big_piece_losses(game, RED) == {
        "marshal: traded (ours hidden, theirs hidden), we attacked": 1
    }
    assert big_piece_losses(game, BLUE) == {
        "marshal: traded (ours hidden, theirs hidden), they attacked": 1
    }


def test_a_trade_of_marshals_says_which_had_fought_before() -> None:
    """Blue's Marshal shows itself taking a Sergeant; then it attacks Red's hidden Marshal."""
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(0, 9): (RED, SERGEANT),
        sq(4, 4): (RED, MARSHAL),
        sq(9, 9): (BLUE, FLAG),
        sq(6, 5): (BLUE, MARSHAL),
        sq(5, 5): (RED, SERGEANT),
    }
    game = endgame(pieces, turn=BLUE)
    game.push(Move(sq(6, 5), sq(5, 5)))  # Blue's Marshal takes the Sergeant: now known
    game.push(Move(sq(0, 9), sq(1, 9)))
    game.push(Move(sq(5, 5), sq(5, 4)))
    game.push(Move(sq(1, 9), sq(2, 9)))
    game.push(Move(sq(5, 4), sq(4, 4)))  # and trades with Red's Marshal
    assert big_piece_losses(game, RED) == {
        "marshal: traded (ours hidden, theirs known), they attacked": 1
    }
    assert big_piece_losses(game, BLUE) == {
        "marshal: traded (ours known, theirs hidden), we attacked": 1
    }


def test_how_the_marshal_and_the_general_were_lost() -> None:
    """A General shown by its capture and taken by a Marshal that had not fought, then a
    Marshal taken by a Spy: each counted with its taker as it was known before."""
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(0, 9): (RED, SERGEANT),
        sq(2, 2): (RED, MARSHAL),
        sq(4, 4): (RED, GENERAL),
        sq(9, 9): (BLUE, FLAG),
        sq(5, 4): (BLUE, SERGEANT),
        sq(5, 5): (BLUE, MARSHAL),
        sq(3, 2): (BLUE, SPY),
    }
    game = endgame(pieces, turn=RED)
    game.push(Move(sq(4, 4), sq(5, 4)))  # the General takes the Sergeant: now known
    game.push(Move(sq(5, 5), sq(5, 4)))  # the hidden Marshal takes the General
    game.push(Move(sq(0, 9), sq(1, 9)))
    game.push(Move(sq(3, 2), sq(2, 2)))  # the hidden Spy takes the Marshal
    assert big_piece_losses(game, RED) == {
        "general: hidden marshal, they attacked": 1,
        "marshal: hidden spy, they attacked": 1,
    }
    assert big_piece_losses(game, BLUE) == {}
    assert material_lost(game, RED) == {
        "first fight of the marshal: they attacked, hidden spy": 1,
        "they attacked, hidden": 75 + 110,  # neither taker had fought before
    }
    assert material_lost(game, BLUE) == {
        "first fight of the marshal: we attacked, known general": 1,
        "they attacked, hidden": 7,  # the Sergeant, to the General before it was known
    }


def test_a_replay_the_referee_ended_at_once_counts_the_side_that_could_not_move() -> None:
    # Red's last movable piece is gone and Blue is to move: the referee of a game against an
    # outside program ends it here, and a replay of the record stops here too
    pieces = {0: (RED, FLAG), 1: (RED, BOMB), 99: (BLUE, FLAG), 90: (BLUE, SCOUT)}
    game = Game.from_position("classic", pieces, turn=BLUE)
    assert suffered(game, RED)["out_of_moves"] == 1
    assert suffered(game, BLUE)["out_of_moves"] == 0
