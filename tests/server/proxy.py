"""A real nginx in front of daphne processes (bench/nginx.py, shared with the soak benchmark)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bench.nginx import NGINX, Nginx

from .daphne import Daphne

__all__ = ["NGINX", "Nginx", "two_daphnes_behind_nginx"]


@contextmanager
def two_daphnes_behind_nginx(
    directory: Path, env: dict | None = None, page_process: bool = False
) -> Iterator[tuple[Nginx, list[Daphne]]]:
    """Two daphne processes (with `env`) and nginx in front. With `page_process`, the
    production topology of deploy/nginx.conf: the two hold the websockets, and a third
    (the last of the list) answers the pages; without it, the two serve both."""
    if not Path(NGINX).exists():
        pytest.fail(f"nginx is missing ({NGINX}): `make test` installs nginx-light")
    names = ("a", "b", "pages") if page_process else ("a", "b")
    daphnes = [Daphne(directory / f"daphne-{name}.log", env=env) for name in names]
    proxy = None
    try:
        for d in daphnes:
            d.start()
        live = [d.port for d in daphnes[:2]]
        pages = [d.port for d in daphnes[2:]] or live
        proxy = Nginx(directory / "nginx", live, page_ports=pages).start()
        yield proxy, daphnes
    finally:
        if proxy is not None:
            proxy.stop()
        for d in daphnes:
            d.stop()
