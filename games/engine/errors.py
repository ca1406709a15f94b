"""The engine's errors: bad notation, bad setups and illegal moves are told apart.

`CodedError` is the one base of every error that carries a machine-readable `code` and a
`message` a person understands: a `ValueError`, as python-chess's errors are. The engine's
`SetupError` and `IllegalMoveError`, the services' `ServiceError` and the socket guards'
`BadFrame` all derive from it.
"""

from __future__ import annotations


class CodedError(ValueError):
    """An error with a `code` (stable, for programs) and a `message` (for people)."""

    code: str
    message: str

    def __init__(self, code: str, message: str | None = None) -> None:
        # A subclass that passes only its message up and sets `code` itself is accepted too.
        if message is None:
            code, message = "", code
        super().__init__(message)
        self.code = code
        self.message = message


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class NotationError(EngineError, ValueError):
    """Text that is not a square, move, rank or record."""


class SetupError(CodedError, EngineError):
    """A placement, removal or setup that the rules refuse. `code` is machine-readable."""


class IllegalMoveError(CodedError, EngineError):
    """A move the rules refuse; `message` is a reason a player understands."""


class RulesError(EngineError, ValueError):
    """A rule setting that does not exist or has a value the engine cannot play."""
