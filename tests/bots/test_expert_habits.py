"""`expert` against the ways it lost to a strong outside program, each on a small board:
its flag read from the bomb structures, its Marshal shown and lost to the Spy, its big
pieces dying on bombs, and its army worn down until nothing could move."""

from __future__ import annotations

import random

import pytest
from test_expert import endgame, expert_move, sq

from games.bots import human_setups, suspicion
from games.bots.decoy import decoy_setup
from games.bots.expert import ExpertPlayer, stealth
from games.bots.hard import MoveScorer
from games.bots.knowledge import build_beliefs
from games.engine import (
    BLUE,
    BOMB,
    CAPTAIN,
    COLONEL,
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
    Move,
    get_variant,
)

CLASSIC = get_variant("classic")


def walled_in(setup: dict[int, int], square: int) -> bool:
    """Whether every neighbour of `square` inside the setup holds a bomb."""
    return all(setup.get(n) == BOMB for n in CLASSIC.neighbors[square])


@pytest.mark.parametrize("color", [RED, BLUE])
def test_the_flag_has_a_decoy_structure_that_looks_the_same(color: int) -> None:
    """Flag hunters read the back row's bomb structures; expert builds two: the flag's, and
    one around a bomb a few columns away. Both stand on the back row, walled in by bombs."""
    for seed in range(20):
        setup = decoy_setup(CLASSIC, color, random.Random(seed))
        assert sorted(setup.values()) == sorted(
            rank for rank, count in CLASSIC.army for _ in range(count)
        )
        back = [s for s in setup if CLASSIC.is_back_row(color, s)]
        structures = [s for s in back if setup[s] in (BOMB, FLAG) and walled_in(setup, s)]
        [flag] = [s for s in back if setup[s] == FLAG]
        assert flag in structures
        decoys = [s for s in structures if abs(s - flag) >= 3 and setup[s] == BOMB]
        assert decoys, f"seed {seed}: no decoy beside the flag at {flag}"


def test_expert_player_sets_up_with_a_decoy_without_people_setups(monkeypatch) -> None:
    """Where we have no setups people played (classic and barrage have them), expert walls
    its flag in and builds a decoy."""
    monkeypatch.setattr(human_setups, "setups", lambda name: ())
    bot = ExpertPlayer(4)
    bot.start(BLUE, CLASSIC)
    setup = bot.setup()
    [flag] = [s for s, r in setup.items() if r == FLAG]
    assert CLASSIC.is_back_row(BLUE, flag) and walled_in(setup, flag)
    assert any(
        r == BOMB and CLASSIC.is_back_row(BLUE, s) and walled_in(setup, s) for s, r in setup.items()
    )


def shown_marshal_bait(spy_alive: bool) -> dict:
    """Red's hidden Marshal can take Blue's known Captain; Blue has seven more movers."""
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(4, 4): (RED, MARSHAL),
        sq(1, 8): (RED, SERGEANT),
        sq(2, 3): (RED, SCOUT),
        sq(9, 9): (BLUE, FLAG),
        sq(9, 8): (BLUE, BOMB),
        sq(8, 9): (BLUE, BOMB),
        sq(5, 4): (BLUE, CAPTAIN),
        sq(7, 0): (BLUE, SERGEANT),
        sq(7, 7): (BLUE, MINER),
        sq(8, 5): (BLUE, SCOUT),
        sq(6, 9): (BLUE, SERGEANT),
        sq(8, 0): (BLUE, SCOUT),
    }
    if spy_alive:
        pieces[sq(8, 2)] = (BLUE, SPY)
    return pieces


def test_expert_keeps_its_marshal_hidden_from_the_spy() -> None:
    """Taking a known Captain would show the Marshal to a Spy that is still about (a
    known Marshal is what the Spy hunts): expert leaves the Captain."""
    pieces = shown_marshal_bait(spy_alive=True)
    moved = tuple(s for s, (c, r) in pieces.items() if c == BLUE and r not in (BOMB, FLAG))
    game = endgame(pieces, moved=moved, revealed=(sq(5, 4),))
    for seed in range(3):
        move = expert_move(game, seed)
        assert move != Move(sq(4, 4), sq(5, 4))


