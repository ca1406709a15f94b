"""Games saved before the anti-stalling rework (runs as four numbers, chases as [chaser, chased,
positions])
still load, show the same views, offer the same moves and play on.

The fixture was written by the engine as it was before the change (commit 2c4c8ce)."""

import json
from pathlib import Path

import pytest

from games.engine import Game

SAVED = json.loads((Path(__file__).parent / "data" / "states_before_issue10.json").read_text())


def as_written_then(view: dict) -> dict:
    """A view today less the field added since the fixture was written (the private setup's `placed`
    counts of pieces on the board)."""
    return {key: value for key, value in view.items() if key != "placed"}


def private_setup(view: dict) -> dict:
    """The fixture's view with the other side's setup squares taken out: the views of then
    showed them (as rankless pieces), the private setup does not."""
    if view["phase"] != "setup":
        return view
    board = [p if p is not None and p["color"] == view["viewer"] else None for p in view["board"]]
    return {**view, "board": board}


@pytest.mark.parametrize("name", sorted(SAVED))
def test_a_game_saved_before_the_change_loads_with_the_same_views_and_moves(name):
    saved = SAVED[name]
    game = Game.from_dict(saved["state"])
    assert sorted([m.src, m.dst] for m in game.legal_moves()) == saved["legal_moves"]
    views = [as_written_then(game.view(viewer).to_dict()) for viewer in (0, 1, 2)]
    assert views == [private_setup(view) for view in saved["views"]]


@pytest.mark.parametrize("name", sorted(SAVED))
def test_a_loaded_game_saves_and_loads_again_and_plays_on(name):
    game = Game.from_dict(SAVED[name]["state"])
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.to_dict() == game.to_dict()
    if not again.is_over and again.phase == "playing":
        move = again.legal_moves()[0]
        assert game.push(move) == again.push(move)
        assert game.to_dict() == again.to_dict()
