"""The API's pages for people, /docs (Swagger UI) and /redoc (ReDoc), served with their scripts
and styles from this server, so they work on a machine without internet (FastAPI's own pages
load them from a CDN). The files come from the fastapi-offline package, which ships pinned
builds of both; they are served the way FastAPI's "self-hosting" guide does it: the default
pages turned off, the files mounted, the pages made with FastAPI's own HTML helpers."""

from __future__ import annotations

from importlib.resources import files

from fastapi import FastAPI
from fastapi.openapi.docs import (get_redoc_html, get_swagger_ui_html,
                                  get_swagger_ui_oauth2_redirect_html)
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS_PATH = "/docs/assets"
"""Where the pages' files are served (open without a token, as /docs is)."""
DOCS_PATH = "/docs"
REDOC_PATH = "/redoc"
OAUTH2_REDIRECT_PATH = "/docs/oauth2-redirect"


def install_docs(app: FastAPI) -> None:
    """Add /docs, /redoc and their files to an app made with docs_url=None, redoc_url=None."""
    folder = files("fastapi_offline") / "static"
    app.mount(ASSETS_PATH, StaticFiles(directory=str(folder)), name="docs-assets")
    title = app.title

    @app.get(DOCS_PATH, include_in_schema=False)
    def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url, title=f"{title} - API",
            swagger_js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_PATH}/favicon.png",
            oauth2_redirect_url=OAUTH2_REDIRECT_PATH)

    @app.get(OAUTH2_REDIRECT_PATH, include_in_schema=False)
    def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get(REDOC_PATH, include_in_schema=False)
    def redoc() -> HTMLResponse:
        return get_redoc_html(openapi_url=app.openapi_url, title=f"{title} - API",
                              redoc_js_url=f"{ASSETS_PATH}/redoc.standalone.js",
                              redoc_favicon_url=f"{ASSETS_PATH}/favicon.png",
                              with_google_fonts=False)
