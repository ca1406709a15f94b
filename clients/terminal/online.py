"""`manage.py play --server URL`: the same screen on a game of a running server.

It signs in as a guest through the lobby's nickname form, opens a game against the
server's computer (or joins `--game ID`) through the documented HTTP forms, then plays
through the websocket protocol (docs/protocol.md): the server decides everything, the
terminal only shows its seat's view. QQ saves the seat (server, game, session) to a file,
and `--resume FILE` takes it back."""

from __future__ import annotations

import json
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode, urlsplit
from urllib.request import HTTPCookieProcessor, Request, build_opener

from websockets.sync.client import connect

from clients.bot.connection import endpoints
from clients.bot.views import view_from_dict
from games import engine

from .prompts import Console, Quit, ask_move
from .screen import COLOR_WORDS, Layout, draw, move_sentence, outcome_sentence

SAVE_FORMAT = "stratego-terminal-online/1"
OBSERVER = 2


class Web:
    """The server's HTTP forms, as a browser fills them (cookies and the CSRF token)."""

    def __init__(self, server: str) -> None:
        self.base = endpoints(server)[1]
        self.jar = CookieJar()
        self.opener = build_opener(HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.jar if c.name == name), "")

    def post(self, path: str, fields: dict) -> str:
        """POST a form; the path it redirected to."""
        data = urlencode({**fields, "csrfmiddlewaretoken": self.cookie("csrftoken")}).encode()
        request = Request(self.base + path, data=data, headers={"Referer": self.base + "/"})
        with self.opener.open(request, timeout=30) as response:
            return urlsplit(response.geturl()).path

    def sign_in(self, nickname: str) -> str:
        """A guest session with this nickname; its key."""
        self.opener.open(self.base + "/", timeout=30).close()  # the CSRF cookie
        self.post("/nickname/", {"nickname": nickname})
        key = self.cookie("sessionid")
        if not key:
            raise ValueError(f"the server refused the nickname {nickname!r}")
        return key

    def vs_computer(self, variant: str, level: str, seat: int) -> str:
        path = self.post("/games/computer/play/", {"variant": variant, "level": level,
                                                   "seat": str(seat)})  # fmt: skip
        parts = [p for p in path.split("/") if p]
        if len(parts) != 2 or parts[0] != "games":
            raise ValueError("the server did not open a game (see its lobby for why)")
        return parts[1]


class OnlineGame:
    def __init__(self, server: str, session: str, public_id: str, console: Console) -> None:
        self.server, self.session, self.public_id, self.console = (
            server,
            session,
            public_id,
            console,
        )
        self.view: engine.View | None = None
        self.layout: Layout | None = None
        self.asked_at: int | None = None  # the ply whose move was sent
        self.set_up = False
        self.joined = False

    @classmethod
    def start(cls, options: dict, console: Console) -> OnlineGame:
        web = Web(options["server"])
        session = web.sign_in(options["name"])
        public_id = options["game"]
        if not public_id:
            seat = engine.RED if options["color"] == "red" else engine.BLUE
            public_id = web.vs_computer(options["variant"], options["level"], seat)
        console.say(f"Playing game {public_id} on {web.base}")
        return cls(options["server"], session, public_id, console)

    def save(self, path: Path) -> None:
        data = {"format": SAVE_FORMAT, "server": self.server, "session": self.session,
                "game": self.public_id}  # fmt: skip
        path.write_text(json.dumps(data))

    @classmethod
    def load(cls, data: dict, console: Console) -> OnlineGame:
        return cls(data["server"], data["session"], data["game"], console)

    # ------------------------------------------------------------ the socket
    def play(self) -> engine.Outcome | None:
        ws_base, origin = endpoints(self.server)
        cookie = {"Cookie": f"sessionid={self.session}"}
        url = f"{ws_base}/ws/games/{self.public_id}/"
        with connect(url, origin=origin, additional_headers=cookie) as ws:
            self.ws = ws
            try:
                while True:
                    outcome = self.on_frame(json.loads(ws.recv()))
                    if outcome is not None:
                        return outcome
            except Quit:
                return None

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def on_frame(self, frame: dict) -> engine.Outcome | None:
        kind = frame.get("type")
        if kind == "error":
            self.console.say(f"Error: {frame.get('message')}")
            if frame.get("request") == "move":
                self.asked_at = None  # ask again
        if kind == "state" and frame["role"] == OBSERVER and not self.joined:
            self.joined = True
            self.send({"type": "join", "seat": None})
        previous = self.view
        if "view" in frame:
            self.view = view_from_dict(frame["view"])
        event = frame.get("event") or {}
        if event.get("kind") == "move" and self.layout is not None:
            self.console.say(self.sentence(event, previous))
        if event.get("kind") == "game_over":
            outcome = engine.Outcome(event["winner"], event["termination"])
            if self.layout is not None and self.view is not None:
                self.console.say(draw(self.view, self.layout, reveal=True))
            self.console.say(outcome_sentence(outcome))
            return outcome
        if "view" in frame:
            self.act()
        return None

    def act(self) -> None:
        view = self.view
        if view.viewer == OBSERVER:
            return
        if self.layout is None:
            self.layout = Layout(view.width, view.height, view.viewer)
        if view.phase == "setup" and not view.ready[view.viewer] and not self.set_up:
            self.set_up = True
            self.console.say(f"Assigning {COLOR_WORDS[view.viewer]} pieces to the board ...")
            self.send({"type": "random_setup"})
            self.send({"type": "ready"})
        elif view.phase == "playing" and view.turn == view.viewer and self.asked_at != view.ply:
            self.asked_at = view.ply
            self.console.say(draw(view, self.layout))
            src, dst = ask_move(self.console, self.layout, view.viewer, set(view.legal_moves),
                                lambda s, d: "not a legal move")  # fmt: skip
            self.send({"type": "move", "from": src, "to": dst})

    def sentence(self, event: dict, before: engine.View | None) -> str:
        """The console game's sentence for a move event (the mover's rank: own pieces, or
        battles)."""
        battle = event.get("battle")
        rank = 0
        piece = before.board[event["from"]] if before is not None else None
        if piece is not None and piece.rank is not None:
            rank = piece.rank
        fight = None
        if battle:
            fight = engine.Battle(battle["attacker"], battle["defender"], battle["result"])
            rank = battle["attacker"]
        move = engine.Move(event["from"], event["to"])
        result = engine.MoveResult(event["ply"], event["color"], move, rank, fight)
        show = rank != 0 and event["color"] == self.layout.me
        return move_sentence(result, self.layout, show_rank=show)
