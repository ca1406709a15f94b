"""The engine's `View` from its JSON form (View.to_dict()), as a socket receives it."""

from __future__ import annotations

from games.engine import MoveResult, Outcome, Phase, PieceView, View


def piece_from(data: dict | None) -> PieceView | None:
    if data is None:
        return None
    return PieceView(data["color"], data["rank"], data["moved"], data["revealed"], data["scout"])


def view_from_dict(data: dict) -> View:
    remaining, last, outcome = data.get("remaining"), data.get("last_move"), data.get("outcome")
    return View(
        variant=data["variant"],
        width=data["width"],
        height=data["height"],
        lakes=tuple(data["lakes"]),
        viewer=data["viewer"],
        phase=Phase(data["phase"]),
        turn=data["turn"],
        ply=data["ply"],
        ready=tuple(data["ready"]),
        board=tuple(piece_from(p) for p in data["board"]),
        remaining=None if remaining is None else {int(r): n for r, n in remaining.items()},
        captured=tuple(tuple(c) for c in data["captured"]),
        last_move=None if last is None else MoveResult.from_public_dict(last),
        legal_moves=tuple(tuple(m) for m in data["legal_moves"]),
        outcome=None if outcome is None else Outcome.from_dict(outcome),
        rules=dict(data.get("rules") or {}),
        army=tuple((int(rank), count) for rank, count in (data.get("army") or {}).items()),
        placed=tuple(data.get("placed") or (0, 0)),
    )
