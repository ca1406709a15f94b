"""The options line of a game page speaks the page's language, the pieces of a drawn army
included; the lobby's frame, one for every reader, carries the options as codes (the page
words them: static/ui/words.js)."""

from __future__ import annotations

from django.utils import translation

from games import engine
from games.domain import options


def test_the_game_pages_options_line_is_translated():
    control = options.BY_ID["5+3"]
    rules = {"two_squares_limit": 3}
    with translation.override("en"):
        english = options.summary("classic", control, rules)
        untimed = options.summary("classic", None, rules)
    with translation.override("nl"):
        dutch = options.summary("classic", control, rules)
    assert english == "5+3 (5 min + 3 s a move) · two-squares rule: 3 moves"
    assert untimed.startswith("untimed · ")
    assert dutch == "5+3 (5 min + 3 s per zet) · tweevakkenregel: 3 zetten"


def test_a_drawn_armys_pieces_are_named_in_the_pages_language():
    mini = engine.get_variant("mini").with_rules(
        army=[[engine.GENERAL, 1], [engine.MAJOR, 1], [engine.SERGEANT, 2], [engine.MINER, 1],
              [engine.SPY, 1], [engine.BOMB, 3], [engine.FLAG, 1]]
    )  # fmt: skip
    with translation.override("en"):
        english = options.chosen_pieces(mini)
    with translation.override("nl"):
        dutch = options.rules_text("mini", mini.rule_overrides())
    assert english == "General, Major, Sergeant ×2"
    assert "leger: Generaal, Majoor, Sergeant ×2" in dutch
