"""Screenshots of the event pages for docs/screenshots/ (docs/tournaments.md), in Chromium.

    .venv/bin/python scripts/tournament_screenshots.py [OUT_DIR]

Self-contained: a throwaway SQLite database is filled through the services (a finished
Swiss with two computer levels, a round-robin and an arena under way, an upcoming event),
then a daphne on it (background work off, so nothing moves while the pages are taken) is
visited by Playwright with Debian's Chromium. Nothing else needs to run.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DB = Path(tempfile.mkdtemp()) / "shots.sqlite3"
ENV = {**os.environ, "SQLITE_PATH": str(DB), "DJANGO_SETTINGS_MODULE": "stratego_site.settings",
       "BACKGROUND_WORK": "off", "DEBUG": "true"}  # fmt: skip
for key in ("DATABASE_URL", "REDIS_URL"):
    ENV.pop(key, None)
os.environ.clear()
os.environ.update(ENV)
PASSWORD = "a-long-pass-9731"


def fill() -> dict[str, int]:
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.utils import timezone

    from games import services
    from games.domain.identity import Identity
    from games.domain.models import RED
    from games.services.computer import computer_identity
    from tournaments import entries, events, scheduler
    from tournaments.models import Tournament

    call_command("migrate", verbosity=0)
    rng = random.Random(4)
    names = ["ada", "ben", "wes", "kim", "lou", "max", "nia", "oto"]
    users = {n: User.objects.create_user(n, password=PASSWORD) for n in names}
    User.objects.create_superuser("admin", password=PASSWORD)
    soon = timezone.now() + timedelta(minutes=2)

    def identity(game, color):  # noqa: ANN001, ANN202
        level = game.seat_computer(color)
        if level:
            return computer_identity(level, color)
        uid = game.red_user_id if color == RED else game.blue_user_id
        return Identity(uid, None, game.seat_name(color))

    def decide(t: Tournament) -> None:
        for p in t.pairings.filter(red_score=None).exclude(game=None):
            services.resign(p.game.public_id, identity(p.game, rng.choice((0, 1))))

    def make(creator, **chosen) -> Tournament:  # noqa: ANN001
        chosen.setdefault("starts_at", soon)
        t = events.create(creator, events.Settings(**chosen))
        Tournament.objects.filter(pk=t.pk).update(grace_seconds=86400, round_pause_seconds=0)
        return Tournament.objects.get(pk=t.pk)

    swiss = make(users["ada"], name="Friday Night Swiss", variant="mini", rounds=3)
    for n in names[:6]:
        entries.enter(swiss.pk, users[n])
    for level in ("medium", "hard"):
        entries.add_computer(swiss.pk, users["ada"], level)
    later = timezone.now() + timedelta(minutes=3)
    for _ in range(3):
        scheduler.sweep(later)
        decide(swiss)
        later += timedelta(seconds=5)
        scheduler.sweep(later)
    scheduler.sweep(later + timedelta(seconds=5))

    robin = make(users["ben"], name="Club round-robin", format="round_robin", variant="barrage",
                 time_control="10+5", rated=False)  # fmt: skip
    for n in ("ben", "wes", "kim", "lou", "max"):
        entries.enter(robin.pk, users[n])
    later = timezone.now() + timedelta(minutes=3)
    for _ in range(2):
        scheduler.sweep(later)
        decide(robin)
        later += timedelta(seconds=5)
        scheduler.sweep(later)
    scheduler.sweep(later + timedelta(seconds=5))

    arena = make(users["kim"], name="Hourly mini arena", format="arena", variant="mini",
                 time_control="5+3", minutes=60)  # fmt: skip
    for n in names:
        entries.enter(arena.pk, users[n])
    later = timezone.now() + timedelta(minutes=3)
    for _ in range(4):
        scheduler.sweep(later)
        decide(arena)
        later += timedelta(seconds=5)
    scheduler.sweep(later)

    upcoming = make(users["ada"], name="Sunday classic Swiss", variant="classic", rounds=5,
                    time_control="20+10", starts_at=timezone.now() + timedelta(days=2),
                    rating_min=1400, rating_max=1900)  # fmt: skip
    events.feature(upcoming.pk, User.objects.get(username="admin"))
    for n in ("ada", "ben", "nia"):
        entries.enter(upcoming.pk, users[n])
    entries.add_computer(upcoming.pk, users["ada"], "expert")
    return {"swiss": swiss.pk, "robin": robin.pk, "arena": arena.pk, "upcoming": upcoming.pk}


def wait_up(url: str, proc: subprocess.Popen) -> None:
    for _ in range(150):
        if proc.poll() is not None:
            raise SystemExit("daphne exited")
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("daphne did not start")


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "docs" / "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    ids = fill()
    port = 8700 + os.getpid() % 200
    base = f"http://127.0.0.1:{port}"
    daphne = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "stratego_site.asgi:application"], cwd=ROOT, env=ENV,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        wait_up(base + "/", daphne)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = None

            def log_in(name: str) -> None:
                nonlocal page
                page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
                page.goto(base + "/accounts/login/")
                page.fill("#id_username", name)
                page.fill("#id_password", PASSWORD)
                page.locator("main form button[type=submit]").click()
                page.wait_for_load_state()

            def shot(path: str, name: str, full: bool = True, selector: str = "") -> None:
                page.goto(base + path)
                page.wait_for_load_state("networkidle")
                target = page.locator(selector) if selector else page
                kwargs = {"full_page": full} if not selector else {}
                target.screenshot(path=str(out / f"tournament_{name}.png"), **kwargs)
                print("wrote", out / f"tournament_{name}.png")

            log_in("ada")
            shot("/tournaments/", "list")
            shot(f"/tournaments/{ids['upcoming']}/", "upcoming_creator")
            shot(f"/tournaments/{ids['swiss']}/", "swiss_finished")
            shot(f"/tournaments/{ids['robin']}/", "round_robin_crosstable")
            shot(f"/tournaments/{ids['arena']}/", "arena_running")
            shot("/", "lobby_section", selector="#tournaments")
            shot("/players/ada/", "profile_events", selector="#events")
            log_in("admin")
            shot(f"/admin/tournaments/tournament/{ids['swiss']}/change/", "admin_review")
            browser.close()
    finally:
        daphne.terminate()
        daphne.wait(10)


if __name__ == "__main__":
    main()
