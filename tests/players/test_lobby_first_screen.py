"""The lobby's main actions: a visitor without a name plays in one step, a bad nickname is
explained beside its field, open seeks are listed for everyone, and fields show only to
those who can use them."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from players.models import Seek

pytestmark = pytest.mark.django_db


def test_a_bad_nickname_is_explained_in_place_and_signs_on_nobody():
    client = Client()
    for name, why in (
        ("two words", "no spaces: try two_words"),
        ("x" * 30, "at most 24 characters; this one has 30"),
        ("émile!", "(not !é)"),
        ("", "Choose a nickname first"),
    ):
        response = client.post("/nickname/", {"nickname": name})
        page = response.content.decode()
        assert response.status_code == 400
        error = page[page.index('id="nickname-error"') :]
        assert why in error[: error.index("</p>")], name
        assert 'aria-invalid="true"' in page
        assert "nickname" not in client.session


def test_a_visitor_without_a_name_plays_the_computer_in_one_step():
    client = Client()
    response = client.post(
        "/nickname/",
        {"nickname": "newbie", "then": "computer", "variant": "mini", "level": "random",
         "seat": "0"},
    )  # fmt: skip
    assert response.status_code == 302 and response["Location"].startswith("/games/")
    game = Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])
    assert game.variant == "mini"
    assert client.session["nickname"] == "newbie"


def test_open_seeks_are_listed_for_everyone_without_a_guests_rating():
    seeker = Client()
    seeker.post("/nickname/", {"nickname": "eager", "then": "play_now", "variant": "mini",
                               "time_control": "untimed"})  # fmt: skip
    assert Seek.objects.filter(name="eager", game=None).exists()
    visitor = Client()
    page = visitor.get("/").content.decode()
    seeks = page[page.index('id="seeks"') :]
    seeks = seeks[: seeks.index("</ul>")]
    assert "eager" in seeks and "mini" in seeks and "Play them" in seeks and "1500" not in seeks
    listed = visitor.get("/seeks/").json()["seeks"]
    assert listed == [{"name": "eager", "variant": "mini", "time_control": "untimed",
                       "rating": None, "mine": False}]  # fmt: skip
    assert seeker.get("/seeks/").json()["seeks"][0]["mine"] is True


def test_fields_show_only_to_those_who_can_use_them():
    visitor = Client()
    page = visitor.get("/").content.decode()
    for action in ('id="play-person"', 'id="computer"', 'id="watch"', 'id="learn"'):
        assert action in page
    assert 'id="create-game"' not in page and 'id="rating-min"' not in page
    guest = Client()
    guest.post("/nickname/", {"nickname": "casual"})
    page = guest.get("/").content.decode()
    assert 'id="create-game"' in page
    assert 'id="rating-min"' not in page and 'name="rated"' not in page
