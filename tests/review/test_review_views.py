"""The review endpoints: replay positions from the engine, XML export, public moves,
variant facts, saved setups checked by the engine."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore

from games import engine, services
from games.domain.identity import NICKNAME_KEY, Identity
from games.domain.models import Game, SavedSetup
from games.engine import records

pytestmark = pytest.mark.django_db


def guest(name: str) -> Identity:
    session = SessionStore()
    session[NICKNAME_KEY] = name
    session.create()
    return Identity(user_id=None, session_key=session.session_key, name=name)


def play_game(variant: str, plies: int, seed: int = 7) -> Game:
    """A game set up at random and played with the first legal moves, then resigned."""
    red, blue = guest("red"), guest("blue")
    game = services.create_game(red, variant=variant, seat=0)
    services.join_game(game.public_id, blue)
    for who in (red, blue):
        services.random_setup(game.public_id, who, seed=seed)
        services.ready(game.public_id, who)
    rng = random.Random(seed)
    for _ in range(plies):
        game.refresh_from_db()
        eg = engine.Game.from_dict(game.state)
        if eg.outcome is not None:
            break
        move = rng.choice(eg.legal_moves())
        services.move(game.public_id, red if eg.turn == 0 else blue, move.src, move.dst)
    game.refresh_from_db()
    if game.status != Game.Status.FINISHED:
        services.resign(game.public_id, red)
        game.refresh_from_db()
    return game


def replay_data(response) -> dict:
    text = response.content.decode()
    start = text.index('<script id="replay-data" type="application/json">')
    start = text.index(">", start) + 1
    return json.loads(text[start : text.index("</script>", start)])


def test_replay_frames_are_the_engines_positions(client):
    game = play_game("barrage", plies=12)
    data = replay_data(client.get(f"/games/{game.public_id}/replay/"))
    assert len(data["frames"]) == game.moves.count() + 1
    assert data["frames"][0]["move"] is None
    # The last frame is the engine's own final position, every rank shown.
    final = engine.Game.from_dict(game.state).view(engine.OBSERVER).to_dict()["board"]
    last = data["frames"][-1]["board"]
    assert [(p["color"], p["rank"]) if p else None for p in last] == [
        (p["color"], p["rank"]) if p else None for p in final
    ]
    assert data["result"] == {"winner": game.winner, "termination": game.termination}


def test_no_replay_or_export_while_the_game_runs(client):
    red, blue = guest("r"), guest("b")
    game = services.create_game(red, variant="mini", seat=0)
    services.join_game(game.public_id, blue)
    for who in (red, blue):
        services.random_setup(game.public_id, who, seed=1)
        services.ready(game.public_id, who)
    assert client.get(f"/games/{game.public_id}/replay/").status_code == 404
    assert client.get(f"/games/{game.public_id}/record.xml").status_code == 404


def test_export_is_a_stratados2_record_the_engine_reads_back(client):
    game = play_game("barrage", plies=10)
    response = client.get(f"/games/{game.public_id}/record.xml")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/xml")
    record = records.parse_xml(response.content)
    assert len(record.moves) == game.moves.count()
    assert record.players == (game.red_name, game.blue_name)
    assert record.result.termination == game.termination


def test_duel_exports_as_duell_and_mini_says_it_cannot(client):
    duel = play_game("duel", plies=8)
    page = client.get(f"/games/{duel.public_id}/replay/").content.decode()
    assert 'id="download-xml"' in page
    record = records.parse_xml(client.get(f"/games/{duel.public_id}/record.xml").content)
    assert record.variant == "duel" and len(record.moves) == duel.moves.count()
    mini = play_game("mini", plies=4)
    assert 'id="no-xml"' in client.get(f"/games/{mini.public_id}/replay/").content.decode()
    assert client.get(f"/games/{mini.public_id}/record.xml").status_code == 409


def test_public_moves_hide_the_rank_of_quiet_moves(client):
    game = play_game("mini", plies=20)
    moves = client.get(f"/games/{game.public_id}/moves.json").json()["moves"]
    assert [m["ply"] for m in moves] == list(range(1, game.moves.count() + 1))
    for stored, public in zip(game.moves.order_by("ply"), moves, strict=True):
        assert public["notation"] == stored.notation
        if stored.battle_result:
            assert public["battle"]["attacker"] == stored.attacker_rank
        else:
            assert public["battle"] is None
            assert "rank" not in json.dumps(public)


def test_variant_info_comes_from_the_engine(client):
    info = client.get("/games/variants/mini.json").json()
    variant = engine.get_variant("mini")
    assert info["width"] == 5 and info["height"] == 5
    assert info["setup_squares"][1] == list(variant.setup_squares(engine.BLUE))
    assert sum(info["army"].values()) == variant.army_size
    assert client.get("/games/variants/nope.json").status_code == 404


def mini_layout() -> list[list[int | None]]:
    setup = engine.generate_setup(engine.get_variant("mini"), engine.RED, random.Random(3))
    return [[setup.get(row * 5 + col) for col in range(5)] for row in range(2)]


def test_an_account_saves_and_lists_a_legal_setup(client):
    user = get_user_model().objects.create_user("sam", password="pw-for-tests-1")
    client.force_login(user)
    layout = mini_layout()
    response = client.post(
        "/games/setups/mini/", {"name": "wall", "layout": layout}, content_type="application/json"
    )
    assert response.status_code == 201 and response.json()["stored"] is True
    listed = client.get("/games/setups/mini/").json()
    assert [s["name"] for s in listed["setups"]] == ["wall"]
    assert listed["setups"][0]["layout"] == layout
    assert SavedSetup.objects.filter(user=user).count() == 1


def flag_forward(layout: list[list[int | None]]) -> list[list[int | None]]:
    """The same army with the flag swapped into the second row."""
    rows = [list(row) for row in layout]
    col = rows[0].index(engine.FLAG)
    rows[0][col], rows[1][col] = rows[1][col], rows[0][col]
    return rows


@pytest.mark.parametrize("spoil", ["missing_piece", "flag_forward"])
def test_an_illegal_setup_is_not_saved(client, spoil):
    user = get_user_model().objects.create_user("kim", password="pw-for-tests-1")
    client.force_login(user)
    layout = mini_layout()
    if spoil == "missing_piece":
        layout[1][0] = None
    else:
        layout = flag_forward(layout)
    response = client.post(
        "/games/setups/mini/", {"name": "bad", "layout": layout}, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["message"].startswith("This setup is not legal")
    assert SavedSetup.objects.count() == 0


def test_a_guest_setup_is_checked_but_kept_in_the_browser(client):
    session = client.session
    session[NICKNAME_KEY] = "gus"
    session.save()
    response = client.post(
        "/games/setups/mini/",
        {"name": "mine", "layout": mini_layout()},
        content_type="application/json",
    )
    assert response.status_code == 200
    assert response.json() == {"stored": False, "valid": True}
    assert SavedSetup.objects.count() == 0


def test_an_imported_record_replays_and_exports_the_same_moves(client):
    from games.services.game_records import import_record_bytes

    played = play_game("barrage", plies=14, seed=5)
    xml = client.get(f"/games/{played.public_id}/record.xml").content
    imported = import_record_bytes(xml)
    data = replay_data(client.get(f"/games/{imported.public_id}/replay/"))
    assert [f["move"]["notation"] for f in data["frames"][1:]] == [
        m.notation for m in played.moves.order_by("ply")
    ]
    assert client.get(f"/games/{imported.public_id}/record.xml").content == xml


def test_a_cancelled_game_has_nothing_to_replay_and_says_why_there_is_no_xml(client):
    host = guest("host")
    game = services.create_game(host, variant="classic", seat=0)
    services.resign(game.public_id, host)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    response = client.get(f"/games/{game.public_id}/replay/")
    page = response.content.decode()
    assert replay_data(response)["frames"] == []
    assert 'id="download-xml"' not in page
    # Classic has a StraDoS2 game type: the note names the real reason.
    assert "no game type" not in page
    assert "No StraDoS2 XML: the game was cancelled before it started" in page


def lobby_data(page: str) -> dict:
    """The lists the lobby page carries for its script (static/ui/lobby.js draws the rows)."""
    start = page.index('<script id="lobby-data" type="application/json">')
    start = page.index(">", start) + 1
    return json.loads(page[start : page.index("</script>", start)])


def test_the_lobby_first_load_carries_the_lists_for_its_script(client):
    host = guest("hosting")
    waiting = services.create_game(host, variant="barrage", seat=0)
    cancelled = services.create_game(host, variant="mini", seat=1)
    services.resign(cancelled.public_id, host)
    played = play_game("mini", plies=4)

    session = client.session
    session[NICKNAME_KEY] = "visitor"
    session.save()
    page = client.get("/").content.decode()
    lists = lobby_data(page)
    entry = next(e for e in lists["waiting"] if e["id"] == waiting.public_id)
    assert entry["variant"] == "barrage" and entry["seats"][1] is None
    assert entry["seats"][0]["name"] == "hosting" and entry["seats"][0]["guest"] is True
    finished = {e["id"]: e for e in lists["finished"]}
    assert finished[cancelled.public_id]["result"]["termination"] == "aborted"
    assert finished[cancelled.public_id]["ply"] == 0  # nothing to replay
    assert finished[played.public_id]["ply"] > 0
    # who the visitor is, for the script's Join and "Open your game"
    assert 'data-me="visitor"' in page and 'data-can-play="1"' in page
    # the rows themselves are the script's alone
    assert 'class="game-row"' not in page and "<noscript>" in page


def test_an_archive_game_replays_under_the_rules_it_was_played_by(client):
    """A Gravon duell step back is legal in the record, though this server's duel forbids it."""
    from games.services.game_records import import_record_bytes

    duel = engine.get_variant("duel")
    red = {7: engine.MINER, 8: engine.BOMB, 9: engine.FLAG, 17: engine.SCOUT, 18: engine.SPY,
           19: engine.BOMB, 27: engine.MARSHAL, 28: engine.GENERAL, 29: engine.MINER,
           39: engine.SCOUT}  # fmt: skip
    blue = {60: engine.SCOUT, 70: engine.MINER, 71: engine.GENERAL, 72: engine.MARSHAL,
            80: engine.BOMB, 81: engine.SPY, 82: engine.SCOUT, 90: engine.FLAG,
            91: engine.BOMB, 92: engine.MINER}  # fmt: skip
    steps = ["K4-K5", "A7-A6", "K5-K4", "A6-A7"]  # forward and straight back
    moves = tuple(engine.parse_move(text, duel) for text in steps)
    record = records.GameRecord(
        "duel", red, blue, moves, ("ann", "bob"), engine.Outcome(engine.RED, "resignation")
    )
    imported = import_record_bytes(records.write_xml(record).encode())
    data = replay_data(client.get(f"/games/{imported.public_id}/replay/"))
    assert [f["move"]["notation"] for f in data["frames"][1:]] == steps
