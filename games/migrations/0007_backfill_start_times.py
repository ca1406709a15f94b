"""Games already in setup or in play when 0005 and 0006 added their start times have none:
the never-connected rule (games/transport/presence.py, never_connected) would never apply to them, and
absence would count from no setup start. They get the migration's time (a setup keeps the
start time it already had): absence counts from now at the earliest."""

from django.db import migrations
from django.db.models import F
from django.utils import timezone

UNDER_WAY = ("setup", "playing")


def backfill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    now = timezone.now()
    under_way = Game.objects.filter(status__in=UNDER_WAY)
    under_way.filter(status="setup", setup_started=None).exclude(turn_started=None).update(
        setup_started=F("turn_started")
    )
    under_way.filter(turn_started=None).update(turn_started=now)
    under_way.filter(setup_started=None).update(setup_started=now)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_game_setup_started"),
    ]

    operations = [
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
