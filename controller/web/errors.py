"""The one place that maps domain errors to HTTP answers: a JSON ``detail`` saying what is wrong
and what to do next; never a traceback, never a concealed tile of someone else's hand.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from controller.loop import Applied, NoSession, ServiceError, ServiceHalted
from controller.web import views


class EventRefused(Exception):
    """The game refused a posted event (it is recorded as a violation); answered with 409."""

    def __init__(self, applied: Applied) -> None:
        super().__init__(applied.violation)
        self.applied = applied


def _refused(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, EventRefused)
    told = views.told(exc.applied)
    violation: dict[str, Any] = told["violation"] or {}
    rule = violation.get("rule") or "refused"
    detail = f"refused ({rule}): {violation.get('message') or 'the game does not allow this now'}"
    return JSONResponse(
        status_code=409,
        content={"detail": detail, "accepted": False, "seq": exc.applied.seq,
                 "violation": violation},
    )


def _service_error(_: Request, exc: Exception) -> JSONResponse:
    code = 503 if isinstance(exc, ServiceHalted) else 409
    if isinstance(exc, NoSession):
        code = 409
    return JSONResponse(status_code=code, content={"detail": str(exc)})


def _invalid(_: Request, exc: Exception) -> JSONResponse:
    """422 as FastAPI gives it, without echoing the input (NaN or a lone surrogate in it made
    the answer itself fail: 500) and without pydantic's help links."""
    assert isinstance(exc, RequestValidationError)
    errors = [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")),
               "type": str(e.get("type", ""))} for e in exc.errors()[:10]]
    return JSONResponse(status_code=422, content={"detail": errors})


def install(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(EventRefused, _refused)
    app.add_exception_handler(ServiceError, _service_error)
