"""Pantheon's Twirp JSON API (`/v2/common.Mimir/{Method}`) over httpx; imports no reflex and no database.

Only http(s), only to the configured address, no redirect followed (a redirect would carry the admin token
elsewhere). Whatever answered not as Pantheon does — any HTTP error, a body that is not JSON or not Pantheon's, a
refused connection, a timeout — reads as one message (`NOT_PANTHEON`): the page must not tell «closed port» from
«HTTP 404» from «HTTP 500», or the address field would probe which internal ports answer (issue 29). The log
keeps the detail for the operator, never the admin token and at most the start of what the other side wrote.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

import httpx

from services.pantheon import games
from services.pantheon.games import GameConfig, LastGames, MalformedAnswer, PlayerInfo
from services.pantheon.penalties import PantheonPenalty, parse_penalties

log = logging.getLogger(__name__)

PREFIX = "/v2/common.Mimir/"
TIMEOUT = httpx.Timeout(20.0, connect=10.0)


Parsed = TypeVar("Parsed")
NOT_PANTHEON = "Pantheon не ответил как Pantheon: проверьте адрес"


class PantheonError(RuntimeError):
    """Pantheon could not be read; the message is Russian. `detail` is what happened, for the operator's log only."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail or message


def _not_pantheon(method: str, base_url: str, detail: str) -> PantheonError:
    """The one answer the page gets for every non-Pantheon reply; the log gets what it was."""
    log.warning("Pantheon %s %s: %s", method, base_url, detail)
    return PantheonError(NOT_PANTHEON, f"{method}: {detail}")


class PantheonClient:
    """One event's reader. The admin token is sent only to the methods that need it and never logged."""

    def __init__(
        self,
        base_url: str,
        *,
        admin_token: str | None = None,
        admin_person_id: int | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise PantheonError(f"Адрес API Pantheon должен начинаться с http:// или https://, указано «{base_url}».")
        self._admin_token = admin_token
        self._admin_person_id = admin_person_id
        self._http = httpx.Client(timeout=TIMEOUT, transport=transport, trust_env=False, follow_redirects=False)

    def __enter__(self) -> PantheonClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def call(self, method: str, payload: dict[str, Any], *, admin: bool = False) -> Any:
        """POST one Twirp call; a Russian PantheonError for every failure, never a half-read answer."""
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if admin and self._admin_token:
            headers["X-Auth-Token"] = self._admin_token
            headers["X-Current-Person-Id"] = str(self._admin_person_id or "")
        url = f"{self.base_url}{PREFIX}{method}"
        log.info("Pantheon %s %s", method, payload)
        try:
            response = self._http.post(url, json=payload, headers=headers)
        except httpx.TimeoutException:
            raise _not_pantheon(method, self.base_url, "no answer in time") from None
        except httpx.HTTPError as e:
            raise _not_pantheon(method, self.base_url, repr(e)) from None
        if response.status_code != 200:
            # For the operator's log only, cut short: the page shows one message, not the status or the body.
            detail = f"HTTP {response.status_code} {response.headers.get('location', '')} {response.text[:200]!r}"
            raise _not_pantheon(method, self.base_url, detail)
        try:
            return response.json()
        except ValueError:
            raise _not_pantheon(method, self.base_url, f"not JSON: {response.text[:200]!r}") from None

    @property
    def has_admin(self) -> bool:
        return bool(self._admin_token and self._admin_person_id)

    def _parsed(
        self, method: str, payload: dict[str, Any], parse: Callable[[Any], Parsed], *, admin: bool = False
    ) -> Parsed:
        raw = self.call(method, payload, admin=admin)
        try:
            return parse(raw)
        except MalformedAnswer as e:  # JSON, but not Pantheon's: as indistinguishable as any other non-answer
            raise _not_pantheon(method, self.base_url, f"malformed answer: {e}") from None

    def get_last_games(self, event_id: int, *, limit: int = 50, offset: int = 0) -> LastGames:
        # orderBy and order are always sent: without them Pantheon answers 500.
        payload = {"eventIdList": [event_id], "limit": limit, "offset": offset, "orderBy": "end_date", "order": "desc"}
        return self._parsed("GetLastGames", payload, games.parse_last_games)

    def get_game_config(self, event_id: int) -> GameConfig:
        return self._parsed("GetGameConfig", {"eventId": event_id}, games.parse_game_config)

    def get_registered_players(self, event_id: int) -> tuple[PlayerInfo, ...]:
        return self._parsed("GetAllRegisteredPlayers", {"eventIds": [event_id]}, games.parse_registered_players)

    def list_penalties(self, event_id: int) -> tuple[PantheonPenalty, ...]:
        """Admin-only: sent with X-Auth-Token and X-Current-Person-Id (the token is never logged)."""
        return self._parsed("ListPenalties", {"eventId": event_id}, parse_penalties, admin=True)