def test_showing_the_marshal_costs_only_while_the_spy_may_live() -> None:
    take = Move(sq(4, 4), sq(5, 4))
    costs = []
    for spy_alive in (True, False):
        pieces = shown_marshal_bait(spy_alive)
        game = endgame(pieces, moved=(sq(5, 4),), revealed=(sq(5, 4),))
        view = game.view(RED)
        bot = ExpertPlayer(1)
        bot.start(RED, CLASSIC)
        costs.append(stealth(take, MoveScorer(view, build_beliefs(view), bot)))
    assert costs[0] > 0 and costs[1] == 0


def test_the_spy_is_suspected_beside_its_general_and_at_our_marshal() -> None:
    """A hidden piece beside Blue's known General, and one that walked up to Red's known
    Marshal, are each the Spy (or, the second, Blue's Marshal) more often than the rest."""
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(4, 4): (RED, MARSHAL),
        sq(1, 8): (RED, SERGEANT),
        sq(9, 9): (BLUE, FLAG),
        sq(9, 8): (BLUE, BOMB),
        sq(7, 4): (BLUE, GENERAL),
        sq(7, 5): (BLUE, SPY),
        sq(6, 0): (BLUE, SERGEANT),
        sq(6, 9): (BLUE, LIEUTENANT),
        sq(8, 2): (BLUE, MARSHAL),
        sq(5, 8): (BLUE, SCOUT),
    }
    pieces[sq(4, 6)] = pieces.pop(sq(5, 8))
    moved = (sq(7, 4), sq(7, 5), sq(6, 0), sq(6, 9), sq(8, 2), sq(4, 6))
    game = endgame(pieces, moved=moved, revealed=(sq(4, 4), sq(7, 4)), turn=BLUE)
    bot = ExpertPlayer(1)
    bot.start(RED, CLASSIC)
    bot.tracker.observe(game.view(RED))
    game.push(Move(sq(4, 6), sq(4, 5)))  # walks up to the known Marshal
    view = game.view(RED)
    bot.tracker.observe(view)
    plain = build_beliefs(view, bot.tracker)
    wary = build_beliefs(view, bot.tracker, adjust=suspicion.adjust)
    beside, walker, other = sq(7, 5), sq(4, 5), sq(6, 9)
    assert wary.p(beside, SPY) > 1.5 * plain.p(beside, SPY)
    assert wary.p(beside, SPY) > 2 * wary.p(other, SPY)
    assert wary.p(walker, SPY) > plain.p(walker, SPY)
    assert wary.p(walker, MARSHAL) > 1.5 * plain.p(walker, MARSHAL)


def probable_bomb() -> dict:
    """Red's Major stands next to an unmoved Blue piece that is a bomb (Blue's last
    bombs and its flag are among its five unmoved pieces)."""
    return {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(5, 4): (RED, MAJOR),
        sq(0, 5): (RED, SERGEANT),
        sq(9, 9): (BLUE, FLAG),
        sq(9, 8): (BLUE, BOMB),
        sq(8, 9): (BLUE, BOMB),
        sq(6, 4): (BLUE, BOMB),
        sq(6, 5): (BLUE, SERGEANT),
        sq(7, 4): (BLUE, LIEUTENANT),
        sq(6, 0): (BLUE, SERGEANT),
        sq(8, 2): (BLUE, SCOUT),
    }


def test_expert_sends_no_major_at_a_probable_bomb() -> None:
    """The chance that the piece is Blue's flag (it could be: every unmoved piece could)
    weighs the flag's whole worth in the search; the Major would die on the bomb for it."""
    game = endgame(probable_bomb(), moved=(sq(8, 2),))
    beliefs = build_beliefs(game.view(RED), flag_structure=True)
    assert beliefs.p(sq(6, 4), BOMB) > 0.3
    for seed in range(3):
        assert expert_move(game, seed) != Move(sq(5, 4), sq(6, 4))


