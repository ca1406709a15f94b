"""Games ready to play, made by the runner through the services (as the site makes them):
two guests with real sessions, seated, random setups, both ready."""

from __future__ import annotations

import random


def setup_django(env: dict[str, str]) -> None:
    import os

    import django

    os.environ.update(env)
    django.setup()


def guest(name: str) -> tuple[str, object]:
    from django.contrib.sessions.backends.db import SessionStore

    from games.domain.identity import NICKNAME_KEY, Identity

    session = SessionStore()
    session[NICKNAME_KEY] = name
    session.create()
    return session.session_key, Identity(user_id=None, session_key=session.session_key, name=name)


def ready_games(count: int, seed: int, variant: str = "classic") -> list[dict]:
    """`count` games in play; each as {id, red, blue} with the players' session keys."""
    from games import services

    rng = random.Random(seed)
    games = []
    for i in range(count):
        red_key, red = guest(f"benchred{i}")
        blue_key, blue = guest(f"benchblue{i}")
        game = services.create_game(red, variant=variant, seat=0)
        services.join_game(game.public_id, blue)
        for ident in (red, blue):
            services.random_setup(game.public_id, ident, seed=rng.randrange(2**31))
            services.ready(game.public_id, ident)
        games.append({"id": game.public_id, "red": red_key, "blue": blue_key})
    return games
