"""Command line of the engine: `python -m games.engine check FILE...`.

`check` replays StraDoS2 XML or Gravon GSN records (told apart by content) and prints one
line per file:

    FILE: ok <winner> <termination>          winner red, blue or draw
    FILE: ok none unfinished                 the record has no result and the game goes on
    FILE: illegal move N (D4-D5): <reason>
    FILE: error: <message>                   not a record, unreadable, or a wrong result

It exits 1 if any file is illegal or an error, else 0.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .errors import NotationError
from .game import Game
from .pieces import COLOR_NAMES
from .records import RecordError, parse_record, replay

MAX_RECORD_BYTES = 16 * 1024 * 1024


def outcome_text(game: Game) -> str:
    outcome = game.outcome
    if outcome is None:
        return "none unfinished"
    winner = "draw" if outcome.winner is None else COLOR_NAMES[outcome.winner]
    return f"{winner} {outcome.termination}"


def read_record_bytes(path: str) -> bytes:
    with open(path, "rb") as handle:
        data = handle.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise NotationError(
            f"larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB: not a game record"
        )
    return data


def check_file(path: str) -> tuple[bool, str]:
    """(ok, the line to print) for one record file."""
    try:
        game = replay(parse_record(read_record_bytes(path)))
    except RecordError as error:
        if error.move_number is not None:
            return (
                False,
                f"{path}: illegal move {error.move_number} ({error.move_text}): {error.reason}",
            )
        return False, f"{path}: error: {error.reason}"
    except NotationError as error:
        return False, f"{path}: error: {error}"
    except OSError as error:
        return False, f"{path}: error: cannot read the file: {error.strerror or error}"
    except Exception as error:  # one bad file must not stop a batch, nor print a traceback
        return (
            False,
            f"{path}: error: internal error, please report: {type(error).__name__}: {error}",
        )
    return True, f"{path}: ok {outcome_text(game)}"


def cmd_check(args: argparse.Namespace) -> int:
    all_ok = True
    for path in args.files:
        ok, line = check_file(path)
        all_ok = all_ok and ok
        print(line, flush=True)
    return 0 if all_ok else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine", description="The Stratego rules engine."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser(
        "check",
        help="replay game records (StraDoS2 XML or GSN) through the engine",
        description="Replay records and print one line per file; exit 1 if any "
        "file holds an illegal move or is no record.",
    )
    check.add_argument("files", nargs="+", metavar="FILE", help="record files")
    check.set_defaults(run=cmd_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