def test_a_likely_flag_is_still_attacked_by_a_big_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    # a board made by hand: where people put each rank would say other things of its squares
    monkeypatch.setattr(ExpertPlayer, "people_prior", False)
    """Blue's only unmoved pieces are the flag and one bomb, far apart: the piece next to
    the Major is the flag half the time, and the Major takes the chance."""
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(8, 4): (RED, MAJOR),
        sq(0, 5): (RED, SERGEANT),
        sq(9, 4): (BLUE, FLAG),
        sq(9, 0): (BLUE, BOMB),
        sq(6, 0): (BLUE, SERGEANT),
        sq(5, 8): (BLUE, LIEUTENANT),
    }
    game = endgame(pieces, moved=(sq(6, 0), sq(5, 8)))
    assert build_beliefs(game.view(RED), flag_structure=True).p(sq(9, 4), FLAG) > 0.3
    assert expert_move(game) == Move(sq(8, 4), sq(9, 4))


def even_trade(enemy_movers: int) -> dict:
    """Red's known Lieutenant faces Blue's known Lieutenant; Red has three movers, Blue
    `enemy_movers` (the two Lieutenants' sides otherwise far apart)."""
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(4, 4): (RED, LIEUTENANT),
        sq(1, 8): (RED, SERGEANT),
        sq(2, 3): (RED, SCOUT),
        sq(9, 9): (BLUE, FLAG),
        sq(9, 8): (BLUE, BOMB),
        sq(8, 9): (BLUE, BOMB),
        sq(5, 4): (BLUE, LIEUTENANT),
    }
    extra = [
        (sq(7, 0), SERGEANT),
        (sq(7, 7), MINER),
        (sq(8, 3), SCOUT),
        (sq(6, 8), SERGEANT),
        (sq(8, 5), SCOUT),
        (sq(8, 1), SERGEANT),
        (sq(7, 2), MINER),
    ]
    for square, rank in extra[: enemy_movers - 1]:
        pieces[square] = (BLUE, rank)
    return pieces


def test_expert_trades_down_only_when_it_has_the_more_movers() -> None:
    """Attrition: whoever runs out of movable pieces first loses. With three movers against
    Blue's two, trading Lieutenants wins; against Blue's eight it brings Red's end nearer,
    and Red's Lieutenant steps away instead."""
    trades = Move(sq(4, 4), sq(5, 4))
    for movers, expected in ((2, True), (8, False)):
        pieces = even_trade(movers)
        moved = tuple(s for s, (c, r) in pieces.items() if r not in (BOMB, FLAG))
        game = endgame(pieces, moved=moved, revealed=(sq(4, 4), sq(5, 4)))
        for seed in range(2):
            assert (expert_move(game, seed) == trades) is expected, (movers, seed)


def test_a_hidden_piece_beside_bait_is_suspected_of_guarding_it() -> None:
    """Red's known General stands next to Blue's known Captain; the hidden piece beside the
    Captain is what would take the General after it took the Captain (a Marshal), four
    times as likely as the shared beliefs say; a hidden piece elsewhere is not."""
    pieces = {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(4, 4): (RED, GENERAL),
        sq(1, 8): (RED, SERGEANT),
        sq(9, 9): (BLUE, FLAG),
        sq(9, 8): (BLUE, BOMB),
        sq(5, 4): (BLUE, CAPTAIN),
        sq(5, 5): (BLUE, MARSHAL),
        sq(7, 0): (BLUE, SERGEANT),
        sq(7, 7): (BLUE, MINER),
        sq(8, 3): (BLUE, SCOUT),
        sq(6, 8): (BLUE, LIEUTENANT),
        sq(6, 0): (BLUE, MAJOR),
    }
    moved = tuple(s for s, (c, r) in pieces.items() if r not in (BOMB, FLAG))
    game = endgame(pieces, moved=moved, revealed=(sq(4, 4), sq(5, 4)))
    view = game.view(RED)
    plain, wary = build_beliefs(view), build_beliefs(view, adjust=suspicion.adjust)
    guard, elsewhere = sq(5, 5), sq(6, 8)
    assert wary.p(guard, MARSHAL) > 2 * plain.p(guard, MARSHAL)
    assert wary.p(guard, MARSHAL) > 2 * wary.p(elsewhere, MARSHAL)
    assert wary.p(guard, SERGEANT) < plain.p(guard, SERGEANT)


