"""The login limits' numbers and the delay of a flooding address (the counting is in tests/db/test_login_guard.py)."""

from __future__ import annotations

from services.core import rate_limit


def test_an_address_waits_only_beyond_its_free_attempts_and_never_past_the_cap() -> None:
    free = rate_limit.ADDRESS_FREE_ATTEMPTS
    assert [rate_limit.flood_delay(n) for n in (0, 1, free)] == [0.0, 0.0, 0.0]
    assert rate_limit.flood_delay(free + 1) == rate_limit.DELAY_STEP_SECONDS
    assert rate_limit.flood_delay(free + 4) == 4 * rate_limit.DELAY_STEP_SECONDS
    assert rate_limit.flood_delay(free + 10_000) == rate_limit.DELAY_MAX_SECONDS
    assert rate_limit.DELAY_MAX_SECONDS < 10  # Reflex's state lock with Redis expires at 10 s


def test_a_delayed_login_waits_for_its_turn_only_what_is_left_of_the_answer_budget() -> None:
    """Before, the delay (up to 4 s), a new browser's wait for its places (2 s) and the pool's wait (4 s) added
    up, past Reflex's 10-second state lock: now they share ANSWER_SECONDS."""
    assert rate_limit.queue_seconds(0.0) == rate_limit.ANSWER_SECONDS  # an address that does not flood: it all
    for failures in range(rate_limit.ADDRESS_FREE_ATTEMPTS, rate_limit.ADDRESS_FREE_ATTEMPTS + 40):
        delay = rate_limit.flood_delay(failures)
        assert 0 < delay + rate_limit.queue_seconds(delay) <= rate_limit.ANSWER_SECONDS
    assert rate_limit.queue_seconds(rate_limit.DELAY_MAX_SECONDS) > 0  # the most delayed still gets a turn
    assert rate_limit.ANSWER_SECONDS + 1 < 10  # with a check of about a second, inside Reflex's state lock
