"""The playoff (Регламент §1, §2, §4, §6.1): seeding the top 8, the upper and lower brackets, the final, round windows
and seat winds. Imports no reflex or telegram.

Pure: `bracket`. Database: `repo` (the playoff as it stands: reads only), `stage` (closing the regular stage,
creating the next rounds), `hanchan_entry` (the one door for entering any match's hanchan: stored by the results
service, then the next round created when it completes a playoff match).
"""
