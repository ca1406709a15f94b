"""A real nginx (Debian's nginx-light, /usr/sbin/nginx) in front of daphne processes, with the
proxy settings of production (deploy/nginx-proxy.conf): for the proxy tests and the soak
benchmark."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
from pathlib import Path

from .stack import wait_for_port

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

CONFIG = """
{user}
worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
events {{ worker_connections {connections}; }}
http {{
    map $http_upgrade $connection_upgrade {{ default upgrade; "" close; }}
    log_format upstream '"$request" $status session=$cookie_sessionid $upstream_addr';
    access_log {dir}/access.log upstream;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    upstream live {{
        {live}
    }}
    upstream web {{
        {pages}
    }}
    server {{
        listen 127.0.0.1:{port};
        location /ws/ {{
            proxy_pass http://live;
            include {snippet};
        }}
        location / {{
            proxy_pass http://web;
            include {snippet};
        }}
    }}
}}
"""


class Nginx:
    """nginx on a free port, as deploy/nginx.conf: websockets (/ws/) round-robin over
    `upstream_ports`, everything else over `page_ports` (by default the same processes). One
    worker: connection i of a kind goes to upstream i mod n."""

    def __init__(
        self,
        directory: Path,
        upstream_ports: list[int],
        connections: int = 2048,
        page_ports: list[int] | None = None,
    ) -> None:
        self.dir = directory
        self.connections = connections
        self.port = free_port()
        self.upstream_ports = upstream_ports
        self.page_ports = page_ports or upstream_ports
        self.proc: subprocess.Popen | None = None

    def start(self) -> Nginx:
        self.dir.mkdir(parents=True, exist_ok=True)

        def servers(ports: list[int]) -> str:  # as deploy/nginx.conf
            return "\n        ".join(f"server 127.0.0.1:{p} max_fails=0;" for p in ports)

        config = CONFIG.format(
            user="user root;" if os.geteuid() == 0 else "",  # workers may read the tmp dir
            dir=self.dir,
            live=servers(self.upstream_ports),
            pages=servers(self.page_ports),
            port=self.port,
            connections=self.connections,
            snippet=ROOT / "deploy" / "nginx-proxy.conf",
        )
        conf = self.dir / "nginx.conf"
        conf.write_text(config)
        log = (self.dir / "error.log").open("a")
        cmd = [NGINX, "-p", str(self.dir), "-c", str(conf), "-e", str(self.dir / "error.log")]
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        wait_for_port(self.port, self.proc)
        return self

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGQUIT)  # graceful: the access log is written
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def upstreams_used(self, path_part: str) -> list[tuple[str, str]]:
        """(session key or "-", upstream address) of every logged request with `path_part`."""
        lines = (self.dir / "access.log").read_text().splitlines()
        used = []
        for line in lines:
            if path_part in line:
                session, upstream = line.rsplit(" ", 2)[1:]
                used.append((session.removeprefix("session="), upstream))
        return used
