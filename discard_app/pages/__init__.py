"""One folder per part of the league, as in `services/`; each page module beside its own state."""
