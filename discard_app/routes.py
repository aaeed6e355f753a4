"""Route constants and URL builders; the one place that knows the site's paths."""

from urllib.parse import quote

LOGIN = "/login"
HOME = "/"
ROSTER = "/roster"


def login_url(next_path: str = HOME) -> str:
    if not next_path or next_path == HOME or next_path.startswith(LOGIN):
        return LOGIN
    return f"{LOGIN}?next={quote(next_path, safe='/')}"


def safe_next(next_path: str | None) -> str:
    """Only local paths: a login link must not send anyone to another site."""
    if not next_path or not next_path.startswith("/") or next_path.startswith("//") or next_path.startswith(LOGIN):
        return HOME
    return next_path
