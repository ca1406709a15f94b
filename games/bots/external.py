"""A `Player` played by an outside program, over its standard input and output.

The program speaks the text protocol of the 2012 UCC programming competition's Stratego
manager (docs/bots.md describes it line by line): it is told its colour, answers with four
rows of its setup, then is sent the last move's outcome and the board before each of its
moves and answers ``X Y DIRECTION [STEPS]``. Our engine referees everything: a move the
engine refuses forfeits the game in the referee, and the tournament counts such a game
apart, as a disagreement about the rules. Silence past `timeout` seconds, output that is
no move at all, or the program's end raise `ExternalError`, which the referee turns into
a forfeit of the program.

    player = ExternalPlayer(["java", "-cp", "build", "Main", "-t"], cwd="/opt/bot")
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path

from games.engine.battle import ATTACKER, BOTH, DEFENDER
from games.engine.notation import Move
from games.engine.pieces import BLUE, BOMB, FLAG, RED, SPY, opponent
from games.engine.player_interface import Fight, Player
from games.engine.results import Outcome
from games.engine.variants import Variant
from games.engine.view import View

# The protocol's rank characters: the old numbering, 1 the Marshal and 9 the Scout.
RANK_CHARS: dict[int, str] = {rank: str(11 - rank) for rank in range(2, 11)}
RANK_CHARS |= {SPY: "s", BOMB: "B", FLAG: "F"}
CHAR_RANKS: dict[str, int] = {char: rank for rank, char in RANK_CHARS.items()} | {"S": SPY}
COLOUR_WORDS = {RED: "RED", BLUE: "BLUE"}
DIRECTIONS = {"UP": (-1, 0), "DOWN": (1, 0), "LEFT": (0, -1), "RIGHT": (0, 1)}
UNKNOWN, EMPTY, WATER = "#", ".", "+"
SETUP_ROWS = 4
OUTCOME_WORDS = {ATTACKER: "KILLS", DEFENDER: "DIES", BOTH: "BOTHDIE"}


class ExternalError(Exception):
    """The outside program broke the protocol: silence, garbage, or its end."""


def move_text(move: Move, width: int) -> str:
    """``X Y DIRECTION [STEPS]`` for `move` (x the column, y the row, row 0 at the top)."""
    (src_row, src_col), (dst_row, dst_col) = divmod(move.src, width), divmod(move.dst, width)
    if src_row == dst_row:
        direction = "RIGHT" if dst_col > src_col else "LEFT"
    else:
        direction = "DOWN" if dst_row > src_row else "UP"
    steps = abs(dst_row - src_row) + abs(dst_col - src_col)
    return f"{src_col} {src_row} {direction}" + (f" {steps}" if steps > 1 else "")


def outcome_text(move: Move, width: int, battle: Mapping | None) -> str:
    """The line that reports a played move: the move, then OK, KILLS, DIES, BOTHDIE or
    VICTORY_FLAG, then for a battle the attacker's and the defender's rank characters."""
    text = move_text(move, width)
    if battle is None:
        return f"{text} OK"
    attacker, defender = RANK_CHARS[battle["attacker"]], RANK_CHARS[battle["defender"]]
    word = "VICTORY_FLAG" if battle["defender"] == FLAG else OUTCOME_WORDS[battle["result"]]
    return f"{text} {word} {attacker} {defender}"


def parse_move(line: str, width: int, height: int) -> Move:
    """The program's ``X Y DIRECTION [STEPS]`` as a Move; ExternalError if it is none."""
    words = line.split()
    if len(words) not in (3, 4) or words[2] not in DIRECTIONS:
        raise ExternalError(f"answered {line!r}, not X Y DIRECTION [STEPS]")
    try:
        x, y = int(words[0]), int(words[1])
        steps = int(words[3]) if len(words) == 4 else 1
    except ValueError:
        raise ExternalError(f"answered {line!r}, not X Y DIRECTION [STEPS]") from None
    d_row, d_col = DIRECTIONS[words[2]]
    row, col = y + d_row * steps, x + d_col * steps
    if steps < 1 or not (0 <= x < width and 0 <= y < height and 0 <= col < width):
        raise ExternalError(f"the move {line!r} leaves the board")
    if not 0 <= row < height:
        raise ExternalError(f"the move {line!r} leaves the board")
    return Move(y * width + x, row * width + col)


def parse_setup(rows: Sequence[str], variant: Variant, color: int) -> dict[int, int]:
    """Four rows of rank characters, top row first, as ``{square: rank}`` in `color`'s setup
    area (Red's rows are the top four, Blue's the bottom four); '.' leaves a square empty."""
    first_row = 0 if color == RED else variant.height - SETUP_ROWS
    setup: dict[int, int] = {}
    for offset, text in enumerate(rows):
        cells = text.strip()
        if len(cells) != variant.width:
            raise ExternalError(f"setup row {text!r} is not {variant.width} characters")
        for col, char in enumerate(cells):
            if char == EMPTY:
                continue
            if char not in CHAR_RANKS:
                raise ExternalError(f"setup row {text!r}: {char!r} is no rank")
            setup[(first_row + offset) * variant.width + col] = CHAR_RANKS[char]
    return setup


