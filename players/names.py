"""Names nobody can borrow: a guest's nickname and an account's username compared as they
look, not as they are spelled.

Two names clash when their keys are equal. The key of a name is its Unicode NFKC form,
case-folded, with each character replaced by the representative of its class of look-alikes
in Unicode's confusables data (UTS #39, through the `confusable-homoglyphs` package), done
twice around a second case fold, and a small i counted as an l (case folding makes a capital
I, which looks like l, an i): `Wes`, `wes`, `WES` and `Wеs` (Cyrillic е) all key as `wes`;
`Bill`, `BilI` and `Bi11` as `blll`; `mary` and `rnary` as `rnary`.

A name is free for someone when its key is not an account's (other than their own), not a
live guest's (another browser session still signed on with it), and not reserved (the
computer's name and its levels, the staff's titles, the lobby's word for an empty seat).
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import confusables

from games.bots import LEVELS

# Names nobody may take, whole or (PREFIXES) as the start of a name.
RESERVED = frozenset(
    {
        *LEVELS,
        "computer", "admin", "administrator", "moderator", "moderators", "mod", "staff",
        "system", "server", "root", "stratego", "guest", "anonymous", "bot", "free", "nobody",
        "red", "blue",
    }
)  # fmt: skip
RESERVED_PREFIXES = ("computer", "admin", "moderator")


@functools.cache
def prototype(char: str) -> str:
    """The representative of `char`'s class of look-alikes (itself when it has none). The
    package's table lists, for a class's representative, all its members, and for a member,
    the representative alone; a class of two lists each for the other, and the ASCII one
    (else the lower code point) stands for both."""
    entries = confusables.confusables_data.get(char)
    if not entries:
        return char
    if len(entries) > 1:
        return char  # a representative
    other = entries[0]["c"].strip("\u200e")  # (right-to-left glyphs come marked)
    if len(confusables.confusables_data.get(other) or ()) > 1:
        return other
    return min((char, other), key=lambda c: (not c.isascii(), c))


def skeleton(text: str) -> str:
    return "".join(prototype(ch) for ch in text)


def name_key(name: str) -> str:
    """The key two names clash on (see the module's docstring)."""
    folded = unicodedata.normalize("NFKC", name).strip().casefold()
    once = skeleton(folded).casefold()
    twice = unicodedata.normalize("NFKC", skeleton(once)).casefold()
    return twice.replace("i", "l")  # a capital I, folded to i, looks like l


RESERVED_KEYS = frozenset(name_key(word) for word in RESERVED)
RESERVED_PREFIX_KEYS = tuple(name_key(word) for word in RESERVED_PREFIXES)


def is_reserved(name: str) -> bool:
    key = name_key(name)
    return key in RESERVED_KEYS or key.startswith(RESERVED_PREFIX_KEYS)
