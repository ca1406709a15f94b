"""In a real browser: a player reports a chat message from the game page; a moderator's mute
reaches the muted player's open page at once, and stays said on every load."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.transport.layers import ResilientRedisChannelLayer
from moderation import sanctions
from moderation.models import Report

from . import pages as P


def off_the_browsers_loop(function, *args):
    """Run `function` on another thread: Playwright's loop runs on this one, and the channel
    layer's send (async_to_sync) refuses a thread with a running loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(function, *args).result()


def server_layer(server):  # (the DaphneServer; a channel layer)
    """A channel layer on the server's Redis prefix (the test process's own is another): the
    one it was given, plus the test worker's name as stratego_site/test_settings.py adds it."""
    prefix = server.env["CHANNEL_PREFIX"]
    worker = server.env.get("PYTEST_XDIST_WORKER")
    if worker and not prefix.endswith(f"-{worker}"):
        prefix += f"-{worker}"
    config = dict(settings.CHANNEL_LAYERS["default"]["CONFIG"], prefix=prefix)
    return ResilientRedisChannelLayer(**config)


def test_reporting_a_message_then_the_author_is_muted(server, server_url, new_context, monkeypatch):
    errors: list[str] = []
    red = new_context().new_page()
    blue = new_context().new_page()
    for page in (red, blue):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    P.sign_on(red, server_url, "rude-rex")
    P.sign_on(blue, server_url, "polite-pia")
    gid = P.create_game(red, "mini")
    blue.goto(server_url + "/")
    P.join_from_lobby(blue, gid)

    red.fill("#chat-input", "you play like a potato")
    red.press("#chat-input", "Enter")
    line = blue.locator("#chat-list .chat-line").last
    expect(line).to_contain_text("rude-rex (guest, Red): you play like a potato")
    expect(red.locator("#chat-list .chat-line .report-button")).to_have_count(0)  # (own line)

    line.locator(".report-button").click()
    dialog = blue.locator("#report-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#report-quote")).to_have_text("rude-rex: you play like a potato")
    blue.select_option("#report-reason", "abuse")
    blue.fill("#report-details", "insults in the players' chat")
    P.shot(blue, "moderation_01_report_dialog")
    blue.click("#report-send")
    expect(dialog.locator("#report-result")).to_have_text("Thank you: a moderator will look at it.")
    report = Report.objects.get(game__public_id=gid)
    assert (report.target_name, report.reason, report.reporter_name) == (
        "rude-rex", "abuse", "polite-pia")  # fmt: skip
    assert report.message.text == "you play like a potato"
    blue.click("#report-cancel")

    moderator = User.objects.create_user("mod-mo", password="pw-mo-12345", is_staff=True)
    target = sanctions.target_of_report(report)
    monkeypatch.setattr(sanctions, "get_channel_layer", lambda: server_layer(server))
    off_the_browsers_loop(sanctions.act, "mute", target, "insults", moderator, 30, report)

    notice = red.locator("#moderation-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("You are muted in chat until")
    expect(notice).to_contain_text("Reason: insults")
    expect(red.locator("#chat-input")).to_be_disabled()
    expect(red.locator("#chat-form button[type=submit]")).to_be_disabled()
    P.shot(red, "moderation_02_muted_player")
    red.reload()
    expect(red.locator("#moderation-notice")).to_contain_text("You are muted in chat until")
    expect(red.locator("#chat-input")).to_be_disabled()
    expect(blue.locator("#moderation-notice")).to_be_hidden()  # only the muted player is told
    assert errors == []
