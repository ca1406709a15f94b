"""`python manage.py serve_legacy --port 7777`: the legacy TCP door (docs/legacy-protocol.md)."""

from __future__ import annotations

import asyncio
import logging

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.core.management.base import BaseCommand

from games.transport.legacy.server import DEFAULT_PORT, GRACE_SECONDS, LegacyServer
from stratego_site import scheduler

IN_MEMORY_NOTE = (
    "note: the channel layer is in memory (no REDIS_URL): it does not cross processes, so the "
    "web server's pages see this door's games only when they load. For live mixed games "
    "serve the door from the web process instead: LEGACY_PORT=7777 make run "
    "(docs/legacy-protocol.md)."
)


class Command(BaseCommand):
    help = "Serve The legacy binary TCP protocol beside daphne, through the same services."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=DEFAULT_PORT)
        parser.add_argument(
            "--grace",
            type=float,
            default=GRACE_SECONDS,
            help="seconds a disconnected player may come back before losing (default 30)",
        )

    def handle(self, *args, **options) -> None:
        logging.basicConfig(level=logging.INFO)
        try:
            asyncio.run(self.serve(options["host"], options["port"], options["grace"]))
        except KeyboardInterrupt:
            pass
        finally:
            scheduler.stop()

    async def serve(self, host: str, port: int, grace: float) -> None:
        server = LegacyServer(grace=grace)
        tcp = await server.start(host, port)
        scheduler.start()  # this process's background work (clocks, presence, sweeps)
        self.stdout.write(f"legacy TCP server on {host}:{port}", ending="\n")
        if isinstance(get_channel_layer(), InMemoryChannelLayer):
            self.stdout.write(IN_MEMORY_NOTE, ending="\n")
        self.stdout.flush()
        async with tcp:
            await tcp.serve_forever()
