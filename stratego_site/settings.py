"""Settings, all from the environment.

DATABASE_URL / REDIS_URL unset: a SQLite file and the in-memory channel layer (the embedded
default, for `make run` on a machine with nothing but Python). Set: PostgreSQL and
channels_redis. With DEBUG off the server refuses to start without a real SECRET_KEY.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
DEV_SECRET_KEY = "dev-insecure-only-for-debug"


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_seconds_range(name: str, default: str) -> tuple[float, float]:
    """`LOW-HIGH` seconds (a random time between them) or one number of seconds."""
    text = os.environ.get(name, "").strip() or default
    try:
        parts = [float(part) for part in text.split("-")]
    except ValueError:
        parts = []
    if len(parts) == 1:
        parts *= 2
    if len(parts) != 2 or not 0 <= parts[0] <= parts[1]:
        raise ImproperlyConfigured(f"{name} must be SECONDS or LOW-HIGH seconds, not {text!r}")
    return parts[0], parts[1]


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = DEV_SECRET_KEY
elif not DEBUG and (SECRET_KEY == DEV_SECRET_KEY or len(SECRET_KEY) < 32):
    raise ImproperlyConfigured("SECRET_KEY must be a real secret (32+ chars) with DEBUG off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
# The reverse proxies whose X-Forwarded-For names the client (addresses or networks, e.g.
# "127.0.0.1" or "172.28.0.0/16"): stratego_site/proxy.py. Empty: the peer is the client.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "games",
    "lobby",
    "players",
    "botapi",
    "moderation",
    "learn",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "stratego_site.bundles.BundleMiddleware",  # a page's scripts, as one file: no database
    # a page's database connection taken first: 503, not 500, when none is free in time
    "stratego_site.middleware.DatabaseAvailabilityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the language: chosen, else Accept-Language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "moderation.middleware.SiteBanMiddleware",  # a banned person sees why (docs/moderation.md)
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "stratego_site.urls"
ASGI_APPLICATION = "stratego_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "lobby.context_processors.identity",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# PostgreSQL: each server process borrows its connections from one bounded pool (psycopg's,
# through Django's OPTIONS["pool"]) and gives each back at the end of every request, socket
# action and sweep (CONN_MAX_AGE 0). A request that finds no free connection within
# DATABASE_POOL_TIMEOUT seconds is answered 503 (a socket action: the coded error
# `unavailable`), never a 500. docs/deploy.md sizes the pools against max_connections.
DATABASE_URL = os.environ.get("DATABASE_URL", "")
DATABASE_POOL_MIN = int(os.environ.get("DATABASE_POOL_MIN", "2"))
DATABASE_POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "10"))
DATABASE_POOL_TIMEOUT = float(os.environ.get("DATABASE_POOL_TIMEOUT", "5"))
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Parameters bound by the server, and a statement run five times on a connection
        # prepared (psycopg's threshold, which Django turns off by default): PostgreSQL then
        # skips parsing and planning the same few statements of every move. Behind a pooler
        # in transaction mode that cannot keep prepared statements, set it to "" (off).
        threshold = os.environ.get("DATABASE_PREPARE_THRESHOLD", "5")
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True,
            prepare_threshold=int(threshold) if threshold else None,
            pool={
                "min_size": min(DATABASE_POOL_MIN, DATABASE_POOL_SIZE),
                "max_size": DATABASE_POOL_SIZE,
                "timeout": DATABASE_POOL_TIMEOUT,
                # a connection unused this long is closed (down to min_size)
                "max_idle": 60.0,
            },
        )
        # The pool checks a connection (one empty round trip) before lending it, so a
        # PostgreSQL restart costs nobody an action.
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    # The embedded default is written by several threads (sockets, computer players, the
    # heartbeat): WAL lets readers go on during a write, IMMEDIATE transactions take the write
    # lock at BEGIN (a deferred one that upgrades later fails at once with "database is
    # locked", whatever the timeout), and the busy timeout queues writers instead of failing.
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "CONN_MAX_AGE": int(os.environ.get("CONN_MAX_AGE", "600")),
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }

REDIS_URL = os.environ.get("REDIS_URL", "")
# channels-redis blocks up to 5 s on each read of a socket's channel (BRPOP), and redis-py 8
# times out every socket read after 5 s by default: an idle websocket died with
# "Timeout reading from" every 5 s (channels_redis#422). The read timeout must exceed
# the blocking read; keepalive and a health check find a dead Redis instead.
# max_connections: redis-py's async pool raises MaxConnectionsError past it (100 by default),
# which a crowd of sockets closing at once reached.
REDIS_SOCKET_TIMEOUT = 30.0
REDIS_MAX_CONNECTIONS = int(os.environ.get("REDIS_MAX_CONNECTIONS", "2000"))


def redis_host(url: str) -> dict:
    """channels-redis's host entry: the URL plus redis-py connection-pool options."""
    return {
        "address": url,
        "socket_timeout": REDIS_SOCKET_TIMEOUT,
        "socket_connect_timeout": 5.0,
        "socket_keepalive": True,
        "health_check_interval": 15,
        "retry_on_timeout": True,
        "max_connections": REDIS_MAX_CONNECTIONS,
    }


