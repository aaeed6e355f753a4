"""The demo league: sixteen players, an approved draw, a few results in tour 1 and scheduling in tour 2."""
