"""`expert` against the baits and trades that cost it its Marshal and General against a
strong outside program, each on a small board: a known piece left where our big piece can
take it, with a hidden piece beside it that takes whatever takes the bait (the Spy for
the Marshal, the Marshal for the General), and a trade of Marshals that leaves the
opponent the only General."""

from __future__ import annotations

from test_expert import endgame, expert_move, sq

from games.bots import suspicion
from games.bots.expert import ExpertPlayer, marshal_trade, spy_exposure
from games.bots.hard import MoveScorer
from games.bots.knowledge import Tracker, build_beliefs
from games.engine import (
    BLUE,
    BOMB,
    CAPTAIN,
    COLONEL,
    FLAG,
    GENERAL,
    LIEUTENANT,
    MARSHAL,
    MINER,
    RED,
    SCOUT,
    SERGEANT,
    SPY,
    Game,
    Move,
)


def colonel_beside_a_stranger(guard: int) -> dict:
    """Blue's known Colonel stands next to Red's known Marshal, with a hidden Blue piece
    that has not moved (the Spy, or a Sergeant) beside it."""
    return {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(4, 4): (RED, MARSHAL),
        sq(1, 5): (RED, CAPTAIN),
        sq(1, 8): (RED, SERGEANT),
        sq(2, 3): (RED, SCOUT),
        sq(9, 9): (BLUE, FLAG),
        sq(9, 8): (BLUE, BOMB),
        sq(8, 9): (BLUE, BOMB),
        sq(5, 4): (BLUE, COLONEL),
        sq(6, 4): (BLUE, guard),
        sq(7, 1): (BLUE, SERGEANT),
        sq(8, 2): (BLUE, MINER),
        sq(8, 5): (BLUE, SCOUT),
        sq(7, 7): (BLUE, LIEUTENANT),
        sq(6, 9): (BLUE, CAPTAIN),
    }


def blue_movers(pieces: dict) -> tuple[int, ...]:
    return tuple(
        s for s, (c, r) in pieces.items() if c == BLUE and r not in (BOMB, FLAG) and s != sq(6, 4)
    )


def test_the_marshal_leaves_a_colonel_that_the_spy_may_guard() -> None:
    """Bait: a known Colonel that our known Marshal can take, next to a hidden piece that
    has not moved. Against DoI that piece was the Spy, which took the Marshal at once
    (the beliefs gave it 13%): expert leaves the Colonel while Blue's Spy lives."""
    pieces = colonel_beside_a_stranger(SPY)
    game = endgame(pieces, moved=blue_movers(pieces), revealed=(sq(4, 4), sq(5, 4)))
    for seed in range(3):
        assert expert_move(game, seed) != Move(sq(4, 4), sq(5, 4)), seed


def test_the_marshal_takes_the_colonel_once_the_spy_is_gone() -> None:
    pieces = colonel_beside_a_stranger(SERGEANT)  # Blue's Spy was captured
    game = endgame(pieces, moved=blue_movers(pieces), revealed=(sq(4, 4), sq(5, 4)))
    for seed in range(3):
        assert expert_move(game, seed) == Move(sq(4, 4), sq(5, 4)), seed


def general_offered_a_scout(marshal_alive: bool) -> tuple:
    """Blue moves its known Sergeant next to Red's known General; beside the Sergeant stands
    a hidden Blue piece that has not moved: Blue's Marshal, or (once it is gone) a Lieutenant."""
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(4, 4): (RED, GENERAL),
        sq(1, 5): (RED, CAPTAIN),
        sq(1, 8): (RED, SERGEANT),
        sq(2, 3): (RED, MINER),
        sq(9, 9): (BLUE, FLAG),
        sq(9, 8): (BLUE, BOMB),
        sq(8, 9): (BLUE, BOMB),
        sq(5, 3): (BLUE, SERGEANT),
        sq(6, 4): (BLUE, MARSHAL if marshal_alive else LIEUTENANT),
        sq(7, 1): (BLUE, SERGEANT),
        sq(8, 2): (BLUE, MINER),
        sq(8, 5): (BLUE, SCOUT),
        sq(7, 7): (BLUE, LIEUTENANT),
        sq(6, 9): (BLUE, CAPTAIN),
    }
    moved = tuple(
        s for s, (c, r) in pieces.items() if c == BLUE and r not in (BOMB, FLAG) and s != sq(6, 4)
    )
    # Blue's back rows, unmoved: what a hidden piece that has not moved may also be
    back = [SCOUT, SERGEANT, LIEUTENANT, MINER, SCOUT, SERGEANT, BOMB, LIEUTENANT, SCOUT, MINER]
    for col, rank in enumerate(back):
        pieces[sq(9, col) if col < 8 else sq(8, col - 8)] = (BLUE, rank)
    game = endgame(pieces, moved=moved, revealed=(sq(4, 4), sq(5, 3)), turn=BLUE)
    game.push(Move(sq(5, 3), sq(5, 4)))  # the bait, next to our General and the stranger
    return game


def test_the_general_leaves_bait_beside_a_stranger() -> None:
    """DoI took our known General three times in eight games so: it put a small piece
    next to it, beside its hidden Marshal, and recaptured. expert does not take it."""
    game = general_offered_a_scout(marshal_alive=True)
    for seed in range(3):
        assert expert_move(game, seed) != Move(sq(4, 4), sq(5, 4)), seed