def board_rows(view: View) -> list[str]:
    """The board as the program may see it: its own ranks, revealed enemy ranks, '#' for an
    unknown enemy piece, '.' for an empty square and '+' for water."""
    lakes = set(view.lakes)
    rows = []
    for row in range(view.height):
        cells = []
        for square in range(row * view.width, (row + 1) * view.width):
            piece = view.board[square]
            if square in lakes:
                cells.append(WATER)
            elif piece is None:
                cells.append(EMPTY)
            elif piece.rank is None:
                cells.append(UNKNOWN)
            else:
                cells.append(RANK_CHARS[piece.rank])
        rows.append("".join(cells))
    return rows


class ExternalPlayer(Player):
    """Plays through an outside program; see the module docstring. The program is started
    by `start` and ended by `finish` (or by `close`, which a caller may always call)."""

    name = "external"

    def __init__(
        self,
        command: Sequence[str],
        cwd: str | Path | None = None,
        timeout: float = 10.0,
        opponent_name: str = "OPPONENT",
    ) -> None:
        super().__init__()
        self.command = list(command)
        self.cwd = cwd
        self.timeout = timeout
        self.opponent_name = opponent_name
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: deque[str] = deque(maxlen=20)
        self.pending: list[str] = []  # outcome lines not yet sent
        self.own_move: Move | None = None  # this program's last move, its outcome untold
        self.first_move = True

    # ------------------------------------------------------------------ the process
    def start(self, color: int, variant: Variant) -> None:
        super().start(color, variant)
        self.process = subprocess.Popen(
            self.command,
            cwd=self.cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            start_new_session=True,  # its whole process group can be ended
        )
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.process.stderr,), daemon=True).start()
        self._send(f"{COLOUR_WORDS[color]} {self.opponent_name} {variant.width} {variant.height}")

    def _read(self, stream: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def _drain(self, stream: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            self.errors.append(line.rstrip())

    def _send(self, *lines: str) -> None:
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write("".join(line + "\n" for line in lines))
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise ExternalError(f"the program stopped reading ({error}){self._stderr()}") from None

    def _receive(self) -> str:
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise ExternalError(
                f"the program was silent for {self.timeout:g} s{self._stderr()}"
            ) from None
        if line is None:
            raise ExternalError(f"the program ended{self._stderr()}")
        return line

    def _stderr(self) -> str:
        return f"; its last error output: {self.errors[-1]}" if self.errors else ""

    def close(self) -> None:
        """End the program: QUIT, a moment to leave, then its process group is killed."""
        process, self.process = self.process, None
        if process is None:
            return
        with contextlib.suppress(OSError, ValueError):
            assert process.stdin is not None
            process.stdin.write("QUIT\n")
            process.stdin.close()
        try:
            process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    # ------------------------------------------------------------------ the game
    def setup(self) -> dict[int, int]:
        assert self.variant is not None, "start() first"
        rows = [self._receive() for _ in range(SETUP_ROWS)]
        return parse_setup(rows, self.variant, self.color)

    def move(self, view: View) -> Move:
        self._flush_own()
        if self.first_move and self.color == RED:
            self.pending.append("START")
        self.first_move = False
        self._send(*self.pending, *board_rows(view))
        self.pending = []
        move = parse_move(self._receive(), view.width, view.height)
        self.own_move = move
        return move

    def tell_move(self, move: Move, public: Mapping) -> None:
        assert self.variant is not None
        self._flush_own()
        self.pending.append(outcome_text(move, self.variant.width, public.get("battle")))

    def fight(self, fight: Fight) -> None:
        """The outcome of this program's own move is sent as soon as it is known."""
        if fight.attacker_color != self.color or self.own_move is None:
            return
        assert self.variant is not None
        battle = {
            "attacker": fight.attacker_rank,
            "defender": fight.defender_rank,
            "result": fight.result,
        }
        self._send(outcome_text(self.own_move, self.variant.width, battle))
        self.own_move = None

    def _flush_own(self) -> None:
        """An own move with no battle: its outcome is OK, told before anything else."""
        if self.own_move is not None:
            assert self.variant is not None
            self._send(outcome_text(self.own_move, self.variant.width, None))
            self.own_move = None

    def finish(self, outcome: Outcome) -> None:
        try:
            with contextlib.suppress(ExternalError):
                self._flush_own()
                if self.pending and outcome.winner == opponent(self.color):
                    self._send(*self.pending)
        finally:
            self.close()


__all__ = [
    "CHAR_RANKS",
    "RANK_CHARS",
    "ExternalError",
    "ExternalPlayer",
    "board_rows",
    "move_text",
    "outcome_text",
    "parse_move",
    "parse_setup",
]
