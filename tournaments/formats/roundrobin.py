"""Round-robin by Berger tables (as FIDE publishes them): players numbered 1..n by seed; with
an odd count a last number is added and its opponent has the bye. A double round-robin plays
the table twice, colours swapped in the second half."""

from __future__ import annotations

from .results import Pairing


def rounds_needed(count: int, double: bool = False) -> int:
    size = count + count % 2
    return (size - 1) * (2 if double else 1)


def berger_table(count: int, round_number: int) -> list[tuple[int, int]]:
    """Round `round_number` (1-based, single cycle) of the Berger table for `count` players:
    (red, blue) seed numbers, 1-based; a number above `count` is the bye."""
    size = count + count % 2
    half, cycle = size // 2, size - 1
    if not 1 <= round_number <= cycle:
        raise ValueError(f"a table for {count} players has rounds 1 to {cycle}")
    shift = (round_number - 1) * half
    first = shift % cycle + 1
    boards = [(first, size) if round_number % 2 else (size, first)]
    for board in range(2, half + 1):
        boards.append(((shift + board - 1) % cycle + 1, (shift - board + 1) % cycle + 1))
    return boards


def berger_round(players: list[int], round_number: int, double: bool = False) -> list[Pairing]:
    """The pairings of round `round_number` (1-based) for `players` in seed order. A bye is a
    Pairing with blue None."""
    count = len(players)
    cycle = rounds_needed(count)
    if double and round_number > cycle:
        boards = [(b, r) for r, b in berger_table(count, round_number - cycle)]
    else:
        boards = berger_table(count, round_number)
    pairings = []
    for red, blue in boards:
        if red > count or blue > count:
            real = red if blue > count else blue
            pairings.append(Pairing(round_number, players[real - 1], None))
        else:
            pairings.append(Pairing(round_number, players[red - 1], players[blue - 1]))
    pairings.sort(key=lambda p: p.bye)  # the bye last, as it is shown
    return pairings


def berger_rounds(players: list[int], double: bool = False) -> list[list[Pairing]]:
    total = rounds_needed(len(players), double)
    return [berger_round(players, r, double) for r in range(1, total + 1)]
