"""Text in a template that a person reads but no translation tag holds: text between tags and
the readable attributes (placeholder, title, aria-label, alt), outside <script>, <style>,
comments and template tags. A word made only of a template variable is not text."""

from __future__ import annotations

import re
from html.parser import HTMLParser

TEMPLATE_TAG = re.compile(r"\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\}", re.S)
BLOCK_TRANSLATE = re.compile(r"\{%\s*blocktranslate.*?%\}.*?\{%\s*endblocktranslate\s*%\}", re.S)
COMMENT_BLOCK = re.compile(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", re.S)
READABLE = ("placeholder", "title", "aria-label", "alt")
# Not words: symbols, numbers, the brand, a colour's swatch.
NOT_WORDS = re.compile(r"^[\W\d_×±·…→←↑↓■▲●✓★]*$|^Stratego$|^BOT$")


class Finder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            if name in READABLE and value and not NOT_WORDS.match(value.replace("Stratego", "")):
                self.found.append(f"{tag}[{name}]: {value.strip()}")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if not self.skip and text and not NOT_WORDS.match(text.replace("Stratego", "")):
            self.found.append(text)


def untagged(source: str) -> list[str]:
    """The untagged texts of a template's source."""
    source = COMMENT_BLOCK.sub(" ", source)
    source = BLOCK_TRANSLATE.sub(" ", source)
    source = TEMPLATE_TAG.sub(" ", source)
    finder = Finder()
    finder.feed(source)
    return finder.found
