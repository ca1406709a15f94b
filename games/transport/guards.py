"""Per-socket limits: frame size and a token bucket against floods."""

from __future__ import annotations

import json
import re
import time

from django.utils.translation import gettext as _

from games.domain import error_codes
from games.domain.chat_message import PLAYERS, ROOMS
from games.engine.errors import CodedError

MAX_FRAME_BYTES = 4096
RATE_PER_SECOND = 20.0
BURST = 40.0
# Close codes an application may send: 1000 or 3000-4999 (RFC 6455, and autobahn, under
# daphne, refuses anything else: 1009 from a consumer crashes it and the client sees 1011).
CLOSE_TOO_BIG = 4009
CLOSE_FLOOD = 4008
CLOSE_NOT_FOUND = 4404


class TokenBucket:
    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class BadFrame(CodedError):
    CODES = error_codes.FRAME

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)


def frame_size(text: str | None, data: bytes | None) -> int:
    if text is not None:
        return len(text.encode("utf-8", errors="surrogatepass"))
    return len(data or b"")


def parse_frame(text: str | None, data: bytes | None) -> dict:
    """The JSON object of a frame, or BadFrame. Binary frames are refused."""
    if text is None:
        raise BadFrame("bad_json", _("Send JSON text frames."))
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise BadFrame("bad_json", _("The frame is not valid JSON.")) from None
    if not isinstance(message, dict):
        raise BadFrame("bad_json", _("The frame must be a JSON object."))
    if not isinstance(message.get("type"), str):
        raise BadFrame("unknown_type", _("The message needs a string field 'type'."))
    return message


def int_field(message: dict, name: str, nullable: bool = False) -> int | None:
    if name not in message:
        raise BadFrame("bad_field", _("Field '%(name)s' is missing.") % {"name": name})
    value = message[name]
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadFrame("bad_field", _("Field '%(name)s' must be an integer.") % {"name": name})
    if not -(2**31) <= value < 2**31:
        raise BadFrame("bad_field", _("Field '%(name)s' is out of range.") % {"name": name})
    return value


SQUARE_KEY = re.compile(r"0|[1-9][0-9]{0,8}")  # a square as JSON object key: "0", "37", ...


def placement_field(message: dict, name: str) -> dict[int, int]:
    """An object {"<square>": rank, ...} as {square: rank}. Keys are squares written as
    decimal integers without sign or leading zero (so no two keys name one square)."""
    if name not in message:
        raise BadFrame("bad_field", _("Field '%(name)s' is missing.") % {"name": name})
    value = message[name]
    if not isinstance(value, dict):
        raise BadFrame(
            "bad_field", _("Field '%(name)s' must be an object of square: rank.") % {"name": name}
        )
    placement = {}
    for key in value:
        if not SQUARE_KEY.fullmatch(key):
            raise BadFrame(
                "bad_field",
                _("'%(name)s' keys are squares like \"37\", not %(key)r.")
                % {"name": name, "key": key},
            )
        placement[int(key)] = int_field(value, key)
    return placement


# ---------------------------------------------------------------- chat frames


def room_field(message: dict) -> str:
    room = message.get("room", PLAYERS)
    if room not in ROOMS:
        raise BadFrame("bad_field", _("Field 'room' must be 'players' or 'spectators'."))
    return room


def text_field(message: dict) -> str:
    text = message.get("text")
    if not isinstance(text, str):
        raise BadFrame("bad_field", _("Field 'text' must be a string."))
    return text
