"""Results and standings (Регламент §4, §5, §6.2): hanchan scoring, match uma, penalties and rulings, corrections and
replays, tie decisions, starting winds, the live standings with the top-8 line (Регламент §1), and the whole season as a
`discard-season/1` file. Imports no reflex or telegram.

Pure: `scoring`, `standings`, `entry`, `season_file`. Database: `repo`, `hanchans`, `penalties`, `winds`,
`ruling_photos`, `disqualifications` (the register, Регламент §5). Views: `view`.
"""
