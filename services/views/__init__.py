"""The views that combine the domains: what the organizer's desk, a person's home page, the season's checklist,
the past seasons and a person's standing show, as rows of display strings. They read the domains below (scheduling,
results, playoff, league) and never write; the shells above render them. Imports no reflex.

- `desk`: the organizer's desk (Регламент §5, §6.1–§6.3);
- `todo`: a person's home page as a to-do list (Регламент §3, §6.4);
- `checklist`: the season's preparation in the regulation's order (Регламент §1, §2, §6.1, §6.3);
- `history`: past seasons, their standings, brackets and matches (Регламент §1, §4);
- `standing_note`: where a person stands in the season (Регламент §1, §2, §5, §6.1, §6.2).
"""
