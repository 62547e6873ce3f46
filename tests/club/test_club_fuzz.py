"""Hostile HTTP input to the club service: schemathesis drives every operation of its OpenAPI
schema (the real app and store, the admin token sent) and finds no server error and no
response that breaks the schema."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import allow_header_conformance, unsupported_method

from controller.club.app import create_club_app
from controller.club.mqtt import BrokerConfig
from controller.club.service import ClubService
from tests.reliability.support import free_port

_DATA = Path(tempfile.mkdtemp(prefix="mahjong-club-fuzz-"))
# removed when the process ends, not at the module's teardown: mutmut runs a selection twice in
# one process (its club-wire group; docs/testing.md), and this module's club is made at import
atexit.register(shutil.rmtree, _DATA, ignore_errors=True)
# no broker listens there: the club serves what it holds and keeps trying to connect
_CLUB = ClubService(_DATA / "club", BrokerConfig("127.0.0.1", free_port()))
_CLUB.store.apply_fact("green", {"kind": "session_start", "session": 1, "pos": 8, "prev": 0,
                                 "ruleset": "hua-bao", "started": 1.0})
schema = schemathesis.openapi.from_asgi("/openapi.json", create_club_app(_CLUB))


@pytest.fixture(scope="module", autouse=True)
def _stop() -> Iterator[None]:
    yield
    from schemathesis.python.asgi import shutdown_lifespans

    shutdown_lifespans()


@schema.parametrize()
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_no_server_error_and_responses_match_the_schema(case: Any) -> None:
    case.call_and_validate(headers={"Authorization": f"Bearer {_CLUB.admin_token}"},
                           excluded_checks=[unsupported_method, allow_header_conformance])
