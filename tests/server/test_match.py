"""The match over the game socket, on the real ASGI app, PostgreSQL and Redis: abort, draw-offer
limits, rematch and chat, each with its refusals (wrong person, wrong phase, observer, flood).
A refusal is an `error` to the sender alone and changes nothing."""

from __future__ import annotations

import pytest

from games import engine, services
from games.domain.chat_message import ChatMessage
from games.domain.models import Game, GameEvent
from games.services import chat, match

from .conftest import SHORT_GAME, adb, connect, make_guest, receive
from .helpers import seated_game, set_up_game
from .leaks import assert_no_leak

pytestmark = pytest.mark.django_db(transaction=True)


class Seats:
    """Red's, Blue's and a spectator's sockets of one game, every frame leak-checked."""

    def __init__(self, gid: str, people: dict) -> None:
        self.gid, self.people, self.ws = gid, people, {}

    async def open(self) -> Seats:
        for role, ident in self.people.items():
            self.ws[role] = await connect(f"/ws/games/{self.gid}/", ident)
            assert (await self.next(role))["type"] == "state"
        return self

    async def next(self, role: int) -> dict:
        frame = await receive(self.ws[role])
        assert_no_leak(frame, role)
        return frame

    async def send(self, role: int, message: dict) -> dict:
        await self.ws[role].send_json_to(message)
        return await self.next(role)

    async def refused(self, role: int, message: dict, code: str) -> None:
        version = (await adb(Game.objects.get)(public_id=self.gid)).version
        await self.ws[role].send_json_to(message)
        while (frame := await self.next(role))["type"] == "event":
            pass  # (an earlier action's broadcast, not yet read)
        assert (frame["type"], frame["code"], frame["request"]) == ("error", code, message["type"])
        assert (await adb(Game.objects.get)(public_id=self.gid)).version == version

    async def close(self) -> None:
        for ws in self.ws.values():
            await ws.disconnect()


async def seats_of(make=seated_game) -> Seats:
    gid, red, blue = await adb(make)()
    spectator = await adb(make_guest)("watcher")
    return await Seats(gid, {0: red, 1: blue, 2: spectator}).open()


async def status(gid: str) -> tuple[str, str, int | None]:
    game = await adb(Game.objects.get)(public_id=gid)
    return game.status, game.termination, game.winner


# ---------------------------------------------------------------- abort


@pytest.mark.asyncio
async def test_either_player_aborts_in_setup_and_up_to_reds_first_move():
    table = await seats_of()
    await table.refused(2, {"type": "abort"}, "not_a_player")
    frame = await table.send(1, {"type": "abort"})  # Blue, in setup
    assert frame["event"] == {"kind": "game_over", "winner": None, "termination": "aborted"}
    assert frame["game"]["status"] == "aborted"
    assert (await table.next(2))["event"]["termination"] == "aborted"
    assert await status(table.gid) == ("aborted", "aborted", None)
    assert (await table.next(0))["event"]["termination"] == "aborted"
    await table.refused(0, {"type": "abort"}, "game_not_active")
    await table.close()

    table = await seats_of(set_up_game)  # in play: after Red's first move, still abortable
    await adb(services.move)(table.gid, table.people[0], *SHORT_GAME[0][1:])
    assert (await table.next(1))["event"]["kind"] == "move"
    frame = await table.send(1, {"type": "abort"})
    assert frame["event"]["termination"] == "aborted"
    assert await status(table.gid) == ("aborted", "aborted", None)
    await table.close()

    table = await seats_of(set_up_game)  # both have moved: too late, resign instead
    await adb(services.move)(table.gid, table.people[0], *SHORT_GAME[0][1:])
    await adb(services.move)(table.gid, table.people[1], *SHORT_GAME[1][1:])
    for _ in range(2):
        await table.next(0)
    await table.refused(0, {"type": "abort"}, "too_late_to_abort")
    assert await status(table.gid) == ("playing", "", None)
    await table.close()


# ---------------------------------------------------------------- draw offers


