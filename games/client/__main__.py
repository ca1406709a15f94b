"""`python -m games.client --server URL --token T --player module:Class [--game ID]`."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging

from websockets.exceptions import InvalidStatus

from games.engine.players import Player

from .connection import BotConnection
from .seat import PlayerSeat

LEVELS = ("random", "medium", "hard")


def load_player(spec: str) -> Player:
    """`module:Class` (instantiated without arguments), or a computer level's name."""
    if spec in LEVELS:
        from games.bots import get_player

        return get_player(spec)
    module_name, _, class_name = spec.partition(":")
    if not class_name:
        raise SystemExit(f"--player takes module:Class or one of {', '.join(LEVELS)}")
    player = getattr(importlib.import_module(module_name), class_name)()
    if not isinstance(player, Player):
        raise SystemExit(f"{spec} is not a games.engine.players.Player")
    return player


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m games.client", description=__doc__)
    parser.add_argument("--server", required=True, help="e.g. http://localhost:8000")
    parser.add_argument("--token", required=True, help="the bot account's API token")
    parser.add_argument("--player", required=True, help="module:Class, or random/medium/hard")
    parser.add_argument("--game", help="join this game (default: the first open one)")
    parser.add_argument("--variant", help="only accept open games of this variant")
    parser.add_argument("--games", type=int, default=1, help="how many games to play")
    return parser.parse_args(argv)


async def run(args: argparse.Namespace) -> list[dict | None]:
    connection = BotConnection(args.server, args.token)
    results = []
    for _ in range(args.games):
        public_id = args.game or await connection.seek(args.variant)
        print(f"playing game {public_id}", flush=True)
        result = await connection.play(public_id, PlayerSeat(load_player(args.player)))
        print(f"game {public_id} over: {result}", flush=True)
        results.append(result)
    return results


def main(argv: list[str] | None = None) -> None:
    logging.basicConfig(level=logging.WARNING)
    try:
        asyncio.run(run(parse(argv)))
    except InvalidStatus as exc:
        status = exc.response.status_code
        raise SystemExit(
            f"The server refused the socket (HTTP {status}): is the token right?"
        ) from None
    except OSError as exc:
        raise SystemExit(f"Could not reach the server: {exc}") from exc


if __name__ == "__main__":
    main()
