"""The built front end reaches its backend at the page's own origin (discard_app/same_origin.py); every browser test
proves it end to end (its app's port is never the build's)."""

from __future__ import annotations

from pathlib import Path

import pytest
import reflex_base

from discard_app.same_origin import SAME_ORIGIN, same_origin

STATE_JS = Path(reflex_base.__file__).parent / ".templates" / "web" / "utils" / "state.js"


def test_get_backend_url_answers_the_pages_origin_once_patched() -> None:
    template = STATE_JS.read_text(encoding="utf-8")
    patched = same_origin(template)
    body = patched[patched.index("export const getBackendURL") :]
    assert body.index("const endpoint = new URL(url_str);") < body.index(SAME_ORIGIN) < body.index("return endpoint;")
    assert "endpoint.host = window.location.host;" in SAME_ORIGIN
    assert same_origin(patched) == patched  # a second compile over the same file changes nothing


def test_a_reflex_whose_get_backend_url_moved_on_stops_the_build() -> None:
    with pytest.raises(RuntimeError, match="getBackendURL"):
        same_origin("export const getBackendURL = (url) => new URL(url);\n")
