"""Pages of one's own account: login and profile (Telegram link, calendar feed)."""
