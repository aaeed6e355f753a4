"""Benchmark: the draw of four tours against seating session by session. Imports no database, reflex or telegram."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.core.ruleset import DEFAULT  # noqa: E402
from services.league.draw import Tours, draw_tours, lower_bound, max_meetings, repeat_meetings  # noqa: E402

SIZES = (8, 12, 16, 20, 24, 32, 48, 64, 100, 200)
TOURS = 4
SHUFFLES = 1000
SEED = 2026


def baseline(players: list[int], tours: int, seed: int) -> Tours:
    """Seat one tour at a time: of SHUFFLES random seatings keep the one adding fewest repeats so far.

    This is how the common tournament systems seat a session, knowing only the sessions before it.
    """
    rng = random.Random(seed)
    met: dict[tuple[int, int], int] = {}  # pair (smaller, larger) -> meetings so far
    result: list[tuple[tuple[int, ...], ...]] = []
    order = players[:]
    for _ in range(tours):
        best: tuple[tuple[int, ...], ...] = ()
        best_repeats = -1
        for _ in range(SHUFFLES):
            rng.shuffle(order)
            tables = tuple(tuple(order[k : k + 4]) for k in range(0, len(order), 4))
            # how much this seating adds to the repeat total (a pair met k times adds k)
            repeats = sum(
                met.get((a, b) if a < b else (b, a), 0) for table in tables for a, b in combinations(table, 2)
            )
            if best_repeats < 0 or repeats < best_repeats:
                best, best_repeats = tables, repeats
                if repeats == 0:
                    break  # nothing left to gain for this tour
        result.append(best)
        for table in best:
            for a, b in combinations(table, 2):
                key = (a, b) if a < b else (b, a)
                met[key] = met.get(key, 0) + 1
    return tuple(result)


def measure(method: Callable[[list[int]], Tours], n: int) -> tuple[int, int, float]:
    start = time.perf_counter()
    tours = method(list(range(1, n + 1)))
    return max_meetings(tours), repeat_meetings(tours), time.perf_counter() - start


def main() -> None:
    print(f"Жеребьёвка {TOURS} туров: наибольшее число встреч пары / повторных встреч всего, секунды")
    print(f"базовый способ: каждый тур отдельно, лучший из {SHUFFLES} случайных рассадок")
    header = f"{'N':>4} | {'лучшее известное':>16} | {'наша':>8} {'сек':>7} | {'базовый':>8} {'сек':>7}"
    print(header)
    print("-" * len(header))
    for n in SIZES:
        best = lower_bound(n, TOURS)  # reached for all N multiple of 4 from 8 to 200, so also the best known
        ours = measure(lambda p: draw_tours(p, tours=TOURS, seed=SEED, multiple=DEFAULT.roster_multiple).tours, n)
        base = measure(lambda p: baseline(p, TOURS, SEED), n)
        print(
            f"{n:>4} | {best[0]:>7} / {best[1]:<6} | {ours[0]:>2} / {ours[1]:<3} {ours[2]:>7.3f}"
            f" | {base[0]:>2} / {base[1]:<3} {base[2]:>7.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
