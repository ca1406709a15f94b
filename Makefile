# make run  : the server on http://127.0.0.1:$(PORT), on the embedded default (SQLite, in-memory layer),
#             with the legacy TCP door on port $(LEGACY_PORT) in the same process (LEGACY_PORT= for none)
# make test : ruff + the whole test suite against PostgreSQL and Redis (DATABASE_URL / REDIS_URL)
# make test-thorough : the same with ten times the property-test examples
# make bench: the live game path measured as production runs it (QUICK=1: under 3 minutes;
#             LAYER=library: on channels-redis's own channel layer, to compare);
#             figures into bench/results/ and docs/performance.md
# make soak : the whole site under a crowd, 10 minutes (QUICK=1: 2); the same outputs

PYTHON ?= python3.11
# Some machines set PYTHONDONTWRITEBYTECODE=1: every Python process the tests start (about a
# hundred: daphne, bots, doors) then compiled the project's modules again, and pytest rewrote
# every test module's asserts again in each worker (4.5 s of CPU a collection instead of 1.8).
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --disable-pip-version-check -q
# requirements*.txt are the hand-edited top-level pins; requirements*.lock pin every transitive
# dependency with its hashes (`make lock` writes them) and are what gets installed, with
# --require-hashes. One stamp per set: `make run` needs requirements.lock, `make test`
# requirements-dev.lock (a superset). A change to either lock reinstalls what depends on it.
# The locks are installed by uv (itself installed by pip from requirements-uv.lock, hashes
# too): a fresh venv of the dev lock took 26 s with pip here, 11 s with uv. uv compiles every
# module's bytecode (11 CPU-s). Leaving that to the test processes saved nothing measurable:
# a fresh clone's `make test` used 356 CPU-s without it, 333 and 346 with it (the first
# test processes all compile the same modules at once).
RUNTIME_STAMP := $(VENV)/.runtime.stamp
DEV_STAMP := $(VENV)/.dev.stamp
UV := $(VENV)/bin/uv
UV_INSTALL := VIRTUAL_ENV=$(VENV) $(UV) pip install -q --require-hashes --compile-bytecode -r
PORT ?= 8000
LEGACY_PORT ?= 7777
TEST_DATABASE_URL := $(or $(DATABASE_URL),postgres://postgres@localhost:5432/stratego)
TEST_REDIS_URL := $(or $(REDIS_URL),redis://localhost:6379/0)

.PHONY: install install-runtime run test test-thorough lint typecheck lock services chromium clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(UV): requirements-uv.lock | $(PY)
	$(PIP) --require-hashes -r requirements-uv.lock
	touch $@

$(RUNTIME_STAMP): requirements.lock | $(UV)
	$(UV_INSTALL) requirements.lock
	touch $@

$(DEV_STAMP): requirements.lock requirements-dev.lock | $(UV)
	$(UV_INSTALL) requirements-dev.lock
	touch $@ $(RUNTIME_STAMP)

# Regenerate the locks after editing requirements*.txt (uv from PyPI, in a throwaway venv).
UV_VENV := /tmp/stratego-uv
UV_COMPILE := $(UV_VENV)/bin/uv pip compile --generate-hashes --python-version 3.11 --no-header -q
lock:
	test -x $(UV_VENV)/bin/uv || ($(PYTHON) -m venv $(UV_VENV) && $(UV_VENV)/bin/pip install -q uv==0.13.8)
	$(UV_COMPILE) requirements-uv.txt -o requirements-uv.lock
	$(UV_COMPILE) requirements.txt -o requirements.lock
	$(UV_COMPILE) requirements-dev.txt -o requirements-dev.lock

install: $(DEV_STAMP)

install-runtime: $(RUNTIME_STAMP)

run: install-runtime
	$(PY) manage.py migrate --noinput
	LEGACY_PORT=$(LEGACY_PORT) $(PY) manage.py runserver 127.0.0.1:$(PORT)

services:
	@DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) bash scripts/check-services

chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
		else \
			echo "note: /usr/bin/chromium is missing; browser tests need it (apt-get install chromium)"; \
		fi; \
	fi

# tests/i18n compiles and gathers the catalogues with GNU gettext (msgfmt, xgettext)
.PHONY: gettext
gettext:
	@if ! command -v msgfmt >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y gettext; \
		else \
			echo "note: msgfmt is missing; the translation tests need it (apt-get install gettext)"; \
		fi; \
	fi

# tests/server/test_proxy.py runs a real nginx in front of two daphne processes
.PHONY: nginx
nginx:
	@if [ ! -x /usr/sbin/nginx ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nginx-light; \
		else \
			echo "note: /usr/sbin/nginx is missing; the proxy test needs it (apt-get install nginx-light)"; \
		fi; \
	fi

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# Type checks of the engine, the domain and the services (mypy.ini).
typecheck: $(DEV_STAMP)
	$(VENV)/bin/mypy

# Test files run in parallel (pytest-xdist); each worker has its own test database and
# channel prefix (stratego_site/test_settings.py), and takes whole files, the slowest first
# (tests/conftest.py). One worker more than the cores: about a third of the suite's time is
# waiting (daphne and Chromium starting, idle sockets and clocks running down real seconds),
# which the extra worker fills. TEST_WORKERS=2 make test to choose.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
PYTEST := $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile
test: $(DEV_STAMP) services chromium nginx gettext lint typecheck
	node --test tests/js/
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PYTEST)

# Nightly-style: ten times the property-test budgets, fresh random examples (tests/conftest.py)
test-thorough: $(DEV_STAMP) services chromium nginx gettext lint
	HYPOTHESIS_PROFILE=thorough DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) \
		$(PYTEST)

.PHONY: bench
bench: $(DEV_STAMP) services
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) -m bench $(if $(QUICK),--quick,) $(if $(LAYER),--layer $(LAYER),)

# The whole site under a crowd for 10 minutes (QUICK=1: 2): two daphnes behind nginx, the TCP
# door, bots, page views, sockets from many addresses (bench/soak); into docs/performance.md
.PHONY: soak
soak: $(DEV_STAMP) services nginx
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) -m bench.soak $(if $(QUICK),--quick,) $(if $(STAGES),--stages,) $(SOAK_ARGS)

# The pages' and the game client's words: the catalogues (locale/) gathered from the sources,
# then compiled; translate what is new in each locale/<code>/LC_MESSAGES/*.po in between.
MESSAGES_IGNORE := --ignore=.venv --ignore=tests --ignore=bench --ignore=staticfiles --ignore=artifacts --ignore=docs
.PHONY: messages
messages: $(DEV_STAMP) gettext
	$(PY) manage.py makemessages -l nl -l de -l fr -l it $(MESSAGES_IGNORE)
	$(PY) manage.py makemessages -d djangojs -l nl -l de -l fr -l it $(MESSAGES_IGNORE)
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
