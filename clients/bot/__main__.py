"""`python -m games.client --server URL --token T --player module:Class`: a program plays on a
server with a bot account's token. By default it joins an open game of the lobby; `--create`
opens one (variant, clock) and waits for an opponent, a person or another bot; `--games N`
or `--forever` play game after game; `--tournament ID` enters an event and plays every game
it is paired in (docs/bots.md)."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging

from websockets.exceptions import InvalidStatus

from games.engine.player_interface import Player

from .connection import ApiError, BotConnection
from .seat import PlayerSeat

LEVELS = ("random", "medium", "hard", "expert")
SEATS = {"red": 0, "blue": 1, "random": None}


def load_player(spec: str) -> Player:
    """`module:Class` (instantiated without arguments), or a computer level's name."""
    if spec in LEVELS:
        from games.bots import get_player

        return get_player(spec)
    module_name, _, class_name = spec.partition(":")
    if not class_name:
        raise SystemExit(f"--player takes module:Class or one of {', '.join(LEVELS)}")
    try:
        found = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise SystemExit(f"--player {spec}: {exc}") from None
    if not (isinstance(found, type) and issubclass(found, Player)):
        raise SystemExit(f"--player {spec} is not a games.engine.player_interface.Player class")
    return found()


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m games.client", description=__doc__)
    parser.add_argument("--server", required=True, help="e.g. http://localhost:8000")
    parser.add_argument("--token", required=True, help="the bot account's API token")
    parser.add_argument("--player", required=True, help=f"module:Class, or {'/'.join(LEVELS)}")
    parser.add_argument("--game", help="play this one game (default: find or open games)")
    parser.add_argument(
        "--create",
        action="store_true",
        help="open a game and wait for an opponent (a person or a bot)",
    )
    parser.add_argument("--variant", help="the variant to open (default classic) or to accept")
    parser.add_argument("--clock", help="untimed, 5+3, 10+5 or 20+10: to open, or to accept")
    parser.add_argument("--seat", choices=SEATS, default="random", help="--create: the seat")
    parser.add_argument("--rated", action="store_true", help="--create: a rated game")
    parser.add_argument(
        "--tournament", type=int, help="enter this event and play all its games (its id)"
    )
    parser.add_argument("--invite", default="", help="--tournament: the invitation code")
    parser.add_argument("--verbose", action="store_true", help="print each move as it is played")
    count = parser.add_mutually_exclusive_group()
    count.add_argument("--games", type=int, default=1, help="how many games to play")
    count.add_argument("--forever", action="store_true", help="play game after game")
    args = parser.parse_args(argv)
    if args.game and (args.forever or args.games != 1 or args.create):
        parser.error("--game plays that one game: no --games, --forever or --create with it")
    if args.tournament and (args.game or args.create or args.forever or args.games != 1):
        parser.error("--tournament plays the event's games: no --game, --create or --games")
    if args.games < 1:
        parser.error("--games is at least 1")
    return args


async def next_game(connection: BotConnection, args: argparse.Namespace, me: str) -> str:
    if args.game:
        return args.game
    if args.create:
        public_id, seat = await connection.create(
            variant=args.variant or "classic",
            time_control=args.clock or "",
            seat=SEATS[args.seat],
            rated=args.rated,
        )
        print(f"opened game {public_id} as {('Red', 'Blue')[seat]}; waiting for an opponent",
              flush=True)  # fmt: skip
        return public_id
    return await connection.seek(args.variant, args.clock, me)


async def run(args: argparse.Namespace) -> list[dict | None]:
    load_player(args.player)  # a wrong --player is said before any game is opened or joined
    connection = BotConnection(args.server, args.token)
    me = await connection.account()
    print(f"signed in as {me} (BOT)", flush=True)
    say = (lambda line: print(f"  {line}", flush=True)) if args.verbose else None
    if args.tournament:
        from .tournament import play_event

        seat = lambda: PlayerSeat(load_player(args.player), say=say)  # noqa: E731
        return await play_event(connection, args.tournament, seat, args.invite)
    results: list[dict | None] = []
    while args.forever or len(results) < args.games:
        public_id = await next_game(connection, args, me)
        print(f"playing game {public_id}", flush=True)
        seat = PlayerSeat(load_player(args.player), say=say)
        result = await connection.play(public_id, seat)
        print(f"game {public_id} over: {result}", flush=True)
        results.append(result)
    return results


def main(argv: list[str] | None = None) -> None:
    logging.basicConfig(level=logging.WARNING)
    try:
        asyncio.run(run(parse(argv)))
    except KeyboardInterrupt:
        pass
    except ApiError as exc:
        hint = ": is the token right?" if exc.status == 401 else ""
        raise SystemExit(f"The server refused: {exc}{hint}") from None
    except InvalidStatus as exc:
        status = exc.response.status_code
        raise SystemExit(
            f"The server refused the socket (HTTP {status}): is the token right?"
        ) from None
    except OSError as exc:
        raise SystemExit(f"Could not reach the server: {exc}") from exc


if __name__ == "__main__":
    main()
