"""The one error the services raise: a machine `code` and a human `message`."""

from games.domain import error_codes
from games.engine.errors import CodedError


class ServiceError(CodedError):
    CODES = error_codes.SERVICE | error_codes.ENGINE | error_codes.LEGACY_ONLY

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def to_frame(self, request: str | None = None) -> dict:
        frame = {"type": "error", "code": self.code, "message": self.message}
        if request is not None:
            frame["request"] = request
        return frame
