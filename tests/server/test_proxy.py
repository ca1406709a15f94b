"""The production topology: a real nginx passes the websockets to two daphne processes and
the pages to a third. The two players of one game land on different processes and play it to
the end, while the pages they open are answered by the page process alone."""

from __future__ import annotations

import urllib.request
from contextlib import ExitStack
from pathlib import Path

import pytest

from games.domain.models import Game

from .daphne import assert_clean_log
from .helpers import set_up_game
from .proxy import two_daphnes_behind_nginx
from .test_two_processes import Client, play

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def topology(tmp_path):
    with two_daphnes_behind_nginx(tmp_path, page_process=True) as site:
        yield site


def test_a_game_across_two_processes_behind_nginx(topology):
    proxy, daphnes = topology
    live, pages = daphnes[:2], daphnes[2]
    gid, red, blue = set_up_game(ready=False)
    for path in ("/", f"/games/{gid}/", "/players/"):
        with urllib.request.urlopen(f"http://127.0.0.1:{proxy.port}{path}", timeout=30) as page:
            assert page.status == 200
    with ExitStack() as stack:
        # all through the proxy's one port; round robin: Red on a, Blue on b, observer on a
        clients = [
            Client(stack, proxy.port, gid, red.session_key, 0),
            Client(stack, proxy.port, gid, blue.session_key, 1),
            Client(stack, proxy.port, gid, None, 2),
        ]
        version = play(gid, clients)
    proxy.stop()  # a websocket's access-log line is written when it closes
    game = Game.objects.get(public_id=gid)
    assert game.status == "finished" and game.version == version
    used = dict(proxy.upstreams_used(f"/ws/games/{gid}/"))
    assert len(used) == 3  # red's, blue's and the anonymous observer's ("-") sockets
    assert {used[red.session_key], used[blue.session_key]} == {
        f"127.0.0.1:{d.port}" for d in live
    }  # the two players on different processes
    page_upstreams = [
        upstream
        for path in ("/", f"/games/{gid}/", "/players/")
        for _, upstream in proxy.upstreams_used(f'"GET {path} HTTP')
    ]
    assert page_upstreams == [f"127.0.0.1:{pages.port}"] * 3  # the page process's alone
    for d in daphnes:
        assert_clean_log(d.log_text())


def test_the_compose_proxy_includes_the_tested_settings():
    """docker-compose.yml mounts deploy/nginx-proxy.conf where deploy/nginx.conf includes it,
    so production runs the proxy settings the test above runs."""
    root = Path(__file__).resolve().parents[2]
    compose = (root / "docker-compose.yml").read_text()
    mounted = "./deploy/nginx-proxy.conf:/etc/nginx/stratego/nginx-proxy.conf:ro"
    assert mounted in compose and "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in compose
    assert (
        "include /etc/nginx/stratego/nginx-proxy.conf;" in (root / "deploy/nginx.conf").read_text()
    )
    assert "--scale live=" in compose and "--scale web=" in compose
    for service in ("live", "web"):  # reached through the proxy alone
        assert "\n    ports:" not in compose.split(f"\n  {service}:")[1].split("\n  proxy:")[0]
    nginx = (root / "deploy/nginx.conf").read_text()
    assert "location /ws/ {\n            proxy_pass http://live;" in nginx
    assert "location / {\n            proxy_pass http://web;" in nginx
