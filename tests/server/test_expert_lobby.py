"""`expert` in the product: both lobby forms offer it (and any two levels to watch), and on
the server it budgets its thinking from its clock in a timed game."""

from __future__ import annotations

import pytest
from django.test import Client

from games.bots import LEVELS, ExpertPlayer, HardPlayer
from games.domain.models import BLUE, RED, Game
from games.services import computer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick_experts(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("EXPERT_BUDGET", "0.05")  # bots made during the test think briefly
    computer.settings["watch_delay"] = 0.0
    yield
    assert computer.wait_idle(60), "a computer is still thinking after the test"
    computer.settings["watch_delay"] = computer.WATCH_DELAY


def game_id(response) -> str:  # (a Django response)
    return response["Location"].strip("/").split("/")[-1]


def test_the_lobby_offers_expert_to_play_and_any_two_levels_to_watch() -> None:
    client = Client()
    assert client.post("/nickname/", {"nickname": "erin"}).status_code == 302
    lobby = client.get("/").content.decode()
    play_form = lobby[lobby.index('id="computer-form"') : lobby.index('id="play-computer"')]
    assert 'name="level" value="expert"' in play_form
    for seat in ("red_level", "blue_level"):
        select = lobby[lobby.index(f'name="{seat}"') :]
        select = select[: select.index("</select>")]
        assert [level for level in LEVELS if f'value="{level}"' in select] == list(LEVELS)
    response = client.post(
        "/games/computer/play/", {"variant": "duel", "level": "expert", "seat": "1"}
    )
    game = Game.objects.get(public_id=game_id(response))
    assert computer.computer_seats(game) == {RED: "expert"}
    response = client.post(
        "/games/computer/watch/",
        {"variant": "duel", "red_level": "expert", "blue_level": "random"},
    )
    watched = Game.objects.get(public_id=game_id(response))
    assert computer.computer_seats(watched) == {RED: "expert", BLUE: "random"}


def test_expert_budgets_from_its_clock_in_a_timed_game() -> None:
    expert = ExpertPlayer(1, budget=1.0)
    timed = Game(clock_base_ms=300_000, clock_increment_ms=0, red_clock_ms=8_000)
    computer.budget_from_clock(expert, timed, RED)
    assert expert.budget == pytest.approx(8.0 / 40)
    untimed = Game()
    computer.budget_from_clock(expert, untimed, RED)
    assert expert.budget == 1.0  # back to its default
    hard = HardPlayer(1)
    computer.budget_from_clock(hard, timed, RED)  # no budget: nothing to set
    assert not hasattr(hard, "budget")
