"""Path converters that accept only the shape of a real id, so junk in a URL (a NUL byte,
a 10,000-digit number, "%ff") is a 404 from the resolver and never reaches the database,
where PostgreSQL would refuse it with an error (HTTP 500)."""

from __future__ import annotations

import re

from django.urls import register_converter

from .domain.models import ID_ALPHABET, ID_LENGTH


class GameIdConverter:
    """A game's public id: exactly the shape `models.new_public_id` makes."""

    regex = f"[{re.escape(ID_ALPHABET)}]{{{ID_LENGTH}}}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class VariantNameConverter:
    """A variant's name: lowercase letters (the engine says whether it exists)."""

    regex = "[a-z]{1,16}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class UsernameConverter:
    """An account's name in a profile's path: as Django's `str`, but never a NUL byte (which
    PostgreSQL refuses in a query: a 500) and at most a username's 150 characters."""

    regex = "[^/\x00]{1,150}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class RowIdConverter:
    """A database row id that fits PostgreSQL's integer (a longer one would overflow)."""

    regex = "[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


def register() -> None:
    """Register once per process (Django refuses a second registration of a name)."""
    from django.urls.converters import get_converters

    known = get_converters()
    for name, converter in (
        ("game_id", GameIdConverter),
        ("variant", VariantNameConverter),
        ("row_id", RowIdConverter),
        ("username", UsernameConverter),
    ):
        if name not in known:
            register_converter(converter, name)
