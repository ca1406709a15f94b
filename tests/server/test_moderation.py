"""Moderation on the real ASGI app, PostgreSQL and Redis: a report of a chat message, a mute
and a ban taking effect on live sockets at once, the log, and who may act (the Moderators
group, not any staff account)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.apps import apps as django_apps
from django.contrib.auth.models import Group, User
from django.contrib.sessions.models import Session
from django.test import Client

from games import services
from games.domain.errors import ServiceError
from games.domain.identity import Identity
from games.services import chat
from moderation import sanctions
from moderation.models import Report, Sanction
from moderation.permissions import GROUP, PERMISSIONS, sync_group

from .conftest import adb, connect, make_guest, receive
from .helpers import seated_game

pytestmark = pytest.mark.django_db(transaction=True)


def client_of(ident: Identity) -> Client:
    client = Client()
    client.cookies["sessionid"] = ident.session_key
    return client


def moderators() -> Group:
    """The group the migration made (a transactional test's flush removes its rows: then made
    again the same way)."""
    return Group.objects.filter(name=GROUP).first() or sync_group(django_apps)


def moderator() -> User:
    user = User.objects.create_user("mod-ann", password="mod-pass-123", is_staff=True)
    user.groups.add(moderators())
    return user


def reported_message() -> tuple[str, Identity, Identity, Report]:
    """Red insults Blue in the players' chat; Blue reports the message over HTTP."""
    gid, red, blue = seated_game()
    chat.post(gid, red, "players", "you are a fool")
    version = services.watch(gid, red)[0].version
    answer = client_of(blue).post(
        f"/games/{gid}/report/", json.dumps({"version": version, "reason": "abuse",
                                             "details": "rude"}),
        content_type="application/json",
    )  # fmt: skip
    assert answer.status_code == 201, answer.content
    return gid, red, blue, Report.objects.get(pk=answer.json()["report"])


def test_a_report_names_the_author_and_keeps_the_message_and_game():
    gid, red, blue, report = reported_message()
    assert (report.target_session, report.target_name, report.reporter_name) == (
        red.session_key, "red", "blue")  # fmt: skip
    assert report.game.public_id == gid and report.message.text == "you are a fool"
    assert report.status == "open"


@pytest.mark.parametrize(
    "body, code",
    [({"version": 999, "reason": "abuse"}, "not_found"),
     ({"version": 1, "reason": "x"}, "bad_reason"),
     ({"version": "1", "reason": "abuse"}, "bad_field"), ([1], "bad_json")],
)  # fmt: skip
def test_bad_reports_are_refused_with_a_code_and_change_nothing(body, code):
    gid, red, blue = seated_game()
    answer = client_of(blue).post(f"/games/{gid}/report/", json.dumps(body),
                                  content_type="application/json")  # fmt: skip
    assert answer.status_code in (400, 404) and answer.json()["error"] == code
    assert Report.objects.count() == 0


def test_nobody_reports_their_own_message_nor_without_a_name():
    gid, red, blue = seated_game()
    chat.post(gid, red, "players", "hi")
    version = services.watch(gid, red)[0].version
    body = json.dumps({"version": version, "reason": "spam"})
    own = client_of(red).post(f"/games/{gid}/report/", body, content_type="application/json")
    assert own.json()["error"] == "own_message"
    anonymous = Client().post(f"/games/{gid}/report/", body, content_type="application/json")
    assert anonymous.status_code == 403 and anonymous.json()["error"] == "no_identity"
    assert Report.objects.count() == 0


def test_reporting_a_player_from_their_profile():
    User.objects.create_user("rude-rob", password="pw-rob-12345")
    reporter = make_guest("fair-fay")
    profile = client_of(reporter).get("/players/rude-rob/").content.decode()
    assert 'action="/players/rude-rob/report/"' in profile  # the form, for a signed-on visitor
    assert "report-player-form" not in Client().get("/players/rude-rob/").content.decode()
    answer = client_of(reporter).post("/players/rude-rob/report/", {"reason": "cheating"},
                                      follow=True)  # fmt: skip
    assert "a moderator will look at your report" in answer.content.decode()
    report = Report.objects.get()
    assert (report.target_user.username, report.reason, report.message) == (
        "rude-rob", "cheating", None)  # fmt: skip


