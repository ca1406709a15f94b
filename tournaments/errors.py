"""The one error of the tournaments app: a machine `code` and a human `message`, as the
game services' ServiceError (the pages show the message, the Bot API sends both)."""

from games.engine.errors import CodedError

CODES = frozenset(
    {
        "account_needed",
        "already_entered",
        "already_started",
        "bad_name",
        "bad_format",
        "bad_rounds",
        "bad_minutes",
        "bad_start",
        "bad_level",
        "bad_variant",
        "bad_time_control",
        "bad_rating_range",
        "banned",
        "event_over",
        "full",
        "invitation_needed",
        "not_allowed",
        "not_entered",
        "not_found",
        "rated_banned",
        "rated_needs_account",
        "rating_out_of_range",
        "too_many_events",
    }
)


class TournamentError(CodedError):
    CODES = CODES

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def to_dict(self) -> dict:
        return {"error": self.code, "message": self.message}
