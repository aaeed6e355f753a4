"""Discard League's domain: everything that is true without a browser or Telegram."""
