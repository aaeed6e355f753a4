"""Scheduling pages: a match's availability and booking, the organizer's overview, the club calendar."""