def test_the_general_takes_the_offer_once_the_marshal_is_gone() -> None:
    game = general_offered_a_scout(marshal_alive=False)
    for seed in range(3):
        assert expert_move(game, seed) == Move(sq(4, 4), sq(5, 4)), seed


def marshals_face_to_face(red_general: bool) -> dict:
    """Both Marshals known, next to each other, Red to move. Either Blue alone still has a
    General, or Red alone does."""
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(4, 4): (RED, MARSHAL),
        sq(1, 5): (RED, CAPTAIN),
        sq(1, 8): (RED, SERGEANT),
        sq(2, 3): (RED, MINER),
        sq(9, 9): (BLUE, FLAG),
        sq(9, 8): (BLUE, BOMB),
        sq(8, 9): (BLUE, BOMB),
        sq(5, 4): (BLUE, MARSHAL),
        sq(7, 1): (BLUE, SERGEANT),
        sq(8, 2): (BLUE, MINER),
        sq(7, 7): (BLUE, CAPTAIN),
        sq(6, 9): (BLUE, CAPTAIN),
    }
    if red_general:
        pieces[sq(1, 2)] = (RED, GENERAL)
    else:
        pieces[sq(8, 5)] = (BLUE, GENERAL)
    return pieces


def test_a_trade_of_marshals_is_worth_what_the_generals_left_make_it() -> None:
    without = endgame(marshals_face_to_face(red_general=False))
    with_general = endgame(marshals_face_to_face(red_general=True))
    assert marshal_trade(without.view(RED)) < 0 < marshal_trade(with_general.view(RED))
    assert marshal_trade(without.view(BLUE)) > 0


def test_the_marshal_declines_a_trade_that_leaves_the_enemy_the_only_general() -> None:
    """Every game against DoI in which the Marshals took each other was lost, often with
    our General gone first: expert's Marshal steps away from the trade instead."""
    pieces = marshals_face_to_face(red_general=False)
    moved = tuple(s for s, (c, r) in pieces.items() if c == BLUE and r not in (BOMB, FLAG))
    game = endgame(pieces, moved=moved, revealed=(sq(4, 4), sq(5, 4)))
    for seed in range(3):
        move = expert_move(game, seed)
        assert move.src == sq(4, 4) and move.dst != sq(5, 4), (seed, move)
        assert sq(5, 4) not in game.variant.neighbors[move.dst], (seed, move)


def test_the_marshal_seeks_the_trade_that_leaves_it_the_only_general() -> None:
    pieces = marshals_face_to_face(red_general=True)
    moved = tuple(s for s, (c, r) in pieces.items() if c == BLUE and r not in (BOMB, FLAG))
    game = endgame(pieces, moved=moved, revealed=(sq(4, 4), sq(5, 4)))
    for seed in range(3):
        assert expert_move(game, seed) == Move(sq(4, 4), sq(5, 4)), seed


def general_approached(hunter: int) -> Game:
    """A hidden Blue piece that has moved walks up to Red's known General; Blue's Marshal
    is hidden (the hunter itself, or elsewhere)."""
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(4, 4): (RED, GENERAL),
        sq(1, 5): (RED, CAPTAIN),
        sq(1, 8): (RED, SERGEANT),
        sq(2, 3): (RED, MINER),
        sq(9, 9): (BLUE, FLAG),
        sq(9, 8): (BLUE, BOMB),
        sq(8, 9): (BLUE, BOMB),
        sq(6, 4): (BLUE, hunter),
        sq(7, 1): (BLUE, SERGEANT),
        sq(8, 2): (BLUE, MINER),
        sq(8, 5): (BLUE, SCOUT),
        sq(7, 7): (BLUE, LIEUTENANT),
        sq(6, 9): (BLUE, CAPTAIN),
        sq(8, 0): (BLUE, MARSHAL if hunter != MARSHAL else SCOUT),
    }
    back = [SCOUT, SERGEANT, LIEUTENANT, MINER, SCOUT, SERGEANT, BOMB, LIEUTENANT]
    for col, rank in enumerate(back):
        pieces[sq(9, col)] = (BLUE, rank)
    moved = tuple(
        s for s, (c, r) in pieces.items() if c == BLUE and r not in (BOMB, FLAG) and s < sq(9, 0)
    )
    game = endgame(pieces, moved=moved, revealed=(sq(4, 4),), turn=BLUE)
    game.push(Move(sq(6, 4), sq(5, 4)))  # walks up to our General
    return game


def test_a_piece_that_walked_up_to_our_general_is_suspected_of_being_the_marshal() -> None:
    """DoI's hidden Marshal walks up to our known General; the beliefs gave such a piece
    19% and our General took it for a small one. expert now weighs it as the Marshal four
    times more, and leaving its General next to it costs at least SPY_WATCH of the
    General, whatever the beliefs say."""
    game = general_approached(MARSHAL)
    view = game.view(RED)
    tracker = Tracker()
    tracker.observe(view)
    plain = build_beliefs(view, tracker, flag_structure=True)
    wary = build_beliefs(view, tracker, flag_structure=True, adjust=suspicion.adjust)
    assert wary.p(sq(5, 4), MARSHAL) > 1.5 * plain.p(sq(5, 4), MARSHAL)
    bot = ExpertPlayer(1)
    bot.start(RED, game.variant)
    scorer = MoveScorer(view, plain, bot)  # where the beliefs say less than SPY_WATCH
    stay = Move(sq(1, 8), sq(2, 8))
    flee = Move(sq(4, 4), sq(3, 4))
    assert spy_exposure(stay, scorer) > 0 == spy_exposure(flee, scorer)
