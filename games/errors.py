"""The one error the services raise: a machine `code` and a human `message`."""


class ServiceError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def to_frame(self, request: str | None = None) -> dict:
        frame = {"type": "error", "code": self.code, "message": self.message}
        if request is not None:
            frame["request"] = request
        return frame
