"""The engine's errors: bad notation, bad setups and illegal moves are told apart."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class NotationError(EngineError, ValueError):
    """Text that is not a square, move, rank or record."""


class _CodedError(EngineError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class SetupError(_CodedError):
    """A placement, removal or setup that the rules refuse. `code` is machine-readable."""


class IllegalMoveError(_CodedError):
    """A move the rules refuse; `message` is a reason a player understands."""


class RulesError(EngineError, ValueError):
    """A rule setting that does not exist or has a value the engine cannot play."""
