"""A page's script modules served as one file (stratego_site/bundles.py): every page's entry
bundles, each module after those it imports; the file is named by its content and cached for
a year, gzipped for a browser that takes it; forms the bundler does not read are refused."""

from __future__ import annotations

import gzip
import re

import pytest
from django.test import Client, override_settings

from stratego_site import bundles

ENTRIES = ["ui/game.js", "ui/lobby.js", "ui/replay.js", "ui/tutorial.js", "ui/diagrams.js",
           "players/seek.js", "tournaments/tournament.js"]  # fmt: skip


@pytest.mark.parametrize("entry", ENTRIES)
def test_each_module_comes_after_the_modules_it_imports(entry):
    text = bundles.build(entry)
    order = re.findall(r"^// (\S+\.js)\nconst (m\d+) = ", text, re.M)
    assert order[-1][0] == entry
    placed = set()
    for path, name in order:
        body = text.split(f"const {name} = (() => {{\n", 1)[1].split("\n})();", 1)[0]
        used = set(re.findall(r"= (m\d+);$", body, re.M))
        assert used <= placed, (path, used - placed)
        placed.add(name)
    assert "\nimport " not in text and "\nexport " not in text


def test_a_bundle_is_answered_without_the_database_or_a_session():
    # no django_db mark: any database access here fails the test (pytest-django)
    response = Client().get(bundles.url("ui/game.js"))
    assert response.status_code == 200 and response.content == bundles.make("ui/game.js").text
    assert "sessionid" not in response.cookies
    assert Client().get("/bundles/ui/nothing.000000000000.js").status_code == 404


@pytest.mark.django_db
def test_the_bundle_is_served_gzipped_and_cached_for_a_year():
    made = bundles.make("ui/game.js")
    address = bundles.url("ui/game.js")
    assert address == f"/bundles/ui/game.{made.digest}.js"
    response = Client().get(address, HTTP_ACCEPT_ENCODING="gzip, br")
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert gzip.decompress(response.content) == made.text
    plain = Client().get(address)
    assert plain.content == made.text and "Content-Encoding" not in plain
    stale = Client().get("/bundles/ui/game.000000000000.js")
    assert stale.status_code == 200 and stale["Cache-Control"] == "no-cache"
    assert Client().get("/bundles/ui/nothing.000000000000.js").status_code == 404


@pytest.mark.django_db
def test_the_lobby_loads_its_modules_as_one_file():
    page = Client().get("/").content.decode()
    scripts = re.findall(r'<script type="module" src="([^"]+)"', page)
    assert scripts == [bundles.url("ui/lobby.js")]
    assert "modulepreload" not in page


@pytest.mark.parametrize(
    "line",
    [
        'import { a } from "https://cdn.example/x.js";',
        "import thing from './x.js';",
        "export default function f() {}",
        "export { a, b };",
        "export const a = 1, b = 2;",
    ],
)
def test_a_form_the_bundler_does_not_read_is_refused(tmp_path, line):
    (tmp_path / "x.js").write_text("export const a = 1;\n")
    (tmp_path / "entry.js").write_text(line + "\n")
    with override_settings(STATICFILES_DIRS=[tmp_path]):
        with pytest.raises(bundles.BundleError):
            bundles.build("entry.js")


def test_an_import_cycle_is_refused(tmp_path):
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\nexport const a = 1;\n')
    (tmp_path / "b.js").write_text('import { a } from "./a.js";\nexport const b = 2;\n')
    with override_settings(STATICFILES_DIRS=[tmp_path]):
        with pytest.raises(bundles.BundleError, match="cycle"):
            bundles.build("a.js")
