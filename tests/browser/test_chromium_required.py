"""Without Chromium the browser tests fail with the way to install it; they never skip."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_missing_chromium_fails_and_says_how_to_install_it(tmp_path):
    env = {**os.environ, "STRATEGO_CHROMIUM": str(tmp_path / "no-chromium-here")}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-rA",
            "tests/browser/test_draw_offers.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = run.stdout + run.stderr
    assert run.returncode != 0, output
    assert "apt-get install -y chromium" in output
    assert "skipped" not in output.lower().split("short test summary")[-1]
