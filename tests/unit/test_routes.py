"""The login page's `next` parameter: only this site's own paths, never a way to send a player elsewhere."""

from __future__ import annotations

import pytest

from discard_app import routes


@pytest.mark.parametrize("path", ["/standings", "/match/5/schedule", "/playoff?season=1"])
def test_local_paths_are_kept(path: str) -> None:
    assert routes.safe_next(path) == path


@pytest.mark.parametrize(
    "path",
    [
        None,
        "",
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",  # browsers read a backslash as a slash: "//evil.example"
        "/\t/evil.example/",  # tabs and newlines are dropped from URLs: "//evil.example"
        "/\n/evil.example/",
        "/login?next=/roster",
    ],
)
def test_other_sites_and_the_login_page_itself_go_home(path: str | None) -> None:
    assert routes.safe_next(path) == routes.HOME
