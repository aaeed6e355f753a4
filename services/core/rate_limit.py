"""The login limits as numbers and the delay a flooding address earns; pure, imports no app.

The counting itself is in services/league/login_guard.py, in the database every web worker shares.
"""

from __future__ import annotations

from datetime import timedelta

# Per client (a browser's server-signed device, else its address): a person mistyping needs a few.
PER_CLIENT_ATTEMPTS = 10
CLIENT_WINDOW = timedelta(minutes=1)
# Per account: the wrong passwords from browsers that never logged in to it, the budget of guesses at one name.
# A fresh device id per guess (finding 29.3) does not reset it; the account's own browsers are not held to it.
# Only checked guesses count (a browser locked out after its five tries adds nothing), so one stranger's browser
# does not use it up for the owner's new phone.
ACCOUNT_UNKNOWN_ATTEMPTS = 10
ACCOUNT_WINDOW = timedelta(minutes=15)
# Beyond that budget the account is not closed to every new browser (issue 29: a flood aimed at one account kept
# its owner's new phone out for 15 minutes): an address that has guessed wrong at it fewer than
# ACCOUNT_ADDRESS_GUESSES times in the window is still checked — the flood's address is not, and pays its growing
# delay — up to ACCOUNT_SPARE_ATTEMPTS more guesses in all, so many addresses together still have a ceiling.
ACCOUNT_ADDRESS_GUESSES = 3
ACCOUNT_SPARE_ATTEMPTS = 20
# Per address: after this many failed logins in the last ADDRESS_WINDOW (a sliding window: the previous minute's
# count fades as the current one goes on, `login_guard.address_failures`), its attempts wait, longer the more there
# are — a delay for the flooding address only, never a refusal (a club's Wi-Fi is one address for every phone in it).
ADDRESS_FREE_ATTEMPTS = 20
ADDRESS_WINDOW = timedelta(minutes=1)
DELAY_STEP_SECONDS = 0.25
DELAY_MAX_SECONDS = 4.0
# Every login is answered within ANSWER_SECONDS and its own check (argon2, a fraction of a second): the flooding
# address's delay and the wait for a turn in the password pool come out of this one budget, and a check whose turn
# has not come by then is answered «try again» at that moment, whatever its place in the line. Before, the waits
# added up (delay, a new browser's wait for its places, the pool's 4 s, then the answer only once the thread reached
# the check: after every check ahead of it), and a browser failing again and again at a busy address waited past
# 15 s. Well inside Reflex's 10-second state lock with Redis, which the login event holds throughout.
ANSWER_SECONDS = 6.0
# The most a flooding address's check waits for its turn, whatever is left of its budget after the delay. An
# address that does not flood waits for nothing else, so it may wait the whole ANSWER_SECONDS: on a CPU-starved
# machine the check running and two other phones' checks ahead can take more than 4 s. (The refusals of phones
# elsewhere that `bench/login_load.py --stranger` showed were another matter: password_pool.OWNER_PLACES.)
QUEUE_SECONDS = 4.0
LONGEST_WINDOW = max(CLIENT_WINDOW, ACCOUNT_WINDOW, ADDRESS_WINDOW)


def flood_delay(address_failures: int) -> float:
    """Seconds an attempt waits before its password is checked: nothing while the address's failed logins in
    the window are within the free ones, then a step more for each further failure, up to the cap."""
    over = address_failures - ADDRESS_FREE_ATTEMPTS
    return 0.0 if over <= 0 else min(DELAY_MAX_SECONDS, over * DELAY_STEP_SECONDS)


def queue_seconds(delay: float) -> float:
    """How long a check that was delayed `delay` seconds may wait for its turn in the password pool: the whole
    ANSWER_SECONDS at an address that does not flood (no delay), else what is left of it, at most QUEUE_SECONDS."""
    if delay <= 0:
        return ANSWER_SECONDS
    return max(0.0, min(QUEUE_SECONDS, ANSWER_SECONDS - delay))