@pytest.mark.asyncio
async def test_a_declined_draw_reaches_the_offerer_and_offers_are_limited():
    table = await seats_of(set_up_game)
    offered = await table.send(0, {"type": "offer_draw"})
    assert offered["event"] == {"kind": "draw_offered", "color": 0}
    await table.refused(2, {"type": "decline_draw"}, "not_a_player")
    await table.refused(0, {"type": "decline_draw"}, "not_your_draw_offer")
    await table.next(1)
    declined = await table.send(1, {"type": "decline_draw"})
    assert declined["event"] == {"kind": "draw_declined", "color": 1}
    assert (await table.next(0))["event"] == {"kind": "draw_declined", "color": 1}  # the offerer
    frame = await table.send(0, {"type": "offer_draw"})  # again at once: refused
    assert (frame["code"], frame["request"]) == ("draw_offer_too_soon", "offer_draw")
    assert "10 more moves" in frame["message"]
    # Blue's own first offer is not limited by Red's; accepting needs no limit either.
    assert (await table.send(1, {"type": "offer_draw"}))["event"]["color"] == 1
    await table.close()


@pytest.mark.django_db
def test_a_draw_may_be_offered_again_after_enough_moves():
    gid, red, blue = set_up_game()
    services.offer_draw(gid, red)
    services.answer_draw(gid, blue, accept=False)
    game = Game.objects.get(public_id=gid)
    for _ in range(match.DRAW_OFFER_PLIES):  # as if that many moves were made since
        game.version += 1
        payload = {"kind": "move", "ply": 0}
        GameEvent.objects.create(
            game=game, version=game.version, kind="move",
            red_payload=payload, blue_payload=payload, observer_payload=payload,
        )  # fmt: skip
    game.save()
    services.offer_draw(gid, red)
    assert Game.objects.get(public_id=gid).draw_offer == 0


# ---------------------------------------------------------------- rematch


async def finished_table() -> Seats:
    table = await seats_of(set_up_game)
    await adb(services.resign)(table.gid, table.people[1])
    for role in (0, 1, 2):
        assert (await table.next(role))["event"]["termination"] == "resignation"
    return table


@pytest.mark.asyncio
async def test_a_rematch_swaps_colours_and_keeps_the_options():
    table = await finished_table()
    await table.refused(2, {"type": "offer_rematch"}, "not_a_player")
    await table.refused(1, {"type": "accept_rematch"}, "no_rematch_offer")
    offered = await table.send(1, {"type": "offer_rematch"})
    assert offered["event"] == {"kind": "rematch_offered", "color": 1}
    await table.refused(1, {"type": "offer_rematch"}, "rematch_pending")
    await table.refused(1, {"type": "accept_rematch"}, "not_your_rematch_offer")
    assert (await table.next(0))["event"]["kind"] == "rematch_offered"
    declined = await table.send(0, {"type": "decline_rematch"})
    assert declined["event"] == {"kind": "rematch_declined", "color": 0}
    assert (await table.next(1))["event"] == {"kind": "rematch_declined", "color": 0}
    await table.send(0, {"type": "offer_rematch"})
    await table.next(1)
    accepted = await table.send(1, {"type": "accept_rematch"})
    new_id = accepted["event"]["game"]
    assert accepted["event"] == {"kind": "rematch", "game": new_id}
    while (frame := await table.next(2))["event"]["kind"] != "rematch":
        pass
    assert frame["event"]["game"] == new_id  # observers are offered the link
    await table.refused(0, {"type": "offer_rematch"}, "rematch_done")
    old = await adb(Game.objects.get)(public_id=table.gid)
    new = await adb(Game.objects.get)(public_id=new_id)
    assert (new.red_name, new.blue_name) == (old.blue_name, old.red_name)
    assert (new.red_session, new.blue_session) == (old.blue_session, old.red_session)
    assert (new.variant, new.private, new.clock_base_ms) == (old.variant, old.private, None)
    assert new.status == "setup" and new.state.get("rules") == old.state.get("rules")
    await table.close()


@pytest.mark.asyncio
async def test_a_rematch_is_refused_while_the_game_is_on():
    table = await seats_of()
    await table.refused(0, {"type": "offer_rematch"}, "game_not_over")
    await table.close()


