"""The Chromium flags of the browser tests keep Playwright's own and drop the omnibox popup.

Chromium keeps only the last --disable-features it is given, so conftest's list must hold
Playwright's whole list: an upgrade of Playwright that adds a feature fails here, not as a
strange browser-test failure later.
"""

from __future__ import annotations

import re
from pathlib import Path

import playwright

from tests.browser.conftest import (
    CHROMIUM_ARGS,
    OMNIBOX_POPUP_FEATURES,
    PLAYWRIGHT_DISABLED_FEATURES,
)

BUNDLE = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"


def playwright_disabled_features() -> list[str]:
    source = BUNDLE.read_text()
    block = re.search(r"disabledFeatures = \[(.*?)\]", source, re.S)
    assert block, f"Playwright's list of disabled features is no longer in {BUNDLE}"
    lines = [line.split("//")[0] for line in block.group(1).splitlines()]
    return re.findall(r'"([A-Za-z0-9]+)"', "\n".join(lines))


def test_our_disabled_features_include_playwrights():
    theirs = playwright_disabled_features()
    assert "PaintHolding" in theirs  # the parse found the real list
    # Edge-only switches (ms...) mean nothing to Chromium.
    ours = set(PLAYWRIGHT_DISABLED_FEATURES)
    missing = [f for f in theirs if f not in ours and not f.startswith("ms")]
    assert missing == []


def test_a_new_page_builds_no_omnibox_popup(browser):
    session = browser.new_browser_cdp_session()
    context = browser.new_context()
    try:
        context.new_page().goto("about:blank")
        targets = session.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
    finally:
        context.close()
    urls = [target["url"] for target in targets]
    assert "about:blank" in urls
    assert not [url for url in urls if "omnibox" in url], urls


def test_one_disable_features_flag_holds_both_lists():
    flags = [arg for arg in CHROMIUM_ARGS if arg.startswith("--disable-features=")]
    assert len(flags) == 1  # Chromium would keep only the last
    disabled = flags[0].split("=", 1)[1].split(",")
    assert set(PLAYWRIGHT_DISABLED_FEATURES + OMNIBOX_POPUP_FEATURES) <= set(disabled)
