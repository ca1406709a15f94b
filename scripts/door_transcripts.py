"""Run each door for real and write what happened as transcripts:

    .venv/bin/python scripts/door_transcripts.py [OUT_DIR]     (default docs/transcripts)

- tcp.txt: a real daphne on the embedded default (a fresh SQLite file, the in-memory channel
  layer) serving the legacy TCP door in-process (LEGACY_PORT); the Java client (javac'd
  tests/doors/java/LegacyClient.java, DataOutputStream frames) plays the Python client,
  while a browser-protocol observer socket watches; then a client sending bad frames.
- terminal.txt, terminal-resume.txt: `manage.py play` through a pseudo-terminal, from the
  start through a battle to QQ and save; then `--resume`, one more move, QQ.
- bot.txt: `python -m games.client --create --games 2 --verbose` with a bot account's token
  against a person's websocket on the same daphne, two whole games one after the other.

Nothing here is edited afterwards: the files are this script's output. Long runs of the same
exchange (forty placements) are counted in one line by the script itself."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pexpect  # noqa: E402
from websockets.asyncio.client import connect as ws_connect  # noqa: E402

from games.engine import RANK_NAMES  # noqa: E402
from games.transport.legacy import frames as f  # noqa: E402
from games.transport.legacy.client import LegacyClient  # noqa: E402
from tests.doors import legacy_script as script  # noqa: E402
from tests.doors.embedded import EmbeddedDaphne, guest_session, manage  # noqa: E402
from tests.doors.java_player import JavaPlayer, compile_client  # noqa: E402
from tests.doors.test_terminal import BATTLE, PROMPT, board, choose  # noqa: E402

FRAME_NAMES = {f.WAIT: "Wait", f.CONNECTED: "Connected", f.PLACEMENT_VALID: "Placement Valid",
               f.PLACEMENT_INVALID: "Placement Invalid", f.PLAYING: "Playing", f.MOVED: "Move",
               f.BOARD: "Board", f.MOVE_INVALID: "Move Invalid", f.BATTLE: "Battle",
               f.GAME_OVER: "Game Over"}  # fmt: skip
SHOWN_PLACEMENTS = 2  # valid placements shown one by one; the rest are counted


class Transcript:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.start = time.monotonic()

    def say(self, text: str) -> None:
        self.lines.append(f"[{time.monotonic() - self.start:6.2f}s] {text}")

    def note(self, text: str) -> None:
        self.lines.append(text)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def describe(frame: tuple) -> str:
    kind, *payload = frame
    if kind == f.BOARD:
        return "7 Board"
    if kind == f.BATTLE:
        return f"9 Battle {payload[0]!r} {payload[1]!r} {payload[2]!r}"
    if kind == f.MOVED:
        return "6 Move " + " ".join(map(str, payload))
    if kind in FRAME_NAMES:
        return f"{kind} {FRAME_NAMES[kind]} {payload[0]!r}"
    return repr(frame)


class Logged:
    """A TCP client (Python or Java) whose frames are written to the transcript: a sent frame
    and its answer on one line, the same frame read by both players on one line."""

    shared: dict = {"last": None}  # the last line of reads, to merge the other player's
    players: list[Logged] = []

    def __init__(self, inner, name: str, log: Transcript, board_rows: bool) -> None:
        self.inner, self.name, self.log = inner, name, log
        self.pending = ""  # a sent frame not yet answered
        self.valid_placements = 0
        self.board_rows = board_rows  # draw the first Board frame read in rows
        Logged.players.append(self)

    def sent(self, text: str) -> None:
        for other in Logged.players:
            if other is not self:  # (the other's Ready, which has no answer of its own)
                other.placements_done()
                other.flush()
        self.flush()
        self.pending = f"{self.name:>6} -> {text}"

    def flush(self) -> None:
        if self.pending:
            self.log.say(self.pending)
            self.pending = ""
            Logged.shared["last"] = None

    async def sign_on(self, name: str) -> None:
        self.sent(f"1 Sign On {name!r}")
        await self.inner.sign_on(name)

    async def setup(self, piece: str, x: int, y: int) -> None:
        self.sent(f"2 Setup {piece!r} {x} {y}")
        await self.inner.setup(piece, x, y)

    async def ready(self) -> None:
        self.placements_done()
        self.sent("3 Ready 'ready'")
        await self.inner.ready()

    async def move(self, x0: int, y0: int, x1: int, y1: int) -> None:
        self.sent(f"4 Move {x0} {y0} {x1} {y1}")
        await self.inner.move(x0, y0, x1, y1)

    def placements_done(self) -> None:
        hidden = self.valid_placements - SHOWN_PLACEMENTS
        if hidden > 0:
            self.log.say(f"{self.name:>6} -> ... {hidden} more Setup frames, each answered "
                         "3 Placement Valid 'valid'")  # fmt: skip
        self.valid_placements = 0

    async def read(self, timeout: float = 20.0) -> tuple:
        frame = await self.inner.read(timeout)
        text = describe(frame)
        if frame[0] == f.PLACEMENT_VALID and self.pending.endswith(tuple("0123456789")):
            self.valid_placements += 1
            if self.valid_placements > SHOWN_PLACEMENTS:
                self.pending = ""
                return frame
        if frame[0] == f.PLAYING:  # not Ready's answer: it comes once both are ready
            self.flush()
        if self.pending:
            self.log.say(f"{self.pending}   <- {text}")
            self.pending = ""
            Logged.shared["last"] = None
        else:
            self.read_line(text)
        if frame[0] == f.BOARD and self.board_rows:
            self.board_rows = False
            self.draw(frame[1])
        return frame

    def read_line(self, text: str) -> None:
        last = Logged.shared["last"]
        if last is not None and last[1] == text and last[0] != self.name:
            self.log.lines[last[2]] = self.log.lines[last[2]].replace(
                f"{last[0]:>6} <-", f"{'both':>6} <-"
            )
            Logged.shared["last"] = None
            return
        self.log.say(f"{self.name:>6} <- {text}")
        Logged.shared["last"] = (self.name, text, len(self.log.lines) - 1)

    def draw(self, cells: str) -> None:
        self.log.note(f"{'':>10}{self.name}'s Board frame, y = 0..9 down, x = 0..9 across:")
        for y in range(10):
            self.log.note(f"{'':>12}y={y} |{cells[y * 10 : y * 10 + 10]}|")

    async def closed(self) -> bool:
        return await self.inner.closed()


async def observe(server: EmbeddedDaphne, game_id: str, log: Transcript) -> None:
    """A browser-protocol socket watching the TCP game (no cookie: an observer)."""
    url = server.url(f"/ws/games/{game_id}/")
    async with ws_connect(url, additional_headers=server.origin) as ws:
        async for raw in ws:
            frame = json.loads(raw)
            if frame.get("type") == "state":
                log.say(f"observer <- state: role {frame['role']}, phase {frame['view']['phase']}")
            news = frame.get("event") or {}
            if news.get("kind") == "move":
                battle = news.get("battle")
                what = ""
                if battle:
                    what = (f", battle {RANK_NAMES[battle['attacker']]} vs "
                            f"{RANK_NAMES[battle['defender']]}: {battle['result']}")  # fmt: skip
                log.say(f"observer <- event v{frame['version']} move {news['from']}->{news['to']}"
                        f"{what}")  # fmt: skip
            elif news.get("kind") in ("ready", "game_over"):
                log.say(f"observer <- event v{frame['version']} {news['kind']}")
            if news.get("kind") == "game_over":
                return


async def waiting_game_of(server: EmbeddedDaphne, name: str) -> str:
    async with ws_connect(server.url("/ws/lobby/"), additional_headers=server.origin) as lobby:
        lists = json.loads(await lobby.recv())
    entry = next(g for g in lists["waiting"] if g["seats"][0] and g["seats"][0]["name"] == name)
    return entry["id"]


async def tcp_transcript(server: EmbeddedDaphne, classes: Path) -> str:
    log = Transcript()
    log.note(f"$ LEGACY_PORT={server.legacy_port} daphne -p {server.port} "
             "stratego_site.asgi:application   # the embedded default")  # fmt: skip
    log.note("  (a fresh SQLite file, the in-memory channel layer: nothing else runs)")
    log.note(f"$ java LegacyClient 127.0.0.1 {server.legacy_port}   # duke, Red "
             "(DataOutputStream); guido, Blue, is games/transport/legacy/client.py")  # fmt: skip
    java = await JavaPlayer.start(classes, "127.0.0.1", server.legacy_port)
    duke = Logged(java, "duke", log, board_rows=True)
    guido = Logged(await LegacyClient.connect("127.0.0.1", server.legacy_port), "guido", log,
                   board_rows=False)  # fmt: skip
    await script.sign_on(duke, guido, "duke", "guido")
    return await tcp_game(server, log, java, duke, guido)


async def tcp_game(server, log, java, duke, guido) -> str:
    try:
        async with ws_connect(server.url("/ws/lobby/"), additional_headers=server.origin) as lobby:
            lists = json.loads(await lobby.recv())
        entry = next(g for g in lists["live"] if g["seats"][0]["name"] == "duke")
        log.say(f"lobby  <- live game {entry['id']}: duke vs guido, {entry['variant']}")
        watcher = asyncio.create_task(observe(server, entry["id"], log))
        await asyncio.sleep(0.5)
        await script.setup_phase(duke, guido, "duke")
        await script.play_phase(duke, guido, "duke", "guido")
        log.say(f"connections closed by the server: duke {await duke.closed()}, "
                f"guido {await guido.closed()}")  # fmt: skip
        await asyncio.wait_for(watcher, 10)
    finally:
        await java.stop()
    await bad_frames(server, log)
    return log.text()


async def bad_frames(server: EmbeddedDaphne, log: Transcript) -> None:
    cases = [("an unknown frame type 99", f.java_int(99)),
             ("a Sign On whose String says 2000 bytes", f.java_int(f.SIGN_ON) + b"\x07\xd0"),
             ("a Move before signing on", f.ints_frame(f.MOVE, 0, 3, 0, 4))]  # fmt: skip
    for what, data in cases:
        bad = await LegacyClient.connect("127.0.0.1", server.legacy_port)
        await bad.send(data)
        log.say(f"mallory -> {what}: connection closed by the server: {await bad.closed(5)}")


async def bot_transcript(server: EmbeddedDaphne) -> str:
    log = Transcript()
    token = manage(server.env, "bot_token", "greedybot").strip()
    log.note("$ python manage.py bot_token greedybot   # prints stb_... once")
    log.note(f"$ python -m games.client --server {server.http} --token stb_... "
             "--player medium --create --variant mini --games 2 --verbose")  # fmt: skip
    command = [sys.executable, "-m", "clients.bot", "--server", server.http, "--token", token,
               "--player", "medium", "--create", "--variant", "mini", "--games", "2",
               "--verbose"]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    bot = await asyncio.create_subprocess_exec(*command, cwd=ROOT, env=env,
                                               stdout=subprocess.PIPE)  # fmt: skip
    opened: asyncio.Queue[str] = asyncio.Queue()
    reader = asyncio.create_task(relay(bot, log, opened))
    for _ in range(2):  # pat plays each game the bot opens, one after the other
        await person(server, await asyncio.wait_for(opened.get(), 60), log)
    await asyncio.wait_for(reader, 30)
    await bot.wait()
    log.say(f"bot    | (exit status {bot.returncode})")
    return log.text()


async def relay(bot: asyncio.subprocess.Process, log: Transcript, opened: asyncio.Queue) -> None:
    async for raw in bot.stdout:
        line = raw.decode().rstrip()
        log.say(f"bot    | {line}")
        if line.startswith("opened game "):
            opened.put_nowait(line.split()[2])


async def person(server: EmbeddedDaphne, game_id: str, log: Transcript) -> None:
    """pat, in a browser's stead: joins the bot's game from the lobby, a random setup, then
    takes a piece when one can be taken, else a random move."""
    cookie = {"Cookie": f"sessionid={guest_session(server.http, 'pat')}", **server.origin}
    async with ws_connect(server.url("/ws/lobby/"), additional_headers=cookie) as lobby:
        lists = json.loads(await lobby.recv())
    entry = next(g for g in lists["waiting"] if g["id"] == game_id)
    seat = next(s for s in entry["seats"] if s)
    log.say(f"pat    | lobby: game {game_id}, {entry['variant']}, seat {seat}")
    rng = random.Random(1)
    async with ws_connect(server.url(f"/ws/games/{game_id}/"), additional_headers=cookie) as ws:
        for message in ({"type": "join", "seat": None}, {"type": "random_setup"},
                        {"type": "ready"}):  # fmt: skip
            await ws.send(json.dumps(message))
        log.say("pat    | -> join, random_setup, ready")
        moved = None
        async for raw in ws:
            frame = json.loads(raw)
            news = frame.get("event") or {}
            if news.get("kind") == "game_over":
                log.say(f"pat    | <- game_over: winner {news['winner']}, {news['termination']}")
                return
            view = frame.get("view")
            if frame.get("type") == "error":
                log.say(f"pat    | <- error {frame['code']}: {frame['message']}")
            if view and view["phase"] == "playing" and view["turn"] == view["viewer"]:
                if view["legal_moves"] and moved != view["ply"]:
                    moved = view["ply"]
                    attacks = [m for m in view["legal_moves"] if view["board"][m[1]]]
                    src, dst = rng.choice(attacks or view["legal_moves"])
                    await ws.send(json.dumps({"type": "move", "from": src, "to": dst}))


def terminal_transcripts(tmp: Path) -> tuple[str, str]:
    """(the game from the start through a battle to QQ and save, the resumed game)."""
    save = tmp / "saved-game.json"
    env = {"DJANGO_SETTINGS_MODULE": "stratego_site.settings", "PATH": "/usr/bin:/bin",
           "SQLITE_PATH": str(tmp / "embedded.sqlite3")}  # fmt: skip
    out: list[str] = []

    def spawn(*args: str) -> pexpect.spawn:
        out.append(f"$ python manage.py play {' '.join(args)}\n")
        child = pexpect.spawn(sys.executable, [str(ROOT / "manage.py"), "play", *args],
                              cwd=str(ROOT), env=env, encoding="utf-8", timeout=30)  # fmt: skip
        child.logfile_read = Capture(out)
        return child

    game = spawn("--variant", "mini", "--level", "random", "--seed", "11", "--save", str(save))
    game.expect(PROMPT)
    src, dst = choose(board(game.before))
    game.sendline("C3")  # an empty square: the console game's error
    game.expect(PROMPT)
    game.sendline(src)  # two prompts, as in the console game
    game.expect(r"Enter new coordinates of piece at \w+:")
    game.sendline(dst)
    for _ in range(30):
        game.expect(PROMPT)
        if BATTLE.search(game.before):
            break
        game.sendline(" ".join(choose(board(game.before))))  # one line
    game.sendline("QQ")
    game.expect(r"Save the game\? \(Y/N\): ")
    game.sendline("Y")
    game.expect(pexpect.EOF)
    first = "".join(out)
    out.clear()
    resumed = spawn("--resume", str(save))
    resumed.expect(PROMPT)
    resumed.sendline(" ".join(choose(board(resumed.before))))
    resumed.expect(PROMPT)
    resumed.sendline("QQ")
    resumed.expect(r"Save the game\? \(Y/N\): ")
    resumed.sendline("N")
    resumed.expect(pexpect.EOF)
    return tuple(
        text.replace("\r\n", "\n").replace(str(save), "saved-game.json")
        for text in (first, "".join(out))
    )


class Capture:
    """pexpect's logfile: what the terminal showed, with the typed lines in their place."""

    def __init__(self, out: list[str]) -> None:
        self.out = out

    def write(self, text: str) -> None:
        self.out.append(text)

    def flush(self) -> None:
        pass


def main() -> None:
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "transcripts"
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        classes = compile_client(tmp)
        server = EmbeddedDaphne(tmp).start()
        try:
            (out_dir / "tcp.txt").write_text(asyncio.run(tcp_transcript(server, classes)))
            (out_dir / "bot.txt").write_text(asyncio.run(bot_transcript(server)))
        finally:
            server.stop()
        game, resumed = terminal_transcripts(tmp)
        (out_dir / "terminal.txt").write_text(game)
        (out_dir / "terminal-resume.txt").write_text(resumed)
    for name in ("tcp.txt", "terminal.txt", "terminal-resume.txt", "bot.txt"):
        lines = (out_dir / name).read_text().count("\n")
        print(f"{out_dir / name}: {lines} lines")


if __name__ == "__main__":
    main()
