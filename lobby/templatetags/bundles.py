"""`{% bundle "ui/game.js" %}`: the address of a page's script modules as one file, and
`{% data_uri "ui/favicon.svg" %}`: a small file written into the page (stratego_site/bundles.py)."""

from __future__ import annotations

from django import template

from stratego_site import bundles

register = template.Library()


@register.simple_tag
def bundle(entry: str) -> str:
    return bundles.url(entry)


@register.simple_tag
def data_uri(path: str) -> str:
    """A small static file (the icon) written into the page, one request fewer."""
    return bundles.data_uri(path)
