"""expert moves few of its pieces: the first quiet move of a piece below a Colonel costs a
share of its worth (an unmoved piece may be a bomb to the opponent; a moved one is fair
game for its known Marshal and General), less once the game has been quiet long."""

from __future__ import annotations

import pytest
from test_expert import endgame, sq

from games.bots.expert import STILL, STILL_BELOW, ExpertPlayer
from games.bots.hard import MoveScorer
from games.bots.knowledge import build_beliefs
from games.engine import BLUE, BOMB, COLONEL, FLAG, MINER, RED, SCOUT, Move, get_variant

CLASSIC = get_variant("classic")
STEP = {MINER: Move(sq(3, 4), sq(4, 4)), COLONEL: Move(sq(3, 4), sq(4, 4))}


def positional(rank: int, moved: bool, quiet_turns: int = 0) -> tuple[float, MoveScorer]:
    pieces = {
        sq(0, 9): (RED, FLAG),
        sq(0, 8): (RED, BOMB),
        sq(1, 9): (RED, BOMB),
        sq(3, 4): (RED, rank),
        sq(9, 0): (BLUE, FLAG),
        sq(9, 1): (BLUE, BOMB),
        sq(8, 0): (BLUE, BOMB),
        sq(7, 5): (BLUE, SCOUT),
    }
    pieces.update({sq(0, col): (RED, SCOUT) for col in range(6)})  # movers enough
    game = endgame(pieces, moved=(sq(3, 4),) if moved else (), revealed=(sq(7, 5),))
    view = game.view(RED)
    bot = ExpertPlayer(1)
    bot.start(RED, CLASSIC)
    bot.quiet_turns = quiet_turns
    scorer = MoveScorer(view, build_beliefs(view), bot)
    return bot.positional(STEP[rank], scorer), scorer


def test_a_small_pieces_first_move_costs_a_share_of_its_worth() -> None:
    unmoved, scorer = positional(MINER, moved=False)
    moved, _ = positional(MINER, moved=True)
    worth = scorer.values.mine[MINER]
    assert worth < STILL_BELOW
    assert moved - unmoved == pytest.approx(STILL * worth)
    assert STILL * worth > 0


def test_a_colonel_moves_as_freely_the_first_time_as_later() -> None:
    unmoved, _ = positional(COLONEL, moved=False)
    moved, _ = positional(COLONEL, moved=True)
    assert unmoved == moved


def test_the_cost_fades_as_a_quiet_spell_grows() -> None:
    fresh, _ = positional(MINER, moved=False)
    quiet, _ = positional(MINER, moved=False, quiet_turns=45)
    moved, _ = positional(MINER, moved=True, quiet_turns=45)
    assert fresh < quiet
    assert moved - quiet < moved - fresh
