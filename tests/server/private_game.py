"""`python -m tests.server.private_game`: a mini game set up and ready on the database of
DATABASE_URL (a private cluster's), printed as JSON [game id, Red's session, Blue's]."""

import json

import django

django.setup()

from .helpers import set_up_game  # noqa: E402

if __name__ == "__main__":
    gid, red, blue = set_up_game()
    print(json.dumps([gid, red.session_key, blue.session_key]))
