"""The options line of a game page speaks the page's language; the lobby's line, one frame for
every reader of the lobby socket, stays English."""

from __future__ import annotations

from django.utils import translation

from games.domain import options


def test_the_game_pages_options_line_is_translated():
    control = options.BY_ID["5+3"]
    rules = {"two_squares_limit": 3}
    with translation.override("en"):
        english = options.summary("classic", control, rules)
        untimed = options.summary("classic", None, rules)
    with translation.override("nl"):
        dutch = options.summary("classic", control, rules)
        lobby = options.lobby_line(control, rules)
    assert english == "5+3 (5 min + 3 s a move) · two-squares rule: 3 moves"
    assert untimed.startswith("untimed · ")
    assert dutch == "5+3 (5 min + 3 s per zet) · tweevakkenregel: 3 zetten"
    assert lobby == "5+3 · two-squares 3"