@pytest.mark.django_db
def test_a_timed_game_with_rules_is_replayed_with_the_same_clock_and_rules():
    red, blue = make_guest("r"), make_guest("b")
    rules = {"two_squares_limit": 3}
    game = services.create_game(red, "classic", 0, time_control="5+3", rules=rules)
    services.join_game(game.public_id, blue)
    services.resign(game.public_id, red)
    match.offer_rematch(game.public_id, blue)
    match.answer_rematch(game.public_id, red, accept=True)
    new = Game.objects.get(public_id=match.rematch_of(Game.objects.get(public_id=game.public_id)))
    assert (new.clock_base_ms, new.clock_increment_ms) == (300_000, 3_000)
    assert new.state["rules"] == game.state["rules"] and new.red_name == "b"


# ---------------------------------------------------------------- chat


@pytest.mark.asyncio
async def test_players_chat_reaches_all_and_spectators_chat_stays_hidden_from_players():
    table = await seats_of()
    frame = await table.send(0, {"type": "chat", "text": "  good luck <b>!</b>\n"})
    said = {
        "room": "players",
        "role": 0,
        "name": table.people[0].name,
        "guest": True,
        "text": "good luck <b>!</b>",
    }
    assert frame["event"] == {"kind": "chat", **said}
    assert (await table.next(1))["event"] == frame["event"] == (await table.next(2))["event"]

    frame = await table.send(2, {"type": "chat", "room": "spectators", "text": "Flag on E1!"})
    assert frame["event"]["text"] == "Flag on E1!"
    for role in (0, 1):  # the players learn only that something was said
        assert (await table.next(role))["event"] == {
            "kind": "chat", "room": "spectators", "hidden": True
        }  # fmt: skip
    await table.refused(2, {"type": "chat", "text": "hi"}, "not_a_player")
    await table.refused(0, {"type": "chat", "room": "spectators", "text": "hi"}, "not_a_spectator")
    await table.refused(0, {"type": "chat", "text": " \n\t "}, "bad_chat")
    await table.refused(0, {"type": "chat", "text": "x" * 301}, "bad_chat")
    await table.refused(0, {"type": "chat", "room": "lobby", "text": "hi"}, "bad_field")
    await table.refused(0, {"type": "chat", "text": 5}, "bad_field")

    history = await adb(chat.visible_to)(await adb(Game.objects.get)(public_id=table.gid), 0)
    assert [m["text"] for m in history] == ["good luck <b>!</b>"]
    await adb(services.resign)(table.gid, table.people[0])  # over: players may read it all
    history = await adb(chat.visible_to)(await adb(Game.objects.get)(public_id=table.gid), 0)
    assert [m["room"] for m in history] == ["players", "spectators"]
    await table.close()


@pytest.mark.asyncio
async def test_a_chat_flood_is_refused_and_the_messages_are_kept_with_the_game():
    table = await seats_of()
    for i in range(chat.RATE_COUNT):
        assert (await table.send(1, {"type": "chat", "text": f"m{i}"}))["type"] == "event"
    await table.refused(1, {"type": "chat", "text": "one more"}, "chat_too_fast")
    kept = await adb(list)(ChatMessage.objects.filter(game__public_id=table.gid).values_list(
        "text", "version"))  # fmt: skip
    assert [t for t, _ in kept] == [f"m{i}" for i in range(chat.RATE_COUNT)]
    kinds = await adb(list)(GameEvent.objects.filter(game__public_id=table.gid, version__in=[
        v for _, v in kept]).values_list("kind", flat=True))  # fmt: skip
    assert kinds == ["chat"] * chat.RATE_COUNT
    await table.close()


@pytest.mark.django_db
def test_the_chat_history_endpoint_gives_each_role_its_own_chat(client):
    gid, red, blue = seated_game()
    chat.post(gid, red, "players", "hello")
    chat.post(gid, make_guest("w"), "spectators", "psst")
    assert [m["text"] for m in client.get(f"/games/{gid}/chat.json").json()["messages"]] == [
        "hello", "psst"
    ]  # fmt: skip
    assert client.get("/games/nope/chat.json").status_code == 404
    game = Game.objects.get(public_id=gid)
    assert [m["text"] for m in chat.visible_to(game, engine.RED)] == ["hello"]
