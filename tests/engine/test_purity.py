"""The engine is pure Python: importing it loads no Django and no other framework."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_engine_imports_no_django():
    code = (
        "import sys, games.engine, games.engine.records, games.engine.player_interface,"
        " games.engine.referee;"
        "frameworks = {'django', 'channels', 'daphne'};"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in frameworks);"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_engine_source_never_mentions_django():
    for path in (ROOT / "games" / "engine").rglob("*.py"):
        assert "django" not in path.read_text().lower(), path
