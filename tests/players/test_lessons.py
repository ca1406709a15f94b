"""The tutorial's lessons, each played to its end through the engine (learn/tutor.py), and
what a refused move, a lost battle or a bad request get."""

from __future__ import annotations

import pytest
from django.test import Client

from learn import tutor
from learn.lessons import LESSONS

# Each lesson's way to its goal: the learner's moves (or, for the setup, placements).
SOLUTIONS = {
    "moving": [[2, 7], [7, 12], [12, 17]],
    "scout": [[1, 21]],
    "battles": [[12, 17]],
    "bombs": [[11, 16]],
    "spy": [[12, 17]],
    "flag": [[7, 8], [8, 13], [13, 18], [18, 23], [23, 22]],
    "two-squares": [[12, 13], [13, 12], [12, 13], [13, 12]],
    "setup": [[2, 12], [1, 11]],
}


def play_through(slug: str, steps: list[list[int]]) -> dict:
    kept: list = []
    state: dict = {}
    for step in steps:
        state = tutor.state(slug, kept, step)
        kept = state["placements"] if slug == "setup" else state["moves"]
    return state


def test_every_lesson_is_solved_by_its_way_and_only_by_the_engine():
    assert [lesson.slug for lesson in LESSONS] == list(SOLUTIONS)
    for lesson in LESSONS:
        state = play_through(lesson.slug, SOLUTIONS[lesson.slug])
        assert state["status"] == "done", lesson.slug
        assert state["say"] == str(lesson.done)
        start = tutor.state(lesson.slug, [])
        assert start["status"] == "playing" and start["say"] == str(lesson.intro)


def test_the_engine_refuses_and_explains():
    diagonal = tutor.state("moving", [], [2, 8])
    assert diagonal["status"] == "playing" and diagonal["moves"] == []
    assert "diagonal" in diagonal["refused"]
    bomb = tutor.state("bombs", [], [13, 18])  # the Captain on a Bomb
    assert bomb["status"] == "failed" and "only a Miner" in bomb["say"]
    assert bomb["battle"] == {"attacker": 6, "defender": 11, "result": "defender"}
    flag_forward = tutor.state("setup", [], [12, 12])
    assert flag_forward["refused"] and flag_forward["placements"] == []
    refused = tutor.state("two-squares", [[12, 13], [13, 12], [12, 13]], [13, 12])
    assert "3 times" in refused["refused"]


@pytest.mark.django_db
def test_the_lesson_endpoint_answers_json_and_refuses_bad_input():
    client = Client(enforce_csrf_checks=True)
    start = client.get("/learn/lessons/scout/").json()
    assert start["width"] == 5 and [1, 21] in start["legal_moves"] and start["marks"] == [21]
    done = client.post("/learn/lessons/scout/", {"moves": [], "tried": [1, 21]},
                       content_type="application/json").json()  # fmt: skip
    assert done["status"] == "done"
    for body in ('{"moves": [[0, 99]]}', '{"moves": "x"}', "[1]", "not json"):
        response = client.post("/learn/lessons/scout/", body, content_type="application/json")
        assert response.status_code == 400 and response.json()["error"] == "bad_lesson_request"
    assert client.get("/learn/lessons/nope/").status_code == 400
    page = client.get("/learn/rules/").content.decode()
    assert 'data-diagram="scout"' in page and "diagram-data" in page
