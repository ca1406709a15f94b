"""Every word a person reads is translated: the templates hold no untagged text, every
message the sources hold (pages, lessons, the game client) is in each language's catalogue
with a translation, and the compiled catalogues are those of the committed ones."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from .untagged import untagged

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]
DOMAINS = ("django", "djangojs")
IGNORE = [".venv", "tests", "bench", "staticfiles", "artifacts", "docs", "node_modules"]


def catalogue(path: Path) -> dict[str, str]:
    """msgid -> msgstr of a .po file (fuzzy entries count as untranslated)."""
    found = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        msgid = re.search(r'^msgid ((?:"[^\n]*"\n?)+)', block, re.M)
        msgstr = re.search(r'^msgstr ((?:"[^\n]*"\n?)+)', block, re.M)
        if not msgid or not msgstr:
            continue
        text = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', msgid.group(1)))
        if text:
            found[text] = (
                ""
                if "#, fuzzy" in block
                else "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', msgstr.group(1)))
            )
    return found


def test_the_templates_hold_no_untagged_text():
    found = {
        str(path.relative_to(ROOT)): texts
        for path in sorted((ROOT / "templates").rglob("*.html"))
        if (texts := untagged(path.read_text(encoding="utf-8")))
    }
    assert found == {}, "text a person reads without a translation tag"


def test_every_message_is_translated_in_every_language():
    for code in LANGUAGES:
        for domain in DOMAINS:
            entries = catalogue(LOCALE / code / "LC_MESSAGES" / f"{domain}.po")
            assert len(entries) > 50
            empty = [msgid for msgid, msgstr in entries.items() if not msgstr]
            assert empty == [], f"{code}/{domain}: untranslated"
            for msgid, msgstr in entries.items():  # the same places to fill in, in any order
                places = sorted(re.findall(r"%\(\w+\)[sd]", msgid))
                assert sorted(re.findall(r"%\(\w+\)[sd]", msgstr)) == places, (code, msgid)


def test_the_catalogues_hold_every_message_of_the_sources(tmp_path, monkeypatch):
    """makemessages, run on the sources (linked into a scratch folder, so that it writes
    nothing here), finds no message the catalogues lack."""
    assert shutil.which("xgettext"), "gettext is missing: apt-get install -y gettext"
    scratch = tmp_path / "sources"
    scratch.mkdir()
    for name in ("games", "lobby", "learn", "players", "moderation", "botapi", "templates",
                 "static", "stratego_site"):  # fmt: skip
        (scratch / name).symlink_to(ROOT / name)
    out = scratch / "messages"
    monkeypatch.chdir(scratch)
    with override_settings(LOCALE_PATHS=[out]):
        for domain in DOMAINS:
            call_command("makemessages", locale=["nl"], domain=domain, symlinks=True,
                         ignore_patterns=IGNORE, verbosity=0)  # fmt: skip
    for domain in DOMAINS:
        wanted = set(catalogue(out / "nl" / "LC_MESSAGES" / f"{domain}.po"))
        assert len(wanted) > 50
        for code in LANGUAGES:
            have = set(catalogue(LOCALE / code / "LC_MESSAGES" / f"{domain}.po"))
            assert wanted - have == set(), f"{code}/{domain}: run make messages"


def test_the_compiled_catalogues_are_up_to_date(tmp_path):
    for code in LANGUAGES:
        for domain in DOMAINS:
            source = LOCALE / code / "LC_MESSAGES" / f"{domain}.po"
            compiled = tmp_path / f"{code}-{domain}.mo"
            subprocess.run(["msgfmt", "--check-format", "-o", compiled, source], check=True)
            committed = source.with_suffix(".mo").read_bytes()
            assert compiled.read_bytes() == committed, f"{code}/{domain}: run make messages"


def test_the_engine_termination_labels_are_the_ones_marked_for_translation():
    """The engine's labels are translated where pages show them (lobby/views.py); the
    messages marked there for the catalogues are exactly the engine's."""
    from games import engine
    from lobby.views import TERMINATION_MESSAGES

    assert sorted(TERMINATION_MESSAGES) == sorted(engine.TERMINATION_LABELS.values())
