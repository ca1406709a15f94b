from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_backfill_start_times"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="rated",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="game",
            name="rating_min",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="rating_max",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
    ]
