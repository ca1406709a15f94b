"""ASGI entry point: HTTP through Django, websockets through Channels.

Importing it (what daphne and `manage.py runserver` do) starts the process's background work
(stratego_site/scheduler.py), and the legacy TCP door when LEGACY_PORT is set
(games/transport/legacy/inprocess.py), and tunes its garbage collector for latency
(stratego_site/gctune.py),
unless BACKGROUND_WORK is off (the in-process tests turn it off).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stratego_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402

from botapi.middleware import TokenAuthMiddleware  # noqa: E402
from games.transport.origin import ExactOriginValidator  # noqa: E402
from games.transport.routing import websocket_urlpatterns  # noqa: E402
from stratego_site import looplag  # noqa: E402
from stratego_site.proxy import behind_trusted_proxies  # noqa: E402
from stratego_site.socket_guard import DatabaseGuardedSockets  # noqa: E402
from stratego_site.socket_lanes import in_lanes  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournament_sockets  # noqa: E402


def build_application():  # (an ASGI application)
    """A fresh application instance (tests use it to play a server restart)."""
    router = ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": in_lanes(
                ExactOriginValidator(
                    DatabaseGuardedSockets(
                        AuthMiddlewareStack(
                            TokenAuthMiddleware(
                                URLRouter([*tournament_sockets, *websocket_urlpatterns])
                            )
                        )
                    )
                ),
                settings.SOCKET_LANES,
                connection.vendor,
            ),
        }
    )
    return looplag.watching(behind_trusted_proxies(router, settings.TRUSTED_PROXIES))


application = build_application()

serving = os.environ.get("BACKGROUND_WORK", "on").strip().lower() not in {"0", "off", "false", "no"}
if serving:
    from stratego_site import scheduler  # noqa: E402

    scheduler.start()
    from games.transport.legacy import inprocess  # noqa: E402

    inprocess.start()

from stratego_site import shutdown  # noqa: E402

shutdown.install()  # under daphne: a prompt exit with sockets open (stratego_site/shutdown.py)

from games.transport import compat  # noqa: E402

compat.lengthen_close_handshake()  # under daphne: a client late to answer a close is not reset

if serving:  # last: what start-up created is frozen (stratego_site/gctune.py)
    from stratego_site import gctune  # noqa: E402

    gctune.tune()
