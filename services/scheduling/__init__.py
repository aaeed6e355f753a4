"""Scheduling every match inside its window (Регламент §2, §3, §6.1): free half hours, common options, proposals,
confirmations and the automatic room booking, the organizer's assignments and fallback dates, the club calendar and its
ICS feeds. Imports no reflex or telegram.

Pure: `intervals`, `rules`, `ics`, `decide`. Database: `repo`, `board` (the read model), `availability`, `booking`,
`organizer`, `tour_windows` (the tours' game windows, Регламент §2), `holds`, `capacity`. Views: `view`,
`calendar_feed`.
"""
