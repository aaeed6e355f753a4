"""Login attempt limits per client and in total, with the clock passed in."""

from __future__ import annotations

from services.core.rate_limit import AttemptLimiter


def test_a_client_gets_its_attempts_per_window_then_waits() -> None:
    limiter = AttemptLimiter(per_client=3, total=100, window=60)
    assert [limiter.try_client("ip:1", now=t) for t in (0, 1, 2, 3)] == [True, True, True, False]
    assert limiter.try_client("ip:2", now=3)  # another client is not affected
    assert not limiter.try_client("ip:1", now=59.9)
    assert limiter.try_client("ip:1", now=60.0)  # the first attempt left the window


def test_the_total_stops_strangers_but_not_a_known_client() -> None:
    limiter = AttemptLimiter(per_client=100, total=2, window=10)
    assert limiter.try_total(known=False, now=0) and limiter.try_total(known=False, now=1)
    assert not limiter.try_total(known=False, now=2)
    assert limiter.try_total(known=True, now=2)  # the organizer's own browser still gets in
    assert limiter.try_total(known=False, now=10.5)
