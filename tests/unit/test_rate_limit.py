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