CHANNEL_PREFIX = os.environ.get("CHANNEL_PREFIX", "asgi")
# Which Redis channel layer (with REDIS_URL): this site's (channels-redis's layer, waiting out
# a Redis restart and delivering to its own process's sockets at once:
# games/transport/layers.py), or the library's own, as it ships, to compare them
# (`make bench LAYER=library`; docs/performance.md, "Channel layers").
CHANNEL_LAYER_BACKENDS = {
    "site": "games.transport.layers.ResilientRedisChannelLayer",
    "library": "channels_redis.core.RedisChannelLayer",
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
}
CHANNEL_LAYER_BACKEND = os.environ.get("CHANNEL_LAYER_BACKEND", "site")
if CHANNEL_LAYER_BACKEND not in CHANNEL_LAYER_BACKENDS:
    raise ImproperlyConfigured(
        f"CHANNEL_LAYER_BACKEND is one of {', '.join(CHANNEL_LAYER_BACKENDS)},"
        f" not {CHANNEL_LAYER_BACKEND!r}"
    )
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": CHANNEL_LAYER_BACKENDS[CHANNEL_LAYER_BACKEND],
            "CONFIG": {"hosts": [redis_host(REDIS_URL)], "prefix": CHANNEL_PREFIX},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en"
# The languages of the pages and the game client (locale/; make messages writes them).
LANGUAGES = [("en", "English"), ("nl", "Nederlands"), ("de", "Deutsch"), ("fr", "Français"),
             ("it", "Italiano")]  # fmt: skip
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"  # filled by collectstatic (the Docker image)
STATIC_ROOT.mkdir(exist_ok=True)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The websocket server's own size limit, in bytes. daphne (autobahn) reads a frame's length
# before its payload and drops the TCP connection of a bigger frame or message (no close
# frame: the client sees 1006) without buffering it; frames from 4097 bytes
# (games.guards.MAX_FRAME_BYTES) up to this get the consumer's close 4009. `manage.py
# runserver` reads the two DAPHNE_WEBSOCKET_* settings; the daphne command line needs
# flags: DAPHNE_ARGS (in the Dockerfile, docker-compose.yml and the tests' daphne).
WEBSOCKET_SERVER_LIMIT = 65536
DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE = WEBSOCKET_SERVER_LIMIT
DAPHNE_WEBSOCKET_MAX_FRAME_SIZE = WEBSOCKET_SERVER_LIMIT
DAPHNE_ARGS = [
    f"--websocket-max-message-size={WEBSOCKET_SERVER_LIMIT}",
    f"--websocket-max-frame-size={WEBSOCKET_SERVER_LIMIT}",
]

