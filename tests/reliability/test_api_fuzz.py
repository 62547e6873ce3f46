"""Hostile HTTP input: schemathesis drives every operation of the service's own OpenAPI schema
(the real app and game loop on a temporary data directory, a simulated game moving, the right
tokens sent) and finds no server error and no response that breaks the schema."""

from __future__ import annotations

import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import allow_header_conformance, unsupported_method

from controller.app import build
from controller.config import Config, SessionConfig, SimulationConfig

EXAMPLES = 30
# Built at import: schemathesis' pytest fixture loader does not work with pytest 9. The first
# call starts the app's lifespan (the service, with 3 simulated hands) for the whole module.
_DATA = Path(tempfile.mkdtemp(prefix="mahjong-fuzz-"))
_SYSTEM = build(Config(session=SessionConfig(ruleset="hua-bao"),
                      simulation=SimulationConfig(pace=0.02, seed=3, hands=3)),
                _DATA / "data", table="simulation")
schema = schemathesis.openapi.from_asgi("/openapi.json", _SYSTEM.app)
CALLS: Counter[str] = Counter()
STATUSES: Counter[int] = Counter()


@pytest.fixture(scope="module", autouse=True)
def _stop_the_service() -> Iterator[None]:
    yield
    from schemathesis.python.asgi import shutdown_lifespans

    print(f"\nschemathesis: {sum(CALLS.values())} requests over {len(CALLS)} operations, "
          f"statuses {dict(sorted(STATUSES.items()))}")

    shutdown_lifespans()
    shutil.rmtree(_DATA, ignore_errors=True)


def auth_for(case: Any) -> dict[str, str]:
    """The token the operation needs: the seat's own for a seat, else the admin token."""
    tokens = _SYSTEM.tokens
    position = (case.path_parameters or {}).get("position")
    if case.path.startswith("/api/seats/") and position in tokens.seats:
        return {"Authorization": f"Bearer {tokens.seats[position]}"}
    return {"Authorization": f"Bearer {tokens.admin}"}


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_no_server_error_and_responses_match_the_schema(case: Any) -> None:
    # Not checked: the Allow header. Starlette answers OPTIONS or an undeclared method with the
    # Allow of the first route on that path only (POST for /api/admin/session, not POST, DELETE).
    response = case.call_and_validate(
        headers=auth_for(case), excluded_checks=[unsupported_method, allow_header_conformance])
    CALLS[case.operation.label] += 1
    STATUSES[response.status_code] += 1
