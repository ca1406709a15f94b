"""CPU seconds Chromium spends opening a page, with the browser tests' flags and without the
omnibox popup's features (tests/browser/conftest.py, CHROMIUM_ARGS).

usage: .venv/bin/python scripts/chromium_page_cost.py [PAGES]

For each flag set: launches Chromium, then PAGES times opens a context and a page on
about:blank and closes them, and prints the median CPU seconds of the whole process tree
(Playwright's driver and every Chromium process) for the new page and for its navigation.
CPU time, unlike wall-clock time, hardly depends on what else the machine runs.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TICKS = os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(root: int) -> float:
    """User + system seconds of every live descendant of `root` and of the children they
    reaped (from /proc)."""
    parents: dict[int, int] = {}
    seconds: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        parents[int(entry)] = int(fields[1])
        seconds[int(entry)] = sum(int(field) for field in fields[11:15]) / TICKS  # + children
    total, stack = 0.0, [root]
    while stack:
        parent = stack.pop()
        for pid, ppid in parents.items():
            if ppid == parent:
                total += seconds[pid]
                stack.append(pid)
    return total


def measure(args: list[str], pages: int) -> tuple[float, float]:
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM

    new_page, navigate = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=args)
        time.sleep(1)
        for _ in range(pages):
            context = browser.new_context()
            before = tree_cpu_seconds(os.getpid())
            page = context.new_page()
            time.sleep(1)  # what the new page started in the background, too
            opened = tree_cpu_seconds(os.getpid())
            page.goto("about:blank")
            time.sleep(1)
            navigated = tree_cpu_seconds(os.getpid())
            context.close()
            new_page.append(opened - before)
            navigate.append(navigated - opened)
        browser.close()
    return statistics.median(new_page), statistics.median(navigate)


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stratego_site.test_settings")
    from tests.browser.conftest import CHROMIUM_ARGS

    pages = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with_popup = [arg for arg in CHROMIUM_ARGS if not arg.startswith("--disable-features=")]
    for title, args in (("Playwright's features", with_popup), ("tests' flags", CHROMIUM_ARGS)):
        page, navigation = measure(args, pages)
        print(f"{title:24} new page {page:.2f} CPU-s, about:blank {navigation:.2f} CPU-s")


if __name__ == "__main__":
    main()
