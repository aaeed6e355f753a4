"""The site's addresses that services put into links (the desk, the bot's cards); `discard_app/routes.py` serves
the same builders to the pages. Pure; imports no database, reflex or telegram."""

from __future__ import annotations


def match_url(match_id: int | str) -> str:
    return f"/match/{match_id}"


def match_schedule_url(match_id: int | str) -> str:
    return f"/match/{match_id}/schedule"


LOGIN_LINK_PATH = "/auth/telegram"


def login_link_url(code: str) -> str:
    """The bot's one-time «Открыть на сайте» (issue 44): the code in the fragment, which a browser never sends, so
    it is in no access log or proxy's log; the page at the path posts it, and the site logs in and redirects."""
    return f"{LOGIN_LINK_PATH}#{code}"


def personal_ics_url(token: str) -> str:
    return f"/calendar/me/{token}.ics"


def site_address(public_url: str | None, asked: str) -> str:
    """The address every absolute link gives (feeds, the password sheet): PUBLIC_URL when it is set — behind the
    proxy the address a request came by may be an internal one — else the address the person asked by."""
    return (public_url or asked).rstrip("/")


def webcal_url(feed_url: str) -> str:
    """The feed's address for a one-tap subscription: webcal:// opens the phone's or computer's calendar app."""
    scheme, sep, rest = feed_url.partition("://")
    return f"webcal://{rest}" if sep and scheme in ("http", "https") else feed_url
