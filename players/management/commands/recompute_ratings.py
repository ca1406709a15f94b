"""`manage.py recompute_ratings [--player NAME ...]`: rebuild ratings from the rated games."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from players import ratings


class Command(BaseCommand):
    help = (
        "Rebuild every rating from the rated games in the order they ended, or with --player "
        "only those players' ratings (against their opponents' ratings as they were)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--player", action="append", default=[], help="a username (repeatable)")

    def handle(self, *args, **options) -> None:
        names = options["player"]
        if not names:
            done = ratings.recompute_all()
            self.stdout.write(f"Recomputed all ratings from {done} rated games.")
            return
        users = get_user_model().objects.filter(username__in=names)
        missing = set(names) - {u.username for u in users}
        if missing:
            raise CommandError(f"No such player: {', '.join(sorted(missing))}")
        for user in users:
            done = ratings.recompute_player(user.pk)
            self.stdout.write(f"{user.username}: recomputed from {done} rated games.")
