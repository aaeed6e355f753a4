"""HTTP routes beside the Reflex app: the ICS feeds of the club calendar and of each player's own meetings."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from discard_app import routes
from services.core.db import session_scope
from services.scheduling.calendar_feed import club_ics, personal_ics

ICS_TYPE = "text/calendar; charset=utf-8"


def club_calendar(_request: Request) -> Response:
    # The club calendar names matches and activities only: no personal data, so no token is needed.
    with session_scope() as session:
        body = club_ics(session)
    return Response(body, media_type=ICS_TYPE, headers={"Cache-Control": "no-cache"})


def my_calendar(request: Request) -> Response:
    with session_scope() as session:
        body = personal_ics(session, request.path_params["token"])
    if body is None:
        return PlainTextResponse("Календарь не найден: ссылка устарела или неверна.", status_code=404)
    return Response(body, media_type=ICS_TYPE, headers={"Cache-Control": "no-cache, private"})


# Sync handlers: Starlette runs them in a thread, so SQL never blocks the event loop.
calendar_api = Starlette(
    routes=[
        Route(routes.CLUB_ICS, club_calendar, methods=["GET"]),
        Route(routes.PERSONAL_ICS, my_calendar, methods=["GET"]),
    ]
)
