"""The pages rendered in Dutch hold no English word: not the stored codes said as they are
(a variant, a computer's level, a colour, a result, a piece of a drawn army) nor a text the
server composes. The game client's part (the lobby's rows, the seats, the notices) is checked
in the browser: tests/browser/test_languages.py."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from games import engine, services
from games.domain import words
from games.domain.errors import ServiceError
from games.domain.identity import Identity
from games.domain.models import Game
from games.services import computer
from games.services.unit import time_out_error
from moderation import sanctions
from tests.server.conftest import make_guest
from tests.tournaments.helpers import event
from tournaments import entries

pytestmark = pytest.mark.django_db

# English words that no Dutch page should show: function words of English prose, and the
# codes that leaked before (variants, levels, colours, results, pieces whose Dutch name
# differs). Names typed by people in the fixtures below are Dutch-neutral.
ENGLISH = re.compile(
    r"\b(the|and|your|you|to|game|move|moves|army|untimed|two-squares|classic|"
    r"random|medium|hard|Red|Blue|won|lost|draw|Marshal|General|Colonel|Major|Captain|"
    r"Lieutenant|Miner|Scout|Spy|Bomb|Flag|vs)\b"
)


class Reader(HTMLParser):
    """The text a person reads: between tags (outside scripts and styles) and the readable
    attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            if name in ("title", "aria-label", "placeholder", "alt") and value:
                self.texts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip and data.strip():
            self.texts.append(" ".join(data.split()))


def english_in(html: str) -> list[str]:
    reader = Reader()
    reader.feed(html)
    return [text for text in reader.texts if ENGLISH.search(text)]


def dutch(client: Client, path: str) -> str:
    response = client.get(path, HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 200, path
    assert 'lang="nl"' in response.content.decode()
    return response.content.decode()


def finished_against_the_computer(anna) -> Game:  # noqa: ANN001 - a User
    """A finished mini game of anna's (Red) against the hard computer (Blue), one move played:
    the computer's seat as its game stores it, without its thinking thread."""
    person = Identity(user_id=anna.pk, session_key=None, name=anna.username)
    bram = make_guest("bram")
    gid = services.create_game(person, variant="mini", seat=0).public_id
    services.join_game(gid, bram)
    for ident in (person, bram):
        services.random_setup(gid, ident, seed=7)
        services.ready(gid, ident)
    view = engine.Game.from_dict(Game.objects.get(public_id=gid).state).view(0).to_dict()
    services.move(gid, person, *view["legal_moves"][0])
    services.resign(gid, bram)
    seat = computer.computer_identity("hard", 1)
    Game.objects.filter(public_id=gid).update(
        blue_session=seat.session_key, blue_name=seat.name, blue_computer="hard"
    )
    return Game.objects.get(public_id=gid)


def test_the_pages_say_codes_and_computer_names_in_dutch():
    anna = get_user_model().objects.create_user("anna", password="pw-for-tests-1")
    game = finished_against_the_computer(anna)
    drawn = engine.get_variant("mini").draw_army(random.Random(3))
    waiting = services.create_game(
        make_guest("carla"), variant="mini", rules={"army": [list(p) for p in drawn.army]}
    )
    tournament = event(anna, name="Vrijdag")
    entries.add_computer(tournament.pk, anna, "hard")
    client = Client()
    client.force_login(anna)
    pages = {
        path: english_in(dutch(client, path))
        for path in (
            "/",
            f"/games/{waiting.public_id}/",
            f"/games/{game.public_id}/replay/",
            "/players/anna/",
            "/players/?variant=mini",
            f"/tournaments/{tournament.pk}/",
        )
    }
    assert pages == {path: [] for path in pages}
    page = dutch(client, f"/games/{waiting.public_id}/")
    with translation.override("nl"):
        assert words.rank_name(engine.MARSHAL) == "Maarschalk"
        assert "leger: " in page and "tweevakkenregel: 3 zetten" in page
        assert words.computer_name("hard") in dutch(client, f"/tournaments/{tournament.pk}/")
        assert words.computer_name("hard") in dutch(client, f"/games/{game.public_id}/replay/")


def test_messages_the_server_composes_name_colours_in_the_readers_language():
    gid = services.create_game(make_guest("dirk"), variant="mini", seat=1).public_id
    with translation.override("nl"):
        with pytest.raises(ServiceError) as taken:
            services.join_game(gid, make_guest("eva"), 1)
        assert taken.value.message == "De plaats van Blauw is bezet."
        game = Game.objects.get(public_id=gid)
        game.winner = 0
        assert "Blauw" in time_out_error(game, None).message


def test_a_moderators_notice_is_worded_by_the_page_from_codes():
    """The `moderation` frame, one for all of a person's sockets, carries the reason apart
    from the English message, so the game page words it (static/ui/game.js)."""
    anna = get_user_model().objects.create_user("anna2", password="pw-for-tests-1")
    staff = get_user_model().objects.create_user("mod", password="pw-for-tests-1", is_staff=True)
    sanction = sanctions.Sanction(
        kind="warn", reason="scheldwoorden", target_user=anna, target_name="anna2", moderator=staff
    )
    frame = sanctions.frame_of(sanction)
    assert frame["reason"] == "scheldwoorden" and frame["action"] == "warn"