async def test_a_mute_reaches_the_live_socket_and_refuses_chat_with_a_code():
    gid, red, blue, report = await adb(reported_message)()
    ws = await connect(f"/ws/games/{gid}/", red)
    assert (await receive(ws))["type"] == "state"
    mod = await adb(moderator)()
    await adb(sanctions.act)(sanctions.Kind.MUTE, sanctions.target_of_report(report),
                             "insults", mod, 30, report)  # fmt: skip
    frame = await receive(ws)
    assert frame["type"] == "moderation" and frame["action"] == "mute"
    assert "muted in chat" in frame["message"] and "insults" in frame["message"]
    await ws.send_json_to({"type": "chat", "text": "still here"})
    refused = await receive(ws)
    assert (refused["type"], refused["code"]) == ("error", "muted")
    assert await adb(lambda: Report.objects.get(pk=report.pk).status)() == "closed"
    logged = await adb(lambda: Sanction.objects.get(kind="mute"))()
    assert (logged.moderator_id, logged.reason) == (mod.pk, "insults")
    # The game page says so too, and the player can still play.
    page = await sync_to_async(client_of(red).get)(f"/games/{gid}/")
    assert "You are muted in chat until" in page.content.decode()
    await adb(sanctions.act)(sanctions.Kind.LIFT, sanctions.target_of_report(report), "ok", mod)
    assert (await receive(ws))["action"] == "lift"
    await adb(chat.post)(gid, red, "players", "sorry")
    await ws.disconnect()


async def test_a_site_ban_closes_every_socket_at_once_and_ends_the_session():
    gid, red, blue, report = await adb(reported_message)()
    game_ws = await connect(f"/ws/games/{gid}/", red)
    assert (await receive(game_ws))["type"] == "state"
    lobby_ws = await connect("/ws/lobby/", red)
    assert (await receive(lobby_ws))["type"] == "lobby"
    mod = await adb(moderator)()
    await adb(sanctions.act)(sanctions.Kind.SITE_BAN, sanctions.target_of_report(report),
                             "threats", mod, None, report)  # fmt: skip
    for ws in (game_ws, lobby_ws):
        frame = await receive(ws, skip=("spectators", "lobby", "event"))
        assert frame["type"] == "moderation" and frame["action"] == "site_ban"
        closed = await ws.receive_output(timeout=5)
        while closed["type"] != "websocket.close":
            closed = await ws.receive_output(timeout=5)
        assert closed["code"] == sanctions.CLOSE_BANNED
    assert not await adb(Session.objects.filter(session_key=red.session_key).exists)()
    # Coming back with the same cookie: that session is gone, so they are nobody (an observer).
    again = await connect(f"/ws/games/{gid}/", red)
    frame = await receive(again)
    assert (frame["type"], frame["role"]) == ("state", 2)
    await again.disconnect()
    with pytest.raises(ServiceError) as refused:
        await adb(services.create_game)(red, variant="mini")
    assert refused.value.code == "banned"


def test_a_banned_account_sees_why_on_every_page_and_is_logged_out():
    rob = User.objects.create_user("ban-rob", password="pw-rob-12345")
    client = Client()
    client.force_login(rob)
    sanctions.act(sanctions.Kind.SITE_BAN, sanctions.Target(rob.pk, "", "ban-rob"), "spam",
                  moderator(), 60)  # fmt: skip
    client.force_login(rob)  # (a login after the ban: its sessions were ended)
    page = client.get("/")
    assert page.status_code == 403 and "You are banned from this site" in page.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_warning_is_shown_once_on_the_next_page():
    rob = User.objects.create_user("warned-will", password="pw-will-12345")
    client = Client()
    client.force_login(rob)
    sanctions.act(sanctions.Kind.WARN, sanctions.Target(rob.pk, "", "warned-will"),
                  "mind your language", moderator())  # fmt: skip
    assert client.get("/games/variants/mini.json").status_code == 200  # (JSON: kept for a page)
    first = client.get("/").content.decode()
    assert "A moderator warns you: mind your language" in first
    assert "A moderator warns you" not in client.get("/").content.decode()


