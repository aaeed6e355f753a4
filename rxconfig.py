"""Reflex configuration: the app's name, its database and the origins it answers; nothing else lives here."""

import os

import reflex as rx

from discard_app.same_origin import SameOriginPlugin
from services.core.config import settings
from services.core.origins import site_origins
from services.core.text_limits import EVENT_FRAME_MAX

# Socket.IO's cap on one incoming frame (Reflex reads it when it makes the app, after this file): the site's own
# limit, which the ASGI guard also enforces before Socket.IO sees the frame.
os.environ.setdefault("REFLEX_SOCKET_MAX_HTTP_BUFFER_SIZE", str(EVENT_FRAME_MAX))

config = rx.Config(
    app_name="discard_app",
    db_url=settings.database_url,
    # Not Reflex's `*` (which echoes any Origin, `null` too, with credentials): only the site's own origins, for
    # CORS and for the events' websocket alike.
    cors_allowed_origins=site_origins(dict(os.environ)),
    telemetry_enabled=False,
    show_built_with_reflex=False,
    disable_plugins=[rx.plugins.SitemapPlugin],
    plugins=[rx.plugins.RadixThemesPlugin(theme=rx.theme(accent_color="jade", radius="medium")), SameOriginPlugin()],
)
