"""An event's (or an entrant's) number in a URL: 1 to 9 digits, so a huge number is a 404
and never reaches the database as an out-of-range integer."""

from django.urls import register_converter


class EventNumber:
    regex = "[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(EventNumber, "event")
