"""A small outside program for the tests: it speaks the UCC 2012 Stratego protocol.

    python fake_program.py MODE [SEED]

MODE "normal" plays random moves that the rules allow (a step of one square; it steps back
where it came from only when nothing else is left). It keeps its own pieces from its setup and from
every outcome line, and exits with status 3 if the board it is sent ever disagrees.
"illegal" moves a bomb, "silent" never answers a move, "crash" exits after its setup.
"""

from __future__ import annotations

import random
import sys
import time

SETUP = ["B9B8F8B989", "7654321765", "49s9598B98", "B6B7974635"]  # the classic army
MOVABLE = set("123456789s")
STEPS = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}


def read() -> str:
    line = sys.stdin.readline()
    if not line or line.startswith("QUIT"):
        sys.exit(0)
    return line.rstrip("\n")


def fail(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
    sys.exit(3)


class Fake:
    def __init__(self, mode: str, seed: int) -> None:
        self.mode = mode
        self.rng = random.Random(seed)
        colour, _opponent, width, height = read().split()
        self.width, self.height = int(width), int(height)
        top = 0 if colour == "RED" else self.height - 4
        self.mine = {
            (x, top + y): SETUP[y][x] for y in range(4) for x in range(self.width) if SETUP[y][x]
        }
        self.came_from: dict[tuple[int, int], tuple[int, int]] = {}
        print("\n".join(SETUP), flush=True)
        if mode == "crash":
            fail("crashed on purpose")

    def apply(self, line: str) -> None:
        words = line.split()
        x, y, direction = int(words[0]), int(words[1]), words[2]
        steps = int(words[3]) if words[3].isdigit() else 1
        outcome = words[4] if words[3].isdigit() else words[3]
        dx, dy = STEPS[direction]
        src, dst = (x, y), (x + dx * steps, y + dy * steps)
        if src in self.mine:  # our own move
            rank = self.mine.pop(src)
            if outcome in ("OK", "KILLS", "VICTORY_FLAG"):
                self.mine[dst] = rank
                self.came_from[dst] = src
        elif outcome in ("KILLS", "BOTHDIE", "VICTORY_FLAG"):
            self.mine.pop(dst, None)

    def check(self, board: list[str]) -> None:
        for (x, y), rank in self.mine.items():
            if board[y][x] != rank:
                fail(f"board says {board[y][x]!r} at {x} {y}, we have {rank!r}")

    def choose(self, board: list[str]) -> str:
        if self.mode == "illegal":
            x, y = next(square for square, rank in self.mine.items() if rank == "B")
            return f"{x} {y} DOWN"
        options, back = [], []
        for (x, y), rank in self.mine.items():
            if rank not in MOVABLE:
                continue
            for name, (dx, dy) in STEPS.items():
                nx, ny = x + dx, y + dy
                if not (0 <= nx < self.width and 0 <= ny < self.height):
                    continue
                if board[ny][nx] == "+" or (nx, ny) in self.mine:
                    continue
                move = f"{x} {y} {name}"
                (back if self.came_from.get((x, y)) == (nx, ny) else options).append(move)
        return self.rng.choice(options or back or ["0 0 UP"])

    def play(self) -> None:
        while True:
            line = read()
            if line != "START":
                self.apply(line)
            board = [read() for _ in range(self.height)]
            self.check(board)
            if self.mode == "silent":
                time.sleep(3600)
            move = self.choose(board)
            print(move, flush=True)
            self.apply(read())


if __name__ == "__main__":
    Fake(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1).play()
