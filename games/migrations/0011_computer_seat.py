"""A computer seat is a field of the seat (its level), not only a session key to parse."""

from django.db import migrations, models

PREFIX = "computer:"


def fill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for color in ("red", "blue"):
        seats = Game.objects.filter(
            **{f"{color}_user": None, f"{color}_session__startswith": PREFIX}
        )
        for game in seats.only("pk", f"{color}_session"):
            level = getattr(game, f"{color}_session")[len(PREFIX) :].split(":")[0]
            Game.objects.filter(pk=game.pk).update(**{f"{color}_computer": level})


class Migration(migrations.Migration):
    dependencies = [("games", "0010_chat")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="red_computer",
            field=models.CharField(blank=True, default="", max_length=16),
        ),
        migrations.AddField(
            model_name="game",
            name="blue_computer",
            field=models.CharField(blank=True, default="", max_length=16),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
