"""Setups are private: the stored setup events of games written before told the
opponent and observers which squares were filled and in which order. Their payloads for
everybody but the owner become what a new event carries: the count of placed pieces."""

from __future__ import annotations

from django.db import migrations

SETUP_KINDS = ("placed", "removed", "random_setup", "setup", "cleared")


def count_after(placed: set[int], payload: dict) -> None:
    """The owner's payload says what changed: the squares it occupies after the event."""
    kind = payload["kind"]
    if kind == "placed":
        placed.add(payload["square"])
    elif kind == "removed":
        placed.discard(payload["square"])
    elif kind == "random_setup":
        placed.update(payload["squares"])
    elif kind == "setup":
        placed.clear()
        placed.update(payload["squares"])
    else:  # cleared
        placed.clear()


def hide_setups(apps, schema_editor) -> None:
    GameEvent = apps.get_model("games", "GameEvent")
    events = GameEvent.objects.filter(kind__in=SETUP_KINDS).order_by("game_id", "version")
    squares: dict[tuple[int, int], set[int]] = {}
    for event in events.iterator():
        color = event.red_payload.get("color", 0)
        own = event.red_payload if color == 0 else event.blue_payload
        placed = squares.setdefault((event.game_id, color), set())
        count_after(placed, own)
        hidden = {"kind": event.kind, "color": color, "placed": len(placed)}
        event.observer_payload = hidden
        if color == 0:
            event.blue_payload = hidden
        else:
            event.red_payload = hidden
        event.save(update_fields=["red_payload", "blue_payload", "observer_payload"])


class Migration(migrations.Migration):
    dependencies = [("games", "0008_rated")]
    operations = [migrations.RunPython(hide_setups, migrations.RunPython.noop)]
