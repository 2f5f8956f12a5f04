# Ranglijst: `make run` serves the demo club, `make test` runs every test.
# Only Python 3.11+ is needed; everything else is installed into .venv.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
STAMP  := $(VENV)/.installed

.PHONY: run test test-unit test-dutch-generated install lock migrate demo bench loadtest loadtest-smoke lint messages clean

# The pinned versions of requirements-dev.lock (hashes checked), then the project itself.
$(STAMP): pyproject.toml requirements-dev.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@$(BIN)/python -m pip check >/dev/null || { $(BIN)/python -m pip check; \
	  echo "pyproject.toml and requirements-dev.lock disagree: run make lock"; exit 1; }
	@touch $(STAMP)

install: $(STAMP)

# After a change of the dependencies in pyproject.toml: pin every package again.
# requirements.lock is what production installs (the Dockerfile), requirements-dev.lock
# adds the test and lint tools at the same versions of everything shared.
LOCK := $(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 \
	--generate-hashes --custom-compile-command "make lock" --quiet
lock:
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@test -x $(BIN)/uv || $(BIN)/python -m pip install --quiet uv
	$(LOCK) --extra dev -o requirements-dev.lock
	$(LOCK) -c requirements-dev.lock -o requirements.lock

migrate: install
	DJANGO_DEBUG=1 $(BIN)/python manage.py migrate --noinput

demo: migrate
	DJANGO_DEBUG=1 $(BIN)/python manage.py load_demo --if-empty

# Web server, Celery worker and beat on the embedded defaults (SQLite, filesystem broker).
run: demo
	DJANGO_DEBUG=1 PORT=$(PORT) $(BIN)/python scripts/serve.py

# One pytest process per core (pytest-xdist); PYTEST_ARGS come after, so
# `make test PYTEST_ARGS="-n 0 -k signup"` runs in one process. A test file goes to one
# worker whole (--dist loadfile): a module's fixture (the demo club of test_pages.py,
# test_api.py, ...) is built once, not once in each worker.
PYTEST_WORKERS ?= auto
test: install
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# The rules' own tests in a virtualenv holding only what the pure packages import (and
# pytest, hypothesis), at the versions and hashes of requirements-dev.lock: no Django, no
# Celery. Proves that tests/unit/ and the engines need nothing of the shell.
UNIT_VENV := .venv-unit
# pytest-xdist (and its execnet): one process per core here too.
UNIT_PACKAGES := pytest iniconfig packaging pluggy pygments hypothesis sortedcontainers \
	py4swiss pydantic pydantic-core typing-extensions annotated-types typing-inspection \
	numpy networkx defusedxml trf pytest-xdist execnet
test-unit:
	@test -x $(UNIT_VENV)/bin/python || $(PYTHON) -m venv $(UNIT_VENV)
	$(PYTHON) scripts/lock_subset.py requirements-dev.lock $(UNIT_PACKAGES) > $(UNIT_VENV)/requirements.txt
	$(UNIT_VENV)/bin/python -m pip install --quiet --require-hashes --no-deps -r $(UNIT_VENV)/requirements.txt
	$(UNIT_VENV)/bin/python -m pip check
	@! $(UNIT_VENV)/bin/python -c "import django" 2>/dev/null || { echo "Django found in $(UNIT_VENV)"; exit 1; }
	$(UNIT_VENV)/bin/python -m pytest -q -n $(PYTEST_WORKERS) -W ignore::pytest.PytestConfigWarning tests/unit

# Every generated tournament against bbpPairings, also those of 41-150 players that
# `make test` leaves out for time (tests/unit/events/test_dutch_generated.py).
test-dutch-generated: install
	DUTCH_GENERATED_MAX_PLAYERS=150 $(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist load tests/unit/events/test_dutch_generated.py

bench: install
	@for f in bench/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

# Mixed load (visitors, sign-ups, result entry) on gunicorn + PostgreSQL + Redis + a worker,
# against 127.0.0.1 only; prints requests per second, errors and the 95th percentile.
loadtest: install
	$(BIN)/python scripts/loadtest.py
	$(BIN)/python scripts/loadtest.py --mix results-night

# CI's form: a club of 16 players for 3 seconds, the same checks; a missing service fails it.
loadtest-smoke: install
	$(BIN)/python scripts/loadtest.py --smoke

# The pure packages strictly, the shell's writes and reads with Django's stubs.
MYPY_TARGETS := competition/scoring competition/events/engine competition/prizes/engine \
	pairing/engine competition/season/engine/calendar.py competition/season/engine/signup.py competition/season/engine/seasonfile.py \
	competition/season/services.py competition/season/selectors.py competition/season/standings.py \
	competition/audit core/jobs.py core/mail.py core/tasks.py core/models.py competition/season/tasks.py competition/season/seasonio.py \
	competition/season/notices.py competition/overviews/selectors.py \
	competition/events/services.py competition/events/selectors.py \
	competition/prizes/services.py competition/prizes/selectors.py \
	competition/ratings/engine competition/ratings/services.py competition/ratings/selectors.py \
	pairing/services.py pairing/selectors.py pairing/notices.py pairing/tasks.py \
	core/permissions.py members/models.py competition/roster/services.py competition/roster/selectors.py \
	competition/roster/memberfile.py competition/roster/memberimport.py competition/season/calendar_edits.py \
	members/accounts/invitations.py members/clubs/selectors.py competition/history/selectors.py \
	competition/website/services.py competition/website/selectors.py competition/api \
	competition/club/services.py competition/club/selectors.py \
	members/accounts/registration.py members/accounts/joining.py members/accounts/profile.py members/accounts/privacy.py members/names.py \
	competition/pages/me/calendar.py

lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	DJANGO_DEBUG=1 $(BIN)/mypy $(MYPY_TARGETS)

messages: install
	DJANGO_DEBUG=1 $(BIN)/python manage.py makemessages -l nl -l en --ignore=.venv --ignore=staticfiles
	DJANGO_DEBUG=1 $(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf var staticfiles
