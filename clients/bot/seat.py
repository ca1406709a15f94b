"""One engine `Player` in one seat of a server game: frames in, messages out. No I/O here,
so the protocol logic is tested apart from the socket."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

from games.engine import RANK_NAMES, Move, Outcome
from games.engine.player_interface import Fight, Player, duel_move, opponent_setup_grid

from .views import view_from_dict

logger = logging.getLogger(__name__)
OBSERVER = 2


class PlayerSeat:
    def __init__(
        self, player: Player, join: bool = True, say: Callable[[str], None] | None = None
    ) -> None:
        self.player = player
        self.join = join
        self.say = say  # told one line per move and the end (the client's --verbose)
        self.color: int | None = None
        self.variant = None
        self.view = None
        self.setup_sent = False
        self.told_positions = False
        self.moved_at: int | None = None  # the ply we last answered with a move
        self.outcome: dict | None = None
        self.errors: list[dict] = []

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    def reconnected(self) -> None:
        """A new socket to the same game: what the old one sent may not have arrived, so the
        setup and the move of the current ply may be sent again (the view says if needed)."""
        self.setup_sent = False
        self.moved_at = None

    def on_frame(self, frame: dict) -> list[dict]:
        """The messages to send after this frame."""
        kind = frame.get("type")
        if kind == "error":
            return self.on_error(frame)
        if kind == "state" and frame["role"] == OBSERVER and self.join and self.color is None:
            self.join = False
            return [{"type": "join", "seat": None}]
        if kind == "event":
            self.on_event(frame["event"])
        if "view" in frame and not self.finished:
            return self.on_view(frame["view"])
        return []

    def on_event(self, event: dict) -> None:
        if self.say is not None:
            line = event_line(event, self.color)
            if line:
                self.say(line)
        if event["kind"] == "move" and self.color is not None:
            move = Move(event["from"], event["to"])
            if event["color"] != self.color:
                self.player.tell_move(move, event)
            battle = event.get("battle")
            if battle:
                self.player.fight(Fight(event["color"], move.src, move.dst, battle["attacker"],
                                        battle["defender"], battle["result"]))  # fmt: skip
        elif event["kind"] == "game_over":
            self.outcome = {"winner": event["winner"], "termination": event["termination"]}
            if self.color is not None:
                self.player.finish(Outcome(event["winner"], event["termination"]))

    def on_view(self, data: dict) -> list[dict]:
        if data["viewer"] == OBSERVER:
            return []
        view = self.view = view_from_dict(data)
        if self.color is None:
            self.color, self.variant = view.viewer, view.game_variant()
            self.player.start(self.color, self.variant)
        if view.phase == "setup" and not view.ready[self.color] and not self.setup_sent:
            self.setup_sent = True
            pieces = self.player.setup()
            return [{"type": "setup", "pieces": {str(s): r for s, r in pieces.items()}},
                    {"type": "ready"}]  # fmt: skip
        if view.phase != "playing":
            return []
        if not self.told_positions:
            self.told_positions = True
            occupied = {sq for sq, p in enumerate(view.board) if p and p.color != self.color}
            self.player.view_positions(opponent_setup_grid(self.variant, self.color, occupied))
        if view.turn == self.color and view.legal_moves and self.moved_at != view.ply:
            self.moved_at = view.ply
            return [self.move_message(self.player.move(view))]
        return []

    def move_message(self, move) -> dict:  # (a Move or Duel's 4 ints)
        if not isinstance(move, Move):
            move = duel_move(self.variant, self.color, move)
        return {"type": "move", "from": move.src, "to": move.dst}

    def on_error(self, frame: dict) -> list[dict]:
        """The server refused something (as it would a person's); a refused move is answered
        by a random legal one, so a faulty program loses no more than its move."""
        self.errors.append(frame)
        logger.warning("server refused %s: %s", frame.get("request"), frame.get("message"))
        if frame.get("request") == "move" and self.view is not None and self.view.legal_moves:
            src, dst = random.choice(self.view.legal_moves)
            return [{"type": "move", "from": src, "to": dst}]
        return []


SIDES = ("Red", "Blue")


def event_line(event: dict, me: int | None) -> str:
    """One line for a move or the end, as the seat saw it (--verbose)."""
    if event["kind"] == "move":
        who = SIDES[event["color"]] + (" (me)" if event["color"] == me else "")
        line = f"{who} {event['from']} -> {event['to']}"
        battle = event.get("battle")
        if battle:
            attacker, defender = RANK_NAMES[battle["attacker"]], RANK_NAMES[battle["defender"]]
            line += f": {attacker} attacks {defender}, {battle['result']} wins"
            line = line.replace("both wins", "both are removed")
        return line
    if event["kind"] == "game_over":
        winner = "nobody" if event["winner"] is None else SIDES[event["winner"]]
        return f"game over: {winner} wins ({event['termination']})"
    return ""
