"""Pantheon's Twirp JSON API (`/v2/common.Mimir/{Method}`) over httpx; imports no reflex and no database."""

from __future__ import annotations

import logging
from typing import Any

import httpx

from services.pantheon import games
from services.pantheon.games import GameConfig, LastGames, MalformedAnswer, PlayerInfo
from services.pantheon.penalties import PantheonPenalty, parse_penalties

log = logging.getLogger(__name__)

PREFIX = "/v2/common.Mimir/"
TIMEOUT = httpx.Timeout(20.0, connect=10.0)


class PantheonError(RuntimeError):
    """Pantheon could not be read; the message is Russian and says why (its `meta.cause` included)."""


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
        self._admin_token = admin_token
        self._admin_person_id = admin_person_id
        self._http = httpx.Client(timeout=TIMEOUT, transport=transport, trust_env=False)

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
            raise PantheonError(f"Pantheon не ответил вовремя ({method}, {self.base_url}).") from None
        except httpx.HTTPError as e:
            log.warning("Pantheon %s: %r", self.base_url, e)
            raise PantheonError(
                f"Сервер Pantheon недоступен по адресу {self.base_url}: проверьте адрес API и сеть."
            ) from None
        if response.status_code != 200:
            raise PantheonError(_error_text(method, response))
        try:
            return response.json()
        except ValueError:
            raise PantheonError(f"Pantheon прислал не JSON в ответ на {method}.") from None

    @property
    def has_admin(self) -> bool:
        return bool(self._admin_token and self._admin_person_id)

    def _parsed(self, method: str, payload: dict[str, Any], parse: Any, *, admin: bool = False) -> Any:
        raw = self.call(method, payload, admin=admin)
        try:
            return parse(raw)
        except MalformedAnswer as e:
            raise PantheonError(f"Неполный или неверный ответ Pantheon на {method}: {e}.") from None

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


def _error_text(method: str, response: httpx.Response) -> str:
    body: Any
    try:
        body = response.json()
    except ValueError:
        body = None
    body = body if isinstance(body, dict) else {}
    meta = body.get("meta") if isinstance(body.get("meta"), dict) else {}
    cause = meta.get("cause") or body.get("msg") or ""
    code = body.get("code") or ""
    if response.status_code == 404 or code == "not_found":
        detail = f": {cause}" if cause else ""
        return f"Pantheon: {method} не найден (404){detail}. Проверьте адрес API."
    if cause:
        return f"Pantheon отказал в {method} (HTTP {response.status_code}): {cause}"
    return f"Pantheon отказал в {method} (HTTP {response.status_code}{', ' + code if code else ''})."
