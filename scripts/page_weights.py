"""What each page weighs: the HTML and every file it loads (stylesheets, scripts, the game
client's modules followed through their imports, the icon), as sent raw and as transferred
with gzip, and how many requests that takes. Figures into docs/performance.md.

    # a server running (make run), its database reachable from here (the same DATABASE_URL):
    .venv/bin/python scripts/page_weights.py --base http://127.0.0.1:8000 --long-game 500

--long-game N first plays a classic game of N plies through the services (random legal
moves), so that its game page and its replay are measured too.
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import re
import sys
import urllib.request
from urllib.parse import urljoin

ASSET = re.compile(r'<(?:script[^>]*\bsrc|link[^>]*\bhref)="([^"]+)"')
IMPORT = re.compile(r'^\s*import\s+(?:[^"\']*?\s+from\s+)?["\']([^"\']+)["\']', re.M)


def fetch(url: str) -> tuple[bytes, int]:
    """The body and the bytes transferred when the client accepts gzip."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=30) as response:
        raw = response.read()
        if response.headers.get("Content-Encoding") == "gzip":
            return gzip.decompress(raw), len(raw)
        return raw, len(raw)


def weigh(base: str, path: str) -> dict:
    seen: dict[str, tuple[int, int]] = {}
    html, sent = fetch(base + path)
    seen[base + path] = (len(html), sent)
    todo = [urljoin(base + path, ref) for ref in ASSET.findall(html.decode("utf-8", "replace"))]
    while todo:
        url = todo.pop()
        if url in seen or not url.startswith(base) or url.startswith(base + "/ws/"):
            continue
        body, sent = fetch(url)
        seen[url] = (len(body), sent)
        if url.split("?")[0].endswith(".js"):
            todo += [urljoin(url, ref) for ref in IMPORT.findall(body.decode("utf-8", "replace"))]
    return {
        "page": path,
        "requests": len(seen),
        "html": len(html),
        "raw": sum(raw for raw, _ in seen.values()),
        "sent": sum(sent for _, sent in seen.values()),
    }


def long_game(plies: int) -> str:
    """A finished classic game of at least `plies` plies, played through the services."""
    sys.path.insert(0, os.getcwd())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stratego_site.settings")
    import django

    django.setup()
    from django.contrib.sessions.backends.db import SessionStore

    from games import engine, services
    from games.domain.identity import NICKNAME_KEY, Identity
    from games.models import Game

    def guest(name: str) -> Identity:
        session = SessionStore()
        session[NICKNAME_KEY] = name
        session.create()
        return Identity(user_id=None, session_key=session.session_key, name=name)

    for seed in range(50):
        people = (guest("weigh-red"), guest("weigh-blue"))
        gid = services.create_game(people[0], variant="classic", seat=0).public_id
        services.join_game(gid, people[1])
        for color, ident in enumerate(people):
            services.random_setup(gid, ident, seed=seed * 2 + color)
            services.ready(gid, ident)
        rng = random.Random(seed)
        for ply in range(plies):
            state = engine.Game.from_dict(Game.objects.get(public_id=gid).state)
            if state.outcome is not None:
                break
            view = state.view(state.turn).to_dict()
            moves = view["legal_moves"]
            quiet = [m for m in moves if view["board"][m[1]] is None]
            # Mostly quiet moves (the game lasts), a battle now and then (the quiet-move cap).
            pick = moves if ply % 100 == 99 or not quiet else quiet
            services.move(gid, people[state.turn], *rng.choice(pick))
        game = Game.objects.get(public_id=gid)
        if game.ply >= plies:
            if game.status == "playing":
                services.resign(gid, people[game.ply % 2])
            return gid
    raise SystemExit("no game lasted that long")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--long-game", type=int, default=0)
    parser.add_argument("paths", nargs="*", default=["/", "/learn/", "/learn/rules/", "/players/"])
    args = parser.parse_args()
    paths = list(args.paths)
    if args.long_game:
        gid = long_game(args.long_game)
        paths += [f"/games/{gid}/", f"/games/{gid}/replay/"]
    print("| page | requests | HTML bytes | all bytes | sent with gzip |")
    print("|---|---:|---:|---:|---:|")
    for path in paths:
        try:
            row = weigh(args.base.rstrip("/"), path)
        except OSError as exc:
            print(f"| {path} | ({exc}) | | | |")
            continue
        shown = re.sub(r"/games/\w+/", "/games/<id>/", row["page"])
        figures = f"{row['requests']} | {row['html']:,} | {row['raw']:,} | {row['sent']:,}"
        print(f"| {shown} | {figures} |")


if __name__ == "__main__":
    main()
