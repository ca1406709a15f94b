"""`manage.py import_games` and `export_games` on the real PostgreSQL."""

from __future__ import annotations

import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError

from games import engine
from games.domain.models import Game, Move
from games.engine.records import GameRecord, parse_xml, replay
from games.management.commands import import_games
from games.services.game_records import store_game

from .conftest import BLUE_SETUP, RED_SETUP, SHORT_GAME

pytestmark = pytest.mark.django_db

RECORDS = Path(__file__).resolve().parents[1] / "engine" / "records"
GOOD = [
    "barrage-flag.gsn",
    "barrage-flag.xml",
    "classic-resign.xml",
    "duel-blue-flag.xml",
    "hand-red-flag.gsn",
]


def run(command: str, *args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(command, *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """The sample records in a folder tree: good ones at the top, broken ones in a subfolder."""
    folder = tmp_path / "archive"
    (folder / "broken").mkdir(parents=True)
    for path in RECORDS.iterdir():
        target = folder if path.name in GOOD else folder / "broken"
        shutil.copy(path, target / path.name)
    return folder


def test_import_a_folder_recursively(archive: Path):
    out, _ = run("import_games", str(archive))
    lines = out.splitlines()
    assert lines[-1] == "imported 5, rejected 5, errors 0, skipped 0"
    by_file = {line.split(": ", 1)[0]: line.split(": ", 1)[1] for line in lines[:-1]}
    assert len(by_file) == 10  # garbage.bin is no *.xml or *.gsn: not picked up from a folder
    for name in GOOD:
        assert by_file[str(archive / name)].startswith("imported (game ")
    broken = archive / "broken"
    assert by_file[str(broken / "illegal-too-far.xml")] == (
        "rejected: move 3: a marshal moves one square at a time (A3-A5)"
    )
    after_end = by_file[str(broken / "illegal-after-end.gsn")]
    assert after_end == "rejected: move 30: the game is over (E7-F7)"
    assert by_file[str(broken / "short-field.xml")].startswith("rejected: a barrage field has 100")
    assert Game.objects.count() == 5


def test_importing_the_same_file_twice_stores_it_once(archive: Path):
    first, _ = run("import_games", str(archive / "barrage-flag.xml"))
    public_id = first.split("(game ")[1].split(")")[0]
    again, _ = run("import_games", str(archive))
    assert f"barrage-flag.xml: skipped: already imported as game {public_id}" in again
    assert again.splitlines()[-1] == "imported 4, rejected 5, errors 0, skipped 1"
    assert Game.objects.count() == 5
    assert Game.objects.exclude(source_sha256="").count() == 5


def test_an_imported_game_is_stored_as_played(archive: Path):
    out, _ = run("import_games", str(archive / "hand-red-flag.gsn"))
    public_id = out.split("(game ")[1].split(")")[0]
    game = Game.objects.get(public_id=public_id)
    assert (game.status, game.variant, game.winner, game.termination) == (
        "finished",
        "barrage",
        engine.RED,
        "flag_captured",
    )
    assert (game.red_name, game.blue_name, game.ply) == ("Red Hand", "Blue Hand", 29)
    assert game.red_user is None and game.blue_user is None and game.private
    moves = list(game.moves.order_by("ply"))
    assert [m.ply for m in moves] == list(range(1, 30))
    assert moves[10].notation == "K9-K10" and moves[10].color == engine.RED
    last = moves[-1]
    assert (last.attacker_rank, last.defender_rank, last.battle_result) == (
        engine.GENERAL,
        engine.FLAG,
        "attacker",
    )
    restored = engine.Game.from_dict(game.state)
    assert restored.outcome == engine.Outcome(engine.RED, "flag_captured")


def test_a_rejected_file_stores_nothing(archive: Path):
    path = archive / "broken" / "illegal-after-end.gsn"
    out, _ = run("import_games", str(path))
    assert out.splitlines() == [
        f"{path}: rejected: move 30: the game is over (E7-F7)",
        "imported 0, rejected 1, errors 0, skipped 0",
    ]
    assert Game.objects.count() == 0 and Move.objects.count() == 0


def test_a_database_failure_rolls_the_file_back(archive: Path, monkeypatch):
    def fail(*args, **kwargs):
        raise DatabaseError("disk full")

    monkeypatch.setattr(Move.objects, "bulk_create", fail)
    out, _ = run("import_games", str(archive / "duel-blue-flag.xml"))
    assert "error: database: disk full" in out
    assert Game.objects.count() == 0


def test_a_named_file_of_any_name_is_read_and_garbage_is_an_error(archive: Path):
    path = archive / "broken" / "garbage.bin"
    out, _ = run("import_games", str(path))
    assert out.splitlines()[0].startswith(f"{path}: rejected: not a game record")
    assert out.splitlines()[-1] == "imported 0, rejected 1, errors 0, skipped 0"


def test_a_missing_path_is_a_command_error(tmp_path: Path):
    with pytest.raises(CommandError, match="no such file or folder"):
        run("import_games", str(tmp_path / "nothing-here"))


def test_progress_on_large_folders(archive: Path, monkeypatch):
    monkeypatch.setattr(import_games, "PROGRESS_EVERY", 4)
    _, err = run("import_games", str(archive))
    assert err.splitlines() == ["... 4/10 files", "... 8/10 files"]


def test_export_then_import_gives_the_same_games(archive: Path, tmp_path: Path):
    run("import_games", *(str(archive / name) for name in GOOD))
    before = {g.public_id: g for g in Game.objects.all()}
    out, _ = run("export_games", str(tmp_path / "out"))
    assert out.strip() == f"exported 5 games to {tmp_path / 'out'}, skipped 0"
    files = sorted((tmp_path / "out").iterdir())
    assert sorted(p.stem for p in files) == sorted(before)
    for path in files:
        game = before[path.stem]
        record = parse_xml(path.read_text())
        replayed = replay(record)
        assert record.players == (game.red_name, game.blue_name)
        assert replayed.to_dict() == game.state
        assert [(m.move.src, m.move.dst) for m in replayed.history] == list(
            game.moves.order_by("ply").values_list("from_square", "to_square")
        )
    again, _ = run("import_games", str(tmp_path / "out"))
    # An exported file with the very bytes of an imported one is skipped; the others are new.
    originals = {(archive / name).read_bytes() for name in GOOD}
    same = sum(path.read_bytes() in originals for path in files)
    assert again.splitlines()[-1] == f"imported {5 - same}, rejected 0, errors 0, skipped {same}"
    assert Game.objects.count() == 10 - same


def test_export_skips_what_xml_cannot_hold(tmp_path: Path):
    played = engine.Game.from_setups("mini", RED_SETUP, BLUE_SETUP)
    for color, src, dst in SHORT_GAME:
        played.push(engine.Move(src, dst), color)
    record = GameRecord("mini", RED_SETUP, BLUE_SETUP, tuple(r.move for r in played.history))
    store_game(record, played)
    Game.objects.create(
        variant="classic", status=Game.Status.PLAYING, state=engine.Game("classic").to_dict()
    )
    out, err = run("export_games", str(tmp_path / "out"))
    assert out.strip() == f"exported 0 games to {tmp_path / 'out'}, skipped 1"
    assert "no game type for the mini variant" in err
    assert list((tmp_path / "out").iterdir()) == []


def test_an_unfinished_record_is_rejected(tmp_path: Path):
    text = (RECORDS / "hand-red-flag.gsn").read_text().splitlines()
    path = tmp_path / "unfinished.gsn"
    path.write_text("\n".join(text[:10] + ["END"]) + "\n")  # seven moves, no result line
    out, _ = run("import_games", str(path))
    assert out.splitlines()[0] == (
        f"{path}: rejected: the record has no result and the game is not over after its 7 moves"
    )
    assert Game.objects.count() == 0