# Presence rows (who watches a game): each process re-stamps its own every heartbeat; rows
# not re-stamped for the TTL belong to a dead process and stop counting
# (games/transport/presence.py).
# Threads per process running the sockets' actions on PostgreSQL (games/transport/consumers.py act).
ACTION_THREADS = int(os.environ.get("ACTION_THREADS", "2"))
# PostgreSQL: the threads that run the sockets' other database work, each socket on one of
# them (stratego_site/socket_lanes.py); 0: asgiref's one thread for all
SOCKET_LANES = int(os.environ.get("SOCKET_LANES", "4"))
PRESENCE_HEARTBEAT_SECONDS = float(os.environ.get("PRESENCE_HEARTBEAT_SECONDS", "30"))
PRESENCE_TTL_SECONDS = float(
    os.environ.get("PRESENCE_TTL_SECONDS", str(3 * PRESENCE_HEARTBEAT_SECONDS))
)

# Computer opponents (games/services/computer.py, games/services/cleanup.py): against a
# person, the computer's move lands no sooner than this after the person's move (a random
# time in LOW-HIGH seconds; its thinking counts toward it; 0: at once); a computer game its
# person left ends after COMPUTER_GAME_GHOST_SECONDS (a game between people waits 30 minutes).
COMPUTER_REPLY_DELAY = env_seconds_range("COMPUTER_REPLY_DELAY", "0.6-1.2")
COMPUTER_GAME_GHOST_SECONDS = float(os.environ.get("COMPUTER_GAME_GHOST_SECONDS", "300"))

# Limits per client and server process (games/transport/limits.py): open sockets per session and per
# address, new sockets per address per second (and the burst allowed), and the bytes a client
# may leave unread before it is dropped. A load test from one address raises them.
SOCKETS_PER_SESSION = int(os.environ.get("WS_SOCKETS_PER_SESSION", "16"))
SOCKETS_PER_ADDRESS = int(os.environ.get("WS_SOCKETS_PER_ADDRESS", "64"))
CONNECTS_PER_SECOND = float(os.environ.get("WS_CONNECTS_PER_SECOND", "2"))
CONNECT_BURST = float(os.environ.get("WS_CONNECT_BURST", "30"))
SLOW_READER_BYTES = int(os.environ.get("WS_SLOW_READER_BYTES", str(512 * 1024)))

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # one logger's level apart, e.g. LOG_LEVELS="stratego_site.gctune=DEBUG,games=INFO"
    "loggers": {
        name.strip(): {"level": level.strip()}
        for name, _, level in (
            item.partition("=") for item in os.environ.get("LOG_LEVELS", "").split(",") if item
        )
    },
}
WHITENOISE_USE_FINDERS = True
# Static files compressed (gzip, brotli) and named by their content's hash, cached for a year
# (whitenoise): on where `collectstatic` ran with it on (the Docker image sets it); off, the
# files are served as they are from static/ (make run, the tests).
STATIC_MANIFEST = env_bool("STATIC_MANIFEST", False)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "stratego_site.storage.StaticStorage"
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# ---------------------------------------------------------------- limits and moderation
# The limits on each person's and each address's HTTP actions (games/services/rate_limits.py lists
# them all with their defaults): LIMIT_<NAME>="COUNT/SECONDS" overrides one, RATE_LIMIT_SCALE
# multiplies every count. Counted in the cache: Redis when REDIS_URL is set (shared by all the
# server's processes), the process's memory on the embedded default.
RATE_LIMITS = {
    name.removeprefix("LIMIT_").lower(): value
    for name, value in os.environ.items()
    if name.startswith("LIMIT_") and value
}
RATE_LIMIT_SCALE = float(os.environ.get("RATE_LIMIT_SCALE", "1"))
CACHE_PREFIX = os.environ.get("CACHE_PREFIX", "stratego")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CACHE_PREFIX,
            "OPTIONS": {"socket_timeout": 5.0, "socket_connect_timeout": 5.0},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
