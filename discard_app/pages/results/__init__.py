"""Results pages: a match and its protocol, the organizer's and judge's forms, standings and ties, a player."""
