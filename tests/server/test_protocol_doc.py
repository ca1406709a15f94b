"""docs/protocol.md tells the truth: its examples are what the server sends."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from channels.db import database_sync_to_async

from games import services
from games.domain import error_codes
from games.domain.errors import ServiceError
from games.domain.models import Game, GameEvent
from games.engine import IllegalMoveError, SetupError, battle
from games.transport import consumers
from games.transport.guards import BadFrame
from games.transport.limits import Refused

from .conftest import SHORT_GAME, connect, make_guest, receive
from .helpers import seated_game, set_up_game

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()


def json_block(starting: str) -> dict:
    found = re.search(r"```json\n(" + re.escape(starting) + r".*?)\n```", DOC, re.S)
    assert found, f"docs/protocol.md has a JSON example starting {starting!r}"
    return json.loads(found.group(1))


@pytest.mark.django_db
def test_the_battle_example_is_the_event_of_the_short_games_battle():
    gid, red, blue = set_up_game()
    people = {0: red, 1: blue}
    for color, frm, to in SHORT_GAME[:3]:
        services.move(gid, people[color], frm, to)
    event = GameEvent.objects.filter(game__public_id=gid, kind="move").last()
    assert event.observer_payload == json_block('{"kind": "move", "ply": 3')


def test_every_battle_result_is_documented():
    table = re.search(r"\| `result` \| what happened \|\n\|---\|---\|\n((?:\|.*\n)+)", DOC)
    assert table
    documented = re.findall(r'^\| `"(\w+)"` \|', table.group(1), re.M)
    assert sorted(documented) == sorted([battle.ATTACKER, battle.DEFENDER, battle.BOTH])


@pytest.mark.django_db
def test_resign_aborts_only_while_waiting_and_leaving_aborts_nothing():
    red = make_guest()
    waiting = services.create_game(red, variant="mini")
    services.resign(waiting.public_id, red)
    waiting.refresh_from_db()
    assert (waiting.status, waiting.winner, waiting.termination) == ("aborted", None, "aborted")
    gid, red, blue = seated_game()  # in setup: resign loses
    services.resign(gid, red)
    game = Game.objects.get(public_id=gid)
    assert (game.status, game.winner, game.termination) == ("finished", 1, "resignation")


@pytest.mark.django_db(transaction=True)
async def test_the_only_seated_player_closing_the_socket_does_not_abort():
    red = await database_sync_to_async(make_guest)()
    game = await database_sync_to_async(services.create_game)(red, variant="mini")
    ws = await connect(f"/ws/games/{game.public_id}/", red)
    await receive(ws)
    await ws.disconnect()
    version = game.version
    await database_sync_to_async(game.refresh_from_db)()
    assert (game.status, game.version, game.red_name) == ("waiting", version, red.name)


def documented_error_codes() -> dict[str, set[str]]:
    """docs/protocol.md's table of error codes: the codes of each row, by the row's label
    (its first cell; the engine's rows list their codes in the second cell)."""
    errors = DOC.split("### `error`", 1)[1].split("## Game socket: client to server", 1)[0]
    rows = re.findall(r"^\| (.+?) \| (.+?) \|$", errors, re.M)
    table: dict[str, set[str]] = {}
    for first, second in rows[1:]:  # past the header (`|---|---|` does not match)
        codes = set(re.findall(r"`([a-z_]+)`", first))
        table[first] = codes or set(re.findall(r"`([a-z_]+)`", second))
    return table


def test_the_error_table_lists_exactly_the_codes_the_server_can_send():
    table = documented_error_codes()
    documented = set().union(*table.values())
    # Both ways: a registered code missing from the table, and a documented one the server
    # can no longer send, fail.
    assert documented == error_codes.SENT, (
        error_codes.SENT - documented,
        documented - error_codes.SENT,
    )
    assert table["engine setup codes"] == SetupError.CODES - {"not_a_player"}
    assert table["engine move codes"] == IllegalMoveError.CODES


def test_every_error_class_takes_its_codes_from_the_registry():
    # The engine's codes are passed on as they are; the services check the seat before the
    # engine could refuse a non-player (`not_a_player` is the services' code).
    assert ServiceError.CODES - error_codes.LEGACY_ONLY <= error_codes.SENT
    assert BadFrame.CODES | Refused.CODES <= error_codes.SENT
    for error in (ServiceError, BadFrame, Refused):
        with pytest.raises(ValueError, match="no code"):
            error("no_such_code", "a code nobody registered")
    with pytest.raises(ValueError, match="not in games/domain/error_codes.py"):
        consumers.error_frame("no_such_code", "a code nobody registered", None)
    assert ServiceError("time_out", "late").to_frame("move")["code"] == "time_out"


def client_message_types() -> set[str]:
    table = DOC.split("## Game socket: client to server", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `(\w+)` \|", table, re.M))


def test_the_documented_client_messages_are_exactly_the_ones_the_socket_handles():
    assert client_message_types() == {"ping", "sync"} | set(consumers.ACTIONS)


@pytest.mark.django_db
def test_the_clock_example_has_the_fields_the_server_sends():
    from games.domain import clocks

    from .clocks import game, timed_game

    gid, _, _ = timed_game("5+3")
    sent = clocks.snapshot(game(gid), clocks.now())
    example = json_block('{"control": "5+3"')
    assert set(example) == set(sent) and example["control"] == sent["control"]
    assert [type(v) for v in example["remaining_ms"]] == [type(v) for v in sent["remaining_ms"]]


@pytest.mark.django_db
def test_the_absent_event_example_has_the_fields_the_server_sends():
    from games.transport import presence

    from .clocks import timed_game

    gid, _, _ = timed_game(None)
    presence.enter(gid, "tab", 1)
    presence.leave(gid, "tab")
    event = GameEvent.objects.filter(game__public_id=gid).last()
    row = re.search(r'^\| `absent` \|.*?`(\{"kind": "absent".*?\})`', DOC, re.M)
    assert row, "docs/protocol.md documents the absent event with an example"
    assert set(json.loads(row.group(1))) == set(event.observer_payload)


def test_every_message_type_of_the_game_socket_is_documented():
    from games.transport.consumers import ACTIONS

    table = DOC.split("## Game socket: client to server", 1)[1].split("\n\n`setup`", 1)[0]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))
    assert set(ACTIONS) | {"ping", "sync"} <= documented, set(ACTIONS) - documented