def test_the_moderators_group_has_exactly_its_permissions():
    group = moderators()
    held = {(p.content_type.app_label, p.codename) for p in group.permissions.all()}
    assert held == set(PERMISSIONS)


def test_a_moderator_can_act_from_the_queue_and_a_plain_staff_user_cannot():
    gid, red, blue, report = reported_message()
    mod = moderator()
    staff = User.objects.create_user("staff-sam", password="pw-sam-12345", is_staff=True)
    url = "/admin/moderation/report/"
    plain = Client()
    plain.force_login(staff)
    assert plain.get(url).status_code == 403
    answer = plain.post(url, {"action": "mute", "_selected_action": [report.pk], "apply": "1",
                              "reason": "no", "minutes": "5"})  # fmt: skip
    assert answer.status_code == 403 and not Sanction.objects.exists()

    admin = Client()
    admin.force_login(mod)
    queue = admin.get(url).content.decode()
    assert "red" in queue and gid in queue
    detail = admin.get(f"{url}{report.pk}/change/").content.decode()
    assert "you are a fool" in detail and f"/games/{gid}/" in detail  # the context
    ask = admin.post(url, {"action": "mute", "_selected_action": [report.pk]})
    assert ask.status_code == 200 and "why?" in ask.content.decode()  # the reason first
    assert not Sanction.objects.exists()
    done = admin.post(url, {"action": "mute", "_selected_action": [report.pk], "apply": "1",
                            "reason": "insults", "minutes": "5"})  # fmt: skip
    assert done.status_code == 302
    mute = Sanction.objects.get(kind="mute")
    assert (mute.moderator, mute.target_session, mute.reason) == (mod, red.session_key, "insults")
    assert sanctions.running(red, "mute") == mute
    log = admin.get("/admin/moderation/sanction/").content.decode()
    assert "insults" in log and "mod-ann" in log


def test_the_admin_offers_xml_only_for_games_with_a_record_and_errors_are_pages():
    from games.domain.models import Game

    cancelled_host = make_guest("quitter")
    cancelled = services.create_game(cancelled_host, variant="classic")
    services.resign(cancelled.public_id, cancelled_host)  # cancelled before it began
    admin = User.objects.create_superuser("root-rita", password="pw-rita-12345")
    client = Client()
    client.force_login(admin)
    listing = client.get("/admin/games/game/").content.decode()
    assert f"/games/{cancelled.public_id}/replay/" in listing
    assert f"/games/{cancelled.public_id}/record.xml" not in listing
    answer = client.get(f"/games/{cancelled.public_id}/record.xml")
    assert answer.status_code == 409 and answer["Content-Type"].startswith("text/html")
    assert "cancelled before it started" in answer.content.decode()
    assert Game.objects.get(pk=cancelled.pk).status == "aborted"


def test_hostile_report_bodies_are_refused_never_a_500():
    gid, red, blue = seated_game()
    client = Client(raise_request_exception=False)
    client.cookies["sessionid"] = blue.session_key
    for body in (b"", b"null", b"[" * 5000, b'{"version": 1e400}', b'{"version": 2147483648}',
                 b'{"version": 1, "reason": "abuse", "details": 7}', b"\x00"):  # fmt: skip
        answer = client.post(f"/games/{gid}/report/", body, content_type="application/json")
        assert answer.status_code in (400, 404), (body[:20], answer.status_code)
    profile = client.post("/players/nobody-here/report/", {"reason": "abuse"})
    assert profile.status_code == 404
    assert Report.objects.count() == 0
