"""Pages of the league: home (my matches), roster, the draw, announcements."""