def test_every_event_kind_is_documented_with_its_fields():
    """The table of event kinds is the catalogue of games/services/events.py."""
    from games.services.events import EVENTS

    table = re.search(r"\| kind \| fields \| example \|\n\|---\|---\|---\|\n((?:\|.*\n)+)", DOC)
    assert table, "docs/protocol.md has the table of event kinds"
    documented = {
        kind: tuple(re.findall(r"`(\w+)`", fields))
        for kind, fields in re.findall(r"^\| `(\w+)` \| ([^|]*) \|", table.group(1), re.M)
    }
    assert documented == {kind: e.fields for kind, e in EVENTS.items()}


def test_an_event_outside_the_catalogue_is_refused():
    from games.services.events import emit, private_event
    from games.services.work import UnitOfWork

    game = Game(state={})
    unit = UnitOfWork(game, None, {})
    with pytest.raises(ValueError):
        emit(unit, "no_such_kind", {})
    with pytest.raises(ValueError):
        emit(unit, "present", {"seat": 1, "rank": 10})
    with pytest.raises(ValueError):  # a square of a setup, to the opponent
        private_event(unit, "placed", 0, {"color": 0, "square": 3, "rank": 10, "placed": 1},
                      {"color": 0, "square": 3, "placed": 1})  # fmt: skip
    assert unit.events == [] and game.version == 0
