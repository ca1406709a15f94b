"""`python manage.py bot_token NAME`: make NAME a bot account and print a new API token once;
`--revoke HINT` revokes the token(s) of NAME starting with HINT."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from botapi.models import ApiToken
from botapi.tokens import make_bot


class Command(BaseCommand):
    help = "Mark an account as a bot and issue it an API token (printed once), or revoke one."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--label", default="")
        parser.add_argument("--revoke", metavar="HINT", help="revoke the tokens starting so")

    def handle(self, *args, **options) -> None:
        name = options["username"]
        if options["revoke"]:
            tokens = ApiToken.objects.filter(
                bot__user__username=name, hint__startswith=options["revoke"][:10]
            )
            if not tokens:
                raise CommandError(f"{name} has no token starting with {options['revoke']!r}")
            for token in tokens:
                token.revoke()
            self.stdout.write(f"revoked {len(tokens)} token(s) of {name}")
            return
        _, raw = make_bot(name, options["label"])
        self.stdout.write(raw)
