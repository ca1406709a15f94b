"""A real nginx in front of daphne processes (bench/nginx.py, shared with the soak benchmark)."""

from bench.nginx import NGINX, Nginx

__all__ = ["NGINX", "Nginx"]
