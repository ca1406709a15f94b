# make run  : the server on http://127.0.0.1:$(PORT), on the embedded default (SQLite, in-memory layer)
# make test : ruff + the whole test suite against PostgreSQL and Redis (DATABASE_URL / REDIS_URL)
# make bench: the live game path measured as production runs it (QUICK=1: under 3 minutes);
#             figures into bench/results/ and docs/performance.md

PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --disable-pip-version-check -q
# One stamp per set: `make run` needs requirements.txt, `make test` requirements-dev.txt
# (which includes requirements.txt). A change to either file reinstalls what depends on it.
RUNTIME_STAMP := $(VENV)/.runtime.stamp
DEV_STAMP := $(VENV)/.dev.stamp
PORT ?= 8000
TEST_DATABASE_URL := $(or $(DATABASE_URL),postgres://postgres@localhost:5432/stratego)
TEST_REDIS_URL := $(or $(REDIS_URL),redis://localhost:6379/0)

.PHONY: install install-runtime run test lint services chromium clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(RUNTIME_STAMP): requirements.txt | $(PY)
	$(PIP) -r requirements.txt
	touch $@

$(DEV_STAMP): requirements.txt requirements-dev.txt | $(PY)
	$(PIP) -r requirements-dev.txt
	touch $@ $(RUNTIME_STAMP)

install: $(DEV_STAMP)

install-runtime: $(RUNTIME_STAMP)

run: install-runtime
	$(PY) manage.py migrate --noinput
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

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

test: $(DEV_STAMP) services chromium nginx lint
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) -m pytest

.PHONY: bench
bench: $(DEV_STAMP) services
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) -m bench $(if $(QUICK),--quick,)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
