"""A fake Pantheon (Mimir Twirp JSON, as documented in API.md) on 127.0.0.1, with games built like the samples."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
EVENT = 42
UMA = (15_000, 5_000, -5_000, -15_000)


def sample(name: str) -> Any:
    return json.loads((DATA / f"sample_{name}.json").read_text(encoding="utf-8"))


def strip_defaults(value: Any) -> Any:
    """Twirp leaves out fields holding their default value (0, false, "", empty lists): so does this server."""
    if isinstance(value, dict):
        return {k: strip_defaults(v) for k, v in value.items() if v not in (0, 0.0, False, "", [], {}, None)}
    if isinstance(value, list):
        return [strip_defaults(v) for v in value]
    return value


def make_game(
    session_hash: str,
    date: str,
    seats: list[int],
    points: list[int],
    *,
    sticks: int = 0,
    chombo: dict[int, int] | None = None,
    goes_to_winner: bool = True,
) -> dict[str, Any]:
    """A finished game as Pantheon reports it: the sticks go to the tied top scorers, places by seat order."""
    rounds: list[dict[str, Any]] = [{"tsumo": {"roundIndex": 1, "winnerId": seats[0], "han": 1, "fu": 30}}]
    left = sticks
    while left:
        bets = seats[: min(left, 4)]
        rounds.append({"draw": {"roundIndex": len(rounds) + 1, "riichiBets": bets, "tempai": []}})
        left -= len(bets)
    for pid, count in (chombo or {}).items():
        rounds += [{"chombo": {"roundIndex": len(rounds) + 1, "loserId": pid}}] * count
    scores = list(points)
    top = max(points)
    tied = [i for i, p in enumerate(points) if p == top]
    if goes_to_winner and sticks:
        for i in tied:
            scores[i] += 100 * (sticks * 10 // len(tied))
    order = sorted(range(4), key=lambda i: (-scores[i], i))  # Pantheon: equal scores broken by seat order
    place = {i: order.index(i) + 1 for i in range(4)}
    final = [
        {
            "playerId": seats[i],
            "score": scores[i],
            "ratingDelta": float(scores[i] - 30_000 + UMA[place[i] - 1]),
            "place": place[i],
        }
        for i in range(4)
    ]
    return {"sessionHash": session_hash, "date": date, "players": seats, "finalResults": final, "rounds": rounds}


@dataclass
class FakePantheon:
    games: list[dict[str, Any]] = field(default_factory=list)
    titles: dict[int, str] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=lambda: sample("GetGameConfig"))
    event_id: int = EVENT
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    penalties: list[dict[str, Any]] = field(default_factory=list)
    admin: tuple[int, str] = (1, "admin-secret")  # (person id, token) allowed to read penalties
    headers: list[dict[str, str]] = field(default_factory=list)
    # (method, offset or None) → (HTTP status, body) answered once instead of the real answer
    fail_once: dict[tuple[str, int | None], tuple[int, Any]] = field(default_factory=dict)
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakePantheon:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if not self.path.startswith("/v2/common.Mimir/"):
                    return self._send(404, {"code": "bad_route", "msg": "no such route", "meta": {}})
                if self.headers.get("Content-Type", "").split(";")[0] != "application/json":
                    return self._send(500, _internal("unsupported content type"))
                method = self.path.rsplit("/", 1)[1]
                body = json.loads(raw or b"{}")
                fake.calls.append((method, body))
                fake.headers.append(dict(self.headers.items()))
                failure = fake.fail_once.pop((method, body.get("offset")), None) or fake.fail_once.pop(
                    (method, None), None
                )
                if failure is not None:
                    return self._send(*failure)
                if method == "ListPenalties" and (
                    self.headers.get("X-Current-Person-Id") != str(fake.admin[0])
                    or self.headers.get("X-Auth-Token") != fake.admin[1]
                ):
                    return self._send(500, _internal("no rights to access this event"))
                status, answer = fake.answer(method, body)
                self._send(status, answer)

            def _send(self, status: int, body: Any) -> None:
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def answer(self, method: str, body: dict[str, Any]) -> tuple[int, Any]:
        if method == "GetLastGames":
            if "orderBy" not in body or "order" not in body:
                return 500, _internal("orderBy and order are required")
            if body.get("eventIdList") != [self.event_id]:
                return 500, _internal(f"event {body.get('eventIdList')} not found")
            ordered = sorted(self.games, key=lambda g: g["date"], reverse=body["order"] == "desc")
            offset, limit = int(body.get("offset", 0)), int(body.get("limit", 50))
            page = ordered[offset : offset + limit]
            ids = sorted({p for g in page for p in g["players"]})
            players = [{"id": i, "title": self.titles.get(i, f"Player {i}")} for i in ids]
            return 200, strip_defaults({"games": page, "players": players, "totalGames": len(self.games)})
        if method == "GetGameConfig":
            if body.get("eventId") != self.event_id:
                return 500, _internal("event not found")
            return 200, strip_defaults(self.config)
        if method == "GetAllRegisteredPlayers":
            players = [{"id": i, "title": t, "localId": n + 1} for n, (i, t) in enumerate(sorted(self.titles.items()))]
            return 200, strip_defaults({"players": players})
        if method == "ListPenalties":
            if body.get("eventId") != self.event_id:
                return 500, _internal("event not found")
            return 200, strip_defaults({"penalties": self.penalties})
        return 404, {"code": "not_found", "msg": f"{method} not found", "meta": {}}


def _internal(cause: str) -> dict[str, Any]:
    return {"code": "internal", "msg": "internal error", "meta": {"cause": cause}}
