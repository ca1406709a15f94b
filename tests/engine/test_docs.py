"""The engine's documentation says what the code does: error codes, notes, names, formats."""

import re
from pathlib import Path

import pytest

from games.engine import (
    VARIANTS,
    Game,
    IllegalMoveError,
    NotationError,
    SetupError,
    generate_setup,
    get_variant,
)
from games.engine.player_interface import DUEL_PIECE_NAMES
from games.engine.records import write_gsn, write_xml

REPO = Path(__file__).resolve().parents[2]


def documented_codes(error: str) -> set[str]:
    text = (REPO / "docs" / "engine.md").read_text()
    match = re.search(rf"`{error}\.code` is one of:(.*?)\.\n", text, re.S)
    assert match, f"docs/engine.md lists no {error} codes"
    return set(re.findall(r"`(\w+)`", match.group(1)))


@pytest.mark.parametrize("error", [SetupError, IllegalMoveError])
def test_the_documented_error_codes_are_exactly_the_registered_ones(error):
    assert len(error.CODES) > 5
    assert documented_codes(error.__name__) == error.CODES


def test_an_unregistered_code_cannot_be_raised():
    with pytest.raises(ValueError, match="no code 'typo'"):
        IllegalMoveError("typo", "a code nobody documented")
    assert IllegalMoveError("lake", "no piece may enter a lake").code == "lake"


def test_variant_notes_do_not_give_isf_a_move_cap():
    for variant in VARIANTS.values():
        if variant.max_quiet_plies is not None and "ISF" in variant.notes:
            assert "this server" in variant.notes, variant.name
            assert "a draw at 200 moves" not in variant.notes


def test_the_rules_page_names_the_duel_pieces_as_the_code_does():
    text = (REPO / "docs" / "rules.md").read_text()
    assert "DUEL_PIECE_NAMES" in text and "DuelPlayer" in text
    for name in DUEL_PIECE_NAMES:
        assert name in text


def test_mini_games_cannot_be_written_as_records_and_the_docs_say_so():
    v = get_variant("mini")
    game = Game.from_setups(v, generate_setup(v, 0), generate_setup(v, 1))
    for write in (write_xml, write_gsn):
        with pytest.raises(NotationError, match="mini"):
            write(game)
    text = " ".join((REPO / "docs" / "rules.md").read_text().split())
    assert "Mini games cannot be written as records" in text
