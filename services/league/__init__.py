"""The league itself: accounts, the roster and closing registration (Регламент §1), the season draw and its tours
(Регламент §2), withdrawals, replays and technical substitutes (Регламент §6.1, §6.3), the organizer's announcements
(Регламент §6.4). Imports no reflex or telegram.

Pure: `draw`, `roster_csv`. Database: `accounts`, `roster`, `closing`, `draw_season`, `withdrawal`, `substitution`,
`announcements`, `matches` (a player's own matches), `seasons` (the lifecycle, Регламент §1), `fees` (§1),
`regulation` (§7), `season_io` (a whole season from a `discard-season/1` file: accounts, roster, results). The views
that combine the league with the other domains are in `services/views`.
"""
