"""Reflex configuration: the app's name and its database; nothing else lives here."""

import reflex as rx

from services.core.config import settings

config = rx.Config(
    app_name="discard_app",
    db_url=settings.database_url,
    telemetry_enabled=False,
    show_built_with_reflex=False,
    disable_plugins=[rx.plugins.SitemapPlugin],
    plugins=[rx.plugins.RadixThemesPlugin(theme=rx.theme(accent_color="jade", radius="medium"))],
)
