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
    directory: Path, env: dict | None = None
) -> Iterator[tuple[Nginx, list[Daphne]]]:
    """The production topology: two daphne processes (with `env`) and nginx in front."""
    if not Path(NGINX).exists():
        pytest.fail(f"nginx is missing ({NGINX}): `make test` installs nginx-light")
    daphnes = [Daphne(directory / f"daphne-{name}.log", env=env) for name in ("a", "b")]
    proxy = None
    try:
        for d in daphnes:
            d.start()
        proxy = Nginx(directory / "nginx", [d.port for d in daphnes]).start()
        yield proxy, daphnes
    finally:
        if proxy is not None:
            proxy.stop()
        for d in daphnes:
            d.stop()
