"""The league itself: accounts, the roster and closing registration (Регламент §1), the season draw and its tours
(Регламент §2), withdrawals, replays and technical substitutes (Регламент §6.1, §6.3), the organizer's announcements
(Регламент §6.4). Imports no reflex or telegram.

Pure: `draw`, `roster_csv`. Database: `accounts`, `roster`, `closing`, `draw_season`, `tour_windows`, `withdrawal`,
`substitution`, `announcements`, `matches` (a player's own matches), `seasons` (the lifecycle, Регламент §1),
`fees` (§1), `disqualifications` (§5), `regulation` (§7). View: `history` (past seasons).
"""
