"""Route constants and URL builders; the one place that knows the site's paths."""

import re
from urllib.parse import quote

from services.core.urls import LOGIN_LINK_PATH, login_link_url, match_schedule_url, match_url, personal_ics_url

__all__ = [
    "login_link_url",
    "match_schedule_url",
    "match_url",
    "personal_ics_url",
]  # the same builders the services use

MAX_ID_DIGITS = 18  # a 64-bit integer has 19 digits

LOGIN = "/login"
HOME = "/"
ROSTER = "/roster"
DRAW = "/draw"
MATCH_SCHEDULE = "/match/[match_id]/schedule"
STANDINGS = "/standings"
MATCH = "/match/[match_id]"
PLAYER = "/player/[player_id]"
SCHEDULE_OVERVIEW = "/schedule"
ROOMS_ANCHOR = "rooms"  # /schedule's room forms, below the long table: the checklist lands there (issue 45 item 10)
CLUB_CALENDAR = "/calendar"
PLAYOFF = "/playoff"
ANNOUNCEMENTS = "/announcements"
PROFILE = "/profile"
PANTHEON = "/pantheon"
DESK = "/desk"
STAFF = "/staff"
SEASONS = "/seasons"
SEASON_ADMIN = "/seasons/manage"
SEASON_RECORD = "/seasons/[season_id]"
DISQUALIFICATIONS = "/disqualifications"
REGULATION = "/regulation"
CLUB_ICS = "/calendar/club.ics"
PERSONAL_ICS = "/calendar/me/{token}.ics"
LOGIN_LINK = LOGIN_LINK_PATH  # the bot's «Открыть на сайте» (issue 44): its code follows in the fragment


def id_in_path(path: str, pattern: str) -> int | None:
    """The row id `pattern` finds in a page's path (`r"/match/(\d+)"`); None for no id or one no row can have
    (a mistyped address of 25 digits is not sent to the database, where it would not fit its integers)."""
    found = re.search(pattern, path)
    return int(found.group(1)) if found and len(found.group(1)) <= MAX_ID_DIGITS else None


def form_id(value: object) -> int:
    """A row id from a form field or an event's argument; anything else is 0, which every service refuses with a
    clear message (no row has it)."""
    text = str(value).strip() if value is not None else ""
    return int(text) if text.isdigit() else 0


def login_url(next_path: str = HOME) -> str:
    if not next_path or next_path == HOME or next_path.startswith(LOGIN):
        return LOGIN
    return f"{LOGIN}?next={quote(next_path, safe='/')}"


def safe_next(next_path: str | None) -> str:
    """Only local paths: a login link must not send anyone to another site."""
    if not next_path or not next_path.startswith("/") or next_path.startswith("//") or next_path.startswith(LOGIN):
        return HOME
    # Browsers read "/\evil.example" as "//evil.example"; a control character can hide such a backslash.
    if "\\" in next_path or any(ord(c) < 32 for c in next_path):
        return HOME
    return next_path
