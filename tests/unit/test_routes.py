"""Paths: the login page's `next` parameter (only this site's own paths, never a way to send a player elsewhere) and the
row ids read from a page's path."""

from __future__ import annotations

import pytest

from discard_app import routes
from services.core import urls


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


def test_a_row_id_is_read_from_the_path_only_when_a_row_can_have_it() -> None:
    assert routes.id_in_path("/match/42/schedule", r"/match/(\d+)/schedule") == 42
    assert routes.id_in_path("/player/" + "9" * 18, r"/player/(\d+)") == int("9" * 18)
    # 25 digits: «not found», not an overflow in the database
    assert routes.id_in_path("/player/" + "9" * 25, r"/player/(\d+)") is None
    assert routes.id_in_path("/match/abc", r"/match/(\d+)") is None


@pytest.mark.parametrize(
    ("public_url", "asked", "address"),
    [
        ("https://liga.example.ru/", "http://127.0.0.1:3000", "https://liga.example.ru"),  # behind the proxy
        (None, "http://192.168.0.5:3000", "http://192.168.0.5:3000"),  # the club's own machine, no PUBLIC_URL
        ("", "http://127.0.0.1:3000/", "http://127.0.0.1:3000"),
    ],
)
def test_every_absolute_link_starts_with_the_public_address_when_there_is_one(
    public_url: str | None, asked: str, address: str
) -> None:
    """The feeds on /profile and /calendar, the feed's own links and the password sheet: one rule for them all."""
    assert urls.site_address(public_url, asked) == address
    assert urls.webcal_url(urls.site_address(public_url, asked) + "/calendar.ics").startswith("webcal://")
