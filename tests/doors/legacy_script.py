"""One whole legacy-protocol game, played by any two clients with the LegacyClient interface
(sign_on, setup, ready, move, read): the Python client, or the Java one driven by lines.

It covers what the issue lists: invalid placements, a Ready too early, a move out of turn,
an illegal move, a scout's move-and-strike (lost), a plain move, a tie, and a scout taking
the flag in one move. Every frame both players get is checked in order."""

from __future__ import annotations

from games.transport.legacy import frames as f

ARMY = {"1": 1, "2": 1, "3": 2, "4": 3, "5": 4, "6": 4, "7": 4, "8": 5, "9": 8, "S": 1, "B": 6,
        "F": 1}  # fmt: skip
RED_FIXED = {(9, 0): "1", (0, 3): "9", (1, 3): "6", (4, 3): "9"}
BLUE_FIXED = {(0, 6): "7", (1, 6): "6", (4, 6): "F"}


def army_setup(rows: range, fixed: dict) -> list[tuple[str, int, int]]:
    """(piece id, x, y) for a whole army on `rows`, with `fixed` where it says."""
    left = dict(ARMY)
    for piece in fixed.values():
        left[piece] -= 1
    pool = [piece for piece, count in left.items() for _ in range(count)]
    placed = [(piece, x, y) for (x, y), piece in fixed.items()]
    for y in rows:
        for x in range(10):
            if (x, y) not in fixed:
                placed.append((pool.pop(), x, y))
    return placed


RED_SETUP = army_setup(range(4), RED_FIXED)
BLUE_SETUP = army_setup(range(6, 10), BLUE_FIXED)


async def expect(player, *frame) -> tuple:
    got = await player.read()
    assert got[: len(frame)] == frame, f"expected {frame}, got {got}"
    return got


async def expect_board(player, color: int) -> str:
    kind, cells = await player.read()
    assert kind == f.BOARD
    assert len(cells) == 100
    assert all(cells[y * 10 + x] == "L" for x in (2, 3, 6, 7) for y in (4, 5))
    assert set(cells) <= set(ARMY) | {"X", "L", " "}
    return cells


async def both(red, blue, *frame) -> None:
    await expect(red, *frame)
    await expect(blue, *frame)


async def both_board(red, blue) -> tuple[str, str]:
    return await expect_board(red, 0), await expect_board(blue, 1)


async def sign_on(red, blue, red_name: str, blue_name: str) -> None:
    await red.sign_on(red_name)
    await expect(red, f.WAIT, "wait")
    await blue.sign_on(blue_name)
    await both(red, blue, f.CONNECTED, "connected")


async def invalid_placements(red) -> None:
    for piece, x, y in [("1", 0, 5), ("2", 2, 4), ("Z", 0, 0), ("1", 10, 0), ("F", -1, 2)]:
        await red.setup(piece, x, y)
        await expect(red, f.PLACEMENT_INVALID, "invalid")
    await red.setup("1", 9, 0)
    await expect(red, f.PLACEMENT_VALID, "valid")
    await red.setup("2", 9, 0)  # occupied
    await expect(red, f.PLACEMENT_INVALID, "invalid")
    await red.setup("1", 8, 0)  # the army has one Marshal
    await expect(red, f.PLACEMENT_INVALID, "invalid")
    await red.ready()  # too early
    await expect(red, f.PLACEMENT_INVALID, "invalid")


async def place(player, setup) -> None:
    for piece, x, y in setup:
        await player.setup(piece, x, y)
        await expect(player, f.PLACEMENT_VALID, "valid")


async def setup_phase(red, blue, red_name: str) -> None:
    await invalid_placements(red)  # (it placed RED_SETUP[0], the Marshal at (9, 0))
    await place(red, RED_SETUP[1:])
    await place(blue, BLUE_SETUP)
    await blue.ready()
    await red.ready()
    await both(red, blue, f.PLAYING, red_name)
    red_board, blue_board = await both_board(red, blue)
    for piece, x, y in RED_SETUP:
        assert red_board[y * 10 + x] == piece
        assert blue_board[y * 10 + x] == "X"
    for piece, x, y in BLUE_SETUP:
        assert blue_board[y * 10 + x] == piece
        assert red_board[y * 10 + x] == "X"


async def play_phase(red, blue, red_name: str, blue_name: str) -> None:
    await blue.move(1, 6, 1, 5)  # out of turn
    await expect(blue, f.MOVE_INVALID, "invalid move")
    await red.move(0, 3, 0, 6)  # the scout runs and strikes the sergeant, and loses
    await both(red, blue, f.BATTLE, blue_name, "9", "7")
    red_board, blue_board = await both_board(red, blue)
    assert red_board[3 * 10 + 0] == " " and red_board[6 * 10 + 0] == "X"
    assert blue_board[6 * 10 + 0] == "7"
    await blue.move(1, 6, 1, 5)
    await both(red, blue, f.MOVED, 1, 6, 1, 5)
    await both_board(red, blue)
    await red.move(5, 5, 5, 6)  # no piece there
    await expect(red, f.MOVE_INVALID, "invalid move")
    await red.move(1, 3, 1, 4)
    await both(red, blue, f.MOVED, 1, 3, 1, 4)
    await both_board(red, blue)
    await blue.move(1, 5, 1, 4)  # lieutenant against lieutenant
    await both(red, blue, f.BATTLE, "tie", "6", "6")
    red_board, _ = await both_board(red, blue)
    assert red_board[4 * 10 + 1] == " "
    await red.move(4, 3, 4, 6)  # the second scout runs three squares onto the flag
    await both(red, blue, f.BATTLE, red_name, "9", "F")
    await both_board(red, blue)
    await both(red, blue, f.GAME_OVER, red_name)


async def whole_game(red, blue, red_name: str = "alice", blue_name: str = "bob") -> None:
    await sign_on(red, blue, red_name, blue_name)
    await setup_phase(red, blue, red_name)
    await play_phase(red, blue, red_name, blue_name)
