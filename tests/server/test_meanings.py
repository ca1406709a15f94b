"""Each meaning is defined once, in the engine, and served from there: how an ending reads,
and which variants there are."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from games import engine, services
from lobby import views as lobby_views
from players import ratings

ROOT = Path(__file__).resolve().parents[2]


def test_every_ending_has_one_wording_served_to_the_clients():
    labels = engine.TERMINATION_LABELS
    assert set(labels) == {*engine.TERMINATIONS, *engine.NO_RESULT}
    # the pages show them in the reader's language: the engine's words, translated
    assert {k: str(v) for k, v in lobby_views.TERMINATIONS.items()} == labels


def test_the_browser_client_words_its_endings_as_the_engine_does():
    """The client's catalogue of endings (static/ui/moves.js, marked there for the JavaScript
    translations) holds the engine's words, no other."""
    source = (ROOT / "static" / "ui" / "moves.js").read_text()
    block = source[source.index("export const TERMINATIONS = {") :]
    block = block[: block.index("};")]
    client = dict(re.findall(r'(\w+): _\("([^"]+)"\)', block))
    assert client == {str(k): v for k, v in engine.TERMINATION_LABELS.items()}


@pytest.mark.django_db
def test_the_wording_is_served_as_json():
    response = Client().get("/games/terminations.json")
    assert response.status_code == 200
    assert response.json() == {str(k): v for k, v in engine.TERMINATION_LABELS.items()}


def test_the_variant_list_is_the_engines():
    assert services.VARIANT_NAMES == tuple(engine.VARIANTS) == ratings.VARIANTS


def test_no_variant_speaks_of_where_it_came_from():
    for variant in engine.VARIANTS.values():
        assert "seed" not in f"{variant.title} {variant.notes}".lower()
