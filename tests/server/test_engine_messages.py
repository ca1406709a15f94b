"""The engine speaks English only (no Django): its refusals are put in the reader's language
at the services boundary, by code (games/services/unit.py `ENGINE_MESSAGES`)."""

from __future__ import annotations

from django.utils import translation

from games.domain import error_codes
from games.engine.errors import IllegalMoveError, SetupError
from games.services.unit import ENGINE_MESSAGES, engine_error


def test_every_engine_code_has_words_to_translate():
    assert set(ENGINE_MESSAGES) == error_codes.ENGINE | {"illegal"}


def test_an_engine_refusal_keeps_its_code_and_english_words_and_is_translated():
    exc = IllegalMoveError("not_your_turn", "it is not your turn")
    with translation.override("en"):
        english = engine_error(exc)
    with translation.override("nl"):
        dutch = engine_error(exc)
    assert english.code == dutch.code == "not_your_turn"
    assert english.message == "it is not your turn"
    assert dutch.message == "Je bent niet aan de beurt."
    placed = engine_error(SetupError("lake", "pieces cannot stand in a lake"))
    assert placed.code == "lake" and placed.message == "pieces cannot stand in a lake"
