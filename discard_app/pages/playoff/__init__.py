"""The playoff bracket page."""
