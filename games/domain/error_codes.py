"""Every error code the server can send in an `error` frame: the one registry.

The error classes take their `CODES` from here (games/domain/errors.py, games/transport/guards.py,
games/transport/limits.py), and `CodedError` refuses a code missing from its class's set, so a code
cannot be raised without being registered. tests/server/test_protocol_doc.py checks that
docs/protocol.md's table of error codes lists exactly `SENT`.
"""

from __future__ import annotations

from games.engine.errors import IllegalMoveError, SetupError

# The socket guards (games/transport/guards.py `BadFrame`): a frame the server cannot read.
FRAME = frozenset({"bad_json", "unknown_type", "bad_field"})

# Refused on connecting (games/transport/limits.py `Refused`): then close 4029.
CONNECTING = frozenset({"too_many_sockets", "reconnecting_too_fast"})

# Sent by the consumers themselves (games/transport/consumers.py).
SOCKET = frozenset({"not_found", "rate_limited", "server_error", "unavailable"})

# The engine's own codes, passed on as they are by the services (`services.engine_error`).
ENGINE = SetupError.CODES | IllegalMoveError.CODES

# The services' refusals (games/domain/errors.py `ServiceError`): games/services.py, match.py,
# options.py, players/ratings.py, players/pairing.py, the legacy door.
SERVICE = frozenset(
    {
        "not_found",
        "not_a_player",
        "no_identity",
        "bad_variant",
        "bad_level",
        "bad_time_control",
        "bad_rules",
        "bad_seat",
        "time_out",
        "no_opponent",
        "computer_opponent",
        "timed_game",
        "opponent_connected",
        "claim_too_early",
        "seat_taken",
        "game_full",
        "already_seated",
        "not_your_draw_offer",
        "no_draw_offer",
        "draw_offer_too_soon",
        "too_late_to_abort",
        "game_not_over",
        "rematch_pending",
        "rematch_done",
        "no_rematch_offer",
        "not_your_rematch_offer",
        "not_a_spectator",
        "bad_chat",
        "chat_too_fast",
        "game_not_active",
        "not_setup_phase",
        "not_playing",
        "rated_needs_account",
        "rated_banned",
        "too_many_waiting",
        "muted",  # moderation/sanctions.py
        "banned",
        "rating_out_of_range",
        "bad_rating_range",
        "illegal",  # an engine refusal without a code of its own (`services.engine_error`)
    }
)

# Raised only inside the legacy door (games/transport/legacy/session.py), which answers in the old
# protocol: never in an `error` frame.
LEGACY_ONLY = frozenset({"bad_piece"})

# Every code a client of the game and lobby sockets can receive.
SENT = FRAME | CONNECTING | SOCKET | ENGINE | SERVICE


def sent(code: str) -> str:
    """`code`, refused (ValueError) unless registered: for frames built without an error class."""
    if code not in SENT:
        raise ValueError(f"error code {code!r} is not in games/domain/error_codes.py")
    return code
