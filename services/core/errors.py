"""The one base of every refusal a service gives a person (pure; imports nothing of the app).

A service raises a `LeagueError` subclass when a rule or the data says no: its message is Russian and says what
to change, so a page shows it next to the form. Anything else a service raises is a defect, and the page shows
the unexpected-error message instead (`discard_app/state/action.py`). It stays a `ValueError`, so callers that
caught `ValueError` before keep working.
"""

from __future__ import annotations


class LeagueError(ValueError):
    """A refused action; nothing has been stored. Its text (or its `problems`, one line each) says what is wrong."""

    def lines(self) -> list[str]:
        """What to show next to the form, one line per problem."""
        problems = getattr(self, "problems", None)
        return [str(p) for p in problems] if problems else [str(self)]
