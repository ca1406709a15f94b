"""ASGI entry point: HTTP through Django, websockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stratego_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.origin import ExactOriginValidator  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402


def build_application() -> ProtocolTypeRouter:
    """A fresh application instance (tests use it to play a server restart)."""
    return ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": ExactOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )


application = build_application()
