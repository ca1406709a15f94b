"""The engine's errors: bad notation, bad setups and illegal moves are told apart.

`CodedError` is the one base of every error that carries a machine-readable `code` and a
`message` a person understands: a `ValueError`, as python-chess's errors are. The engine's
`SetupError` and `IllegalMoveError`, the services' `ServiceError` and the socket guards'
`BadFrame` all derive from it.
"""

from __future__ import annotations

from typing import ClassVar


class CodedError(ValueError):
    """An error with a `code` (stable, for programs) and a `message` (for people).

    A subclass may list its codes in `CODES`: the registry the documentation is checked
    against (tests/engine/test_docs.py); raising a code missing from it is a bug, refused."""

    CODES: ClassVar[frozenset[str]] = frozenset()
    code: str
    message: str

    def __init__(self, code: str, message: str | None = None) -> None:
        # A subclass that passes only its message up and sets `code` itself is accepted too.
        if message is None:
            code, message = "", code
        elif self.CODES and code not in self.CODES:
            raise ValueError(f"{type(self).__name__} has no code {code!r}: add it to CODES")
        super().__init__(message)
        self.code = code
        self.message = message


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class NotationError(EngineError, ValueError):
    """Text that is not a square, move, rank or record."""


class SetupError(CodedError, EngineError):
    """A placement, removal or setup that the rules refuse. `code` is machine-readable."""

    CODES = frozenset(
        {
            "not_a_player",
            "not_setup_phase",
            "already_ready",
            "off_board",
            "outside_setup_area",
            "lake",
            "occupied",
            "none_left",
            "empty_square",
            "incomplete",
            "flag_not_on_back_row",
            "unknown_rank",
        }
    )


class IllegalMoveError(CodedError, EngineError):
    """A move the rules refuse; `message` is a reason a player understands."""

    CODES = frozenset(
        {
            "not_playing",
            "game_over",
            "not_your_turn",
            "off_board",
            "empty_square",
            "not_your_piece",
            "immovable",
            "same_square",
            "lake",
            "own_piece",
            "not_straight",
            "too_far",
            "path_blocked",
            "two_squares",  # the anti-stalling rules: games/engine/stalling.py
            "more_squares",
            "return_too_soon",
        }
    )


class RulesError(EngineError, ValueError):
    """A rule setting that does not exist or has a value the engine cannot play."""
