"""Issue 30: a property-based run over the API's own OpenAPI document (schemathesis).

Requests generated from the document, valid ones (positive) and invalid ones (negative),
against every operation, and the real ids and dates of a played season: no answer is a
server error, every status is one the document declares for its operation (400, 404, 422 and
429 too, with their JSON bodies) and every body matches the schema of its status. Kept
small (``EXAMPLES`` per operation and mode: a few hundred requests in all), in the test's
own database through Django's test handler (its transaction, the test's club)."""

from __future__ import annotations

import pytest
import schemathesis
from django.test.client import ClientHandler
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

pytestmark = pytest.mark.django_db

EXAMPLES = {GenerationMode.POSITIVE: 20, GenerationMode.NEGATIVE: 10}
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]


def wsgi_app():
    """Django's test handler as a WSGI application: the test's database connection and
    transaction, as the test client uses them."""
    handler = ClientHandler(enforce_csrf_checks=False)

    def app(environ, start_response):
        environ.setdefault("REMOTE_ADDR", "127.0.0.1")  # as a web server sets it
        response = handler(environ)
        start_response(f"{response.status_code} {response.reason_phrase}", list(response.items()))
        return [response.content]

    return app


@pytest.fixture
def api(settings, played_evening):
    """The document, read from the API itself, and a season with a played evening."""
    settings.ALLOWED_HOSTS = ["testserver", "localhost"]
    settings.API_RATE_LIMIT = "10000/m/ip"
    season, evening = played_evening
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", wsgi_app())
    operations = [result.ok() for result in schema.get_all_operations()]
    return schema, operations, season, evening


def _run(operation, mode: GenerationMode, examples: int) -> int:
    """``examples`` generated requests of ``mode`` to ``operation``, each answer checked;
    returns how many were sent."""
    checks = CHECKS + ([negative_data_rejection] if mode is GenerationMode.NEGATIVE else [])
    sent = []

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    def run(case):
        sent.append(case.call_and_validate(checks=checks).status_code)

    run()
    return len(sent)


def _has_invalid_values(operation) -> bool:
    """Whether a parameter can be invalid: an id or a date (any text is a valid slug, and
    the index and the seasons have no parameter)."""
    return any(p.definition["schema"] != {"title": p.definition["schema"].get("title"), "type": "string"}
               for p in operation.iter_parameters())


def test_every_generated_request_has_a_declared_status_and_body(api):
    _schema, operations, _season, _evening = api
    assert len(operations) == 9
    sent = sum(_run(operation, mode, examples)
               for operation in operations for mode, examples in EXAMPLES.items()
               if mode is GenerationMode.POSITIVE or _has_invalid_values(operation))
    assert 100 <= sent <= 600  # bounded: a few hundred requests


def test_the_real_ids_and_dates_answer_200_with_their_schema(api):
    """Generated values hardly ever name a season or a player: the played season's own
    ones, each answer checked the same way."""
    _schema, operations, season, evening = api
    player = season.players.order_by("start").first()
    values = {"season": season.slug, "half": "winter", "date": evening.date.isoformat(),
              "player_id": player.pk}
    statuses = {}
    for operation in operations:
        names = [p.name for p in operation.path_parameters]
        if not set(names) <= set(values):
            continue  # the events: none in this season
        query = {"after": evening.date.isoformat()} if "standings" in operation.path else None
        case = operation.Case(path_parameters={n: values[n] for n in names}, query=query)
        response = case.call_and_validate(checks=CHECKS)
        statuses[operation.path] = response.status_code
    assert len(statuses) == 7 and set(statuses.values()) == {200}, statuses


def test_the_document_declares_400_404_422_and_429_with_their_bodies(api):
    schema, operations, _season, _evening = api
    for path, methods in schema.raw_schema["paths"].items():
        declared = methods["get"]["responses"]
        assert {"200", "400", "404", "422", "429"} <= set(declared), path
        for status in ("400", "404", "422", "429"):
            assert "application/json" in declared[status]["content"], (path, status)
