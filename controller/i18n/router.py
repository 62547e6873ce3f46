"""The pages' catalogs over HTTP, for the table's app and the club's (each includes this
router): ``GET /api/i18n`` (the language a page starts in and the languages of the switch) and
``GET /api/i18n/{language}/{domain}.json`` (one catalog, with an ETag; a page revalidates it
and gets 304 while it is unchanged)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response

from controller.i18n import DOMAINS, LANGUAGES, PSEUDO, catalog_json, language_names, negotiate

CACHE = "public, max-age=0, must-revalidate"


def i18n_router(default: Callable[[], str | None]) -> APIRouter:
    """``default()`` is the table's ``[server] language`` (None: the browser's choice)."""
    router = APIRouter(tags=["languages"])

    @router.get("/api/i18n")
    def languages(request: Request, response: Response) -> dict[str, Any]:
        """The language for this browser (the table's setting, else its Accept-Language) and
        the shipped languages, each in its own words."""
        response.headers["Vary"] = "Accept-Language"
        response.headers["Cache-Control"] = "no-cache"
        return {"language": negotiate(request.headers.get("accept-language"), default()),
                "default": default(), "languages": language_names(), "domains": list(DOMAINS)}

    @router.get("/api/i18n/{language}/{domain}.json", responses={
        200: {"description": "the catalog", "content": {"application/json": {}}},
        304: {"description": "unchanged since the ETag given in If-None-Match"},
        404: {"description": "no such language or domain"}})
    def catalog(language: str, domain: str, request: Request) -> Response:
        """One language's catalog of one domain: ``messages`` maps each English msgid to its
        translation (a list of plural forms for a plural message); ``plural`` is gettext's
        Plural-Forms expression in ``n``."""
        if (language not in LANGUAGES and language != PSEUDO) or domain not in DOMAINS:
            raise HTTPException(404, f"no catalog {language}/{domain}: the languages are "
                                     f"{', '.join(LANGUAGES)}, the domains {', '.join(DOMAINS)}")
        body, etag = catalog_json(language, domain)
        headers = {"ETag": etag, "Cache-Control": CACHE}
        if etag in (request.headers.get("if-none-match") or ""):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    return router
