"""Scheduling every match inside its window (Регламент §2, §3, §6.1): free half hours, common options, proposals,
confirmations and the automatic room booking, the organizer's assignments and fallback dates, the club calendar and its
ICS feeds. Imports no reflex or telegram.

Pure: `intervals`, `rules`, `ics`. Database: `repo`, `availability`, `booking`, `organizer`. Views: `view`,
`calendar_feed`.
"""