@pytest.mark.parametrize("color", [RED, BLUE])
def test_the_flag_stands_away_from_the_lanes_a_hunter_looks_beside(color: int) -> None:
    """A structure reader first looks for the flag beside the lane it attacks through (the
    edges and the middle): the flag stands in the third column from an edge, walled in,
    and the decoy in the far corner, a bomb walled in by bombs."""
    for seed in range(20):
        setup = decoy_setup(CLASSIC, color, random.Random(seed))
        [flag] = [s for s, r in setup.items() if r == FLAG]
        assert CLASSIC.is_back_row(color, flag) and walled_in(setup, flag)
        assert flag % 10 in (2, 7)
        corner = next(
            s
            for s in setup
            if CLASSIC.is_back_row(color, s) and s % 10 == (9 if flag % 10 == 2 else 0)
        )
        assert setup[corner] == BOMB and walled_in(setup, corner)


def marshal_beside_a_stranger() -> dict:
    """Red's known Marshal has a hidden Blue piece that has moved next to it, and another
    behind that one; elsewhere Red's hidden Colonel can take Blue's known Captain. Blue's
    Spy is among its hidden movers."""
    return {
        sq(0, 0): (RED, FLAG),
        sq(0, 1): (RED, BOMB),
        sq(1, 0): (RED, BOMB),
        sq(4, 4): (RED, MARSHAL),
        sq(5, 8): (RED, COLONEL),
        sq(1, 5): (RED, SERGEANT),
        sq(9, 9): (BLUE, FLAG),
        sq(9, 8): (BLUE, BOMB),
        sq(8, 9): (BLUE, BOMB),
        sq(5, 4): (BLUE, SPY),
        sq(6, 8): (BLUE, CAPTAIN),
        sq(7, 1): (BLUE, SERGEANT),
        sq(6, 4): (BLUE, LIEUTENANT),
        sq(8, 5): (BLUE, SCOUT),
        sq(7, 6): (BLUE, SERGEANT),
        sq(8, 2): (BLUE, MINER),
        sq(6, 0): (BLUE, SCOUT),
    }


def test_a_known_marshal_does_not_stay_beside_a_piece_that_may_be_the_spy() -> None:
    """Spy pattern: a program that knows our Marshal walks its Spy up to it. Our known
    Marshal does not stay next to a hidden piece that has moved, even for the Captain
    that the Colonel could take meanwhile: it steps away or takes the piece."""
    pieces = marshal_beside_a_stranger()
    moved = tuple(s for s, (c, r) in pieces.items() if c == BLUE and r not in (BOMB, FLAG))
    game = endgame(pieces, moved=moved, revealed=(sq(4, 4), sq(6, 8)))
    for seed in range(3):
        move = expert_move(game, seed)
        assert move.src == sq(4, 4), (seed, move)  # not the Colonel's capture
        assert move.dst == sq(5, 4) or sq(5, 4) not in CLASSIC.neighbors[move.dst], (seed, move)


def test_expert_walls_its_flag_in_the_middle_of_the_back_row() -> None:
    """A structure reader looks for the flag beside its attack lanes and among the back
    row's outer columns: expert's flag stands walled in, on the back row, in a middle
    column."""
    for seed in range(12):
        bot = ExpertPlayer(seed)
        bot.start(RED, CLASSIC)
        setup = bot.setup()
        [flag] = [s for s, r in setup.items() if r == FLAG]
        assert CLASSIC.is_back_row(RED, flag) and walled_in(setup, flag), seed
        assert flag % 10 in human_setups.QUIET_COLUMNS, seed
