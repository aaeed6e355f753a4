"""Draw of all tours of a season (tables of four); pure, imports no database, reflex or telegram."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from services.core.errors import LeagueError
from services.core.ruleset import SEATS, multiple_of
from services.core.wording import plural

# tours -> tables -> four player ids
Tours = tuple[tuple[tuple[int, ...], ...], ...]

TABLE_SIZE = SEATS
MIN_PLAYERS = 8


class DrawError(LeagueError):
    """A draw request or edit the organizer must fix; the message is Russian and shown as is."""


@dataclass(frozen=True)
class Draw:
    tours: Tours
    seed: int

    @property
    def max_meetings(self) -> int:
        return max_meetings(self.tours)

    @property
    def repeat_meetings(self) -> int:
        return repeat_meetings(self.tours)

    @property
    def repeats(self) -> list[tuple[int, int, int]]:
        return repeats_report(self.tours)


def _players(n: int) -> str:
    return f"{n} {plural(n, 'игрок', 'игрока', 'игроков')}"


def _tours(n: int) -> str:
    return f"{n} {plural(n, 'тур', 'тура', 'туров')}"


# --- analysis of any draw (also of one edited by hand) ---------------------------------


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a <= b else (b, a)


def meeting_counts(tours: Iterable[Iterable[Iterable[int]]]) -> dict[tuple[int, int], int]:
    """How many times each pair that meets at all sits at one table; key is (smaller, larger)."""
    counts: dict[tuple[int, int], int] = {}
    for tour in tours:
        for table in tour:
            for a, b in combinations(table, 2):
                key = _pair(a, b)
                counts[key] = counts.get(key, 0) + 1
    return counts


def max_meetings(tours: Iterable[Iterable[Iterable[int]]]) -> int:
    return max(meeting_counts(tours).values(), default=0)


def repeat_meetings(tours: Iterable[Iterable[Iterable[int]]]) -> int:
    """Sum over pairs of (meetings - 1) for pairs meeting at least twice."""
    return sum(c - 1 for c in meeting_counts(tours).values() if c > 1)


def repeats_report(tours: Iterable[Iterable[Iterable[int]]]) -> list[tuple[int, int, int]]:
    """Pairs meeting more than once as (a, b, count), most frequent first."""
    rows = [(a, b, c) for (a, b), c in meeting_counts(tours).items() if c > 1]
    rows.sort(key=lambda r: (-r[2], r[0], r[1]))
    return rows


def validate_draw(
    tours: Sequence[Sequence[Sequence[int]]],
    players: Sequence[int],
    *,
    tours_count: int | None = None,
) -> None:
    """Raise DrawError unless every tour seats every player exactly once at tables of four."""
    if tours_count is not None and len(tours) != tours_count:
        raise DrawError(f"В жеребьёвке {_tours(len(tours))}, а должно быть {tours_count}.")
    if not tours:
        raise DrawError("В жеребьёвке нет ни одного тура.")
    roster = set(players)
    for number, tour in enumerate(tours, start=1):
        seated: set[int] = set()
        for table_number, table in enumerate(tour, start=1):
            # Регламент §1: за каждым столом ровно четыре игрока
            if len(table) != TABLE_SIZE:
                raise DrawError(f"Тур {number}, стол {table_number}: {_players(len(table))}, а нужно ровно четыре.")
            for player in table:
                if player not in roster:
                    raise DrawError(f"Тур {number}: игрок {player} не входит в основной состав.")
                if player in seated:
                    raise DrawError(f"Тур {number}: игрок {player} посажен дважды.")
                seated.add(player)
        missing = [p for p in players if p not in seated]
        if missing:
            names = ", ".join(str(p) for p in missing)
            raise DrawError(f"Тур {number}: не посажены игроки {names}.")


def swap_players(tours: Sequence[Sequence[Sequence[int]]], tour_index: int, a: int, b: int) -> Tours:
    """Return a copy of tours with a and b exchanged between their tables in one tour."""
    if not 0 <= tour_index < len(tours):
        raise DrawError(f"Тура {tour_index + 1} нет: в жеребьёвке {_tours(len(tours))}.")
    if a == b:
        raise DrawError("Для обмена нужны два разных игрока.")
    tour = tours[tour_index]
    where: dict[int, int] = {}
    for k, table in enumerate(tour):
        for p in table:
            if p in where:
                raise DrawError(f"Тур {tour_index + 1}: игрок {p} уже посажен дважды, обмен невозможен.")
            where[p] = k
    for p in (a, b):
        if p not in where:
            raise DrawError(f"Игрок {p} не играет в туре {tour_index + 1}.")
    if where[a] == where[b]:
        raise DrawError(f"Игроки {a} и {b} уже сидят за одним столом в туре {tour_index + 1}.")
    swapped = {a: b, b: a}
    new_tour = tuple(tuple(swapped.get(p, p) for p in table) for table in tour)
    return tuple(new_tour if i == tour_index else tuple(tuple(t) for t in old) for i, old in enumerate(tours))


# --- the draw itself -------------------------------------------------------------------


def draw_tours(players: Sequence[int], *, tours: int, seed: int | None = None, multiple: int) -> Draw:
    """Seat the roster for all tours at once, fewest repeated pairs first; same seed, same draw."""
    players = list(players)
    n = len(players)
    if len(set(players)) != n:
        raise DrawError("В составе есть повторяющиеся игроки.")
    # Регламент §1: основной состав строго кратен четырём (правила сезона: `multiple`, кратное столу)
    if n % TABLE_SIZE != 0 or n % multiple != 0:
        raise DrawError(f"В основном составе {_players(n)}: число должно быть кратно {multiple_of(multiple)}.")
    if n < MIN_PLAYERS:
        raise DrawError(f"В основном составе {_players(n)}: для жеребьёвки нужно не меньше восьми.")
    if tours < 1:
        raise DrawError("Число туров должно быть не меньше одного.")
    if seed is None:
        seed = random.SystemRandom().getrandbits(32)
    # Регламент §2: распределение случайное — всё случайное идёт от seed, чтобы черновик воспроизводился
    rng = random.Random(seed)
    order = players[:]
    rng.shuffle(order)
    seating = _Search(n, tours, rng).run()
    rank = {p: k for k, p in enumerate(players)}
    result = tuple(
        tuple(tuple(sorted((order[i] for i in table), key=rank.__getitem__)) for table in tour) for tour in seating
    )
    return Draw(tours=result, seed=seed)


def lower_bound(n: int, tours: int) -> tuple[int, int]:
    """(max meetings, repeat meetings) no draw of n players can beat; the search stops there."""
    groups = n // TABLE_SIZE
    # each player meets 3 others per tour: 3*tours meetings spread over n-1 others
    worst = max(1, -(-3 * tours // (n - 1)))
    if groups < 4 and tours >= 2:
        # with 2 or 3 tables, a table's four players spread over fewer than four tables next tour: two meet again
        worst = max(worst, 2)
    total = max(0, tours * 6 * groups - n * (n - 1) // 2)
    if worst == 2 and groups < 4:
        # every two tours: a g×g intersection matrix with row/column sums 4 has Σ C(k,2) ≥ 4 (g=2), 3 (g=3);
        # with no pair above 2 meetings that sum is exactly the repeat total
        per_pair = {2: 4, 3: 3}[groups]
        total = max(total, tours * (tours - 1) // 2 * per_pair)
    return worst, total


class _Search:
    """Greedy seating tour by tour, then tabu search over swaps inside one tour.

    Cost is Σ F[m] over pairs, F convex and steep enough (weights B^k) that a lower maximum always
    wins over any total, so minimising it is minimising (max meetings, repeat total) in that order.
    """

    def __init__(self, n: int, tours: int, rng: random.Random) -> None:
        self.n, self.tours, self.rng = n, tours, rng
        self.groups = n // TABLE_SIZE
        base = 2 * tours * 6 * self.groups + 1
        self.F = [self._penalty(m, base) for m in range(tours + 2)]
        self.INC = [self.F[m + 1] - self.F[m] for m in range(tours + 1)]
        self.DEC = [0] + [self.F[m - 1] - self.F[m] for m in range(1, tours + 1)]
        worst, total = lower_bound(n, tours)
        # cost equals the repeat total only while no pair meets 3+ times; past that run the whole budget
        self.target = total if worst <= 2 else -1
        # Count-based, not time-based: a seed must give the same draw however loaded the machine is.
        # Four tours reach the bound within ~150 swaps for every N from 8 to 200; the cap (cost of one
        # iteration grows with N) only bounds the time of rosters/tour counts where the bound is unreachable.
        self.budget = min(20_000, 2_000_000 // n)

    @staticmethod
    def _penalty(m: int, base: int) -> int:
        return sum(base ** (k - 2) * (m - k + 1) for k in range(2, m + 1))

    def run(self) -> list[list[list[int]]]:
        n = self.n
        self.m = [[0] * n for _ in range(n)]
        self.tables: list[list[list[int]]] = []
        self.where: list[list[int]] = []
        self.conf: list[int] = []  # pairs meeting ≥ 2 times, key i*n+j (i<j)
        self.conf_pos: dict[int, int] = {}
        self.cost = 0
        for _ in range(self.tours):
            self._add_tour(self._greedy_tour())
        return self._tabu()

    def _greedy_tour(self) -> list[list[int]]:
        order = list(range(self.n))
        self.rng.shuffle(order)
        tables: list[list[int]] = [[] for _ in range(self.groups)]
        slots = list(range(self.groups))
        self.rng.shuffle(slots)
        m, INC = self.m, self.INC
        for p in order:
            mp = m[p]
            best_k, best_c = -1, 0
            for k in slots:
                table = tables[k]
                if len(table) < TABLE_SIZE:
                    c = sum(INC[mp[q]] for q in table)
                    if best_k < 0 or c < best_c:
                        best_k, best_c = k, c
                        if c == 0:
                            break
            tables[best_k].append(p)
        return tables

    def _bump(self, a: int, b: int, step: int) -> None:
        """Change the meeting count of a pair, keeping cost and the conflict list in step."""
        m = self.m
        old = m[a][b]
        new = old + step
        m[a][b] = m[b][a] = new
        self.cost += self.F[new] - self.F[old]
        key = a * self.n + b if a < b else b * self.n + a
        if old == 1 and new == 2:
            self.conf_pos[key] = len(self.conf)
            self.conf.append(key)
        elif old == 2 and new == 1:
            i = self.conf_pos.pop(key)
            last = self.conf.pop()
            if last != key:
                self.conf[i] = last
                self.conf_pos[last] = i

    def _add_tour(self, tables: list[list[int]]) -> None:
        where = [0] * self.n
        for k, table in enumerate(tables):
            for p in table:
                where[p] = k
            for a, b in combinations(table, 2):
                self._bump(a, b, 1)
        self.tables.append(tables)
        self.where.append(where)

    def _swap(self, t: int, a: int, b: int) -> None:
        where = self.where[t]
        x, y = where[a], where[b]
        X, Y = self.tables[t][x], self.tables[t][y]
        for p in X:
            if p != a:
                self._bump(a, p, -1)
                self._bump(b, p, 1)
        for q in Y:
            if q != b:
                self._bump(b, q, -1)
                self._bump(a, q, 1)
        X[X.index(a)] = b
        Y[Y.index(b)] = a
        where[a], where[b] = y, x

    def _snapshot(self) -> list[list[list[int]]]:
        return [[table[:] for table in tour] for tour in self.tables]

    def _tabu(self) -> list[list[list[int]]]:
        n, g, rng, m = self.n, self.groups, self.rng, self.m
        INC, DEC = self.INC, self.DEC
        # tabu[t][p*g + k]: until which iteration player p may not go back to table k of tour t
        tabu = [[0] * (n * g) for _ in range(self.tours)]
        best_cost, best = self.cost, self._snapshot()
        it = 0
        while it < self.budget and self.cost > self.target and self.conf:
            it += 1
            # Регламент §2: минимизация повторных встреч — двигаем только игроков из повторяющейся пары
            i, j = divmod(self.conf[rng.randrange(len(self.conf))], n)
            shared = [t for t in range(self.tours) if self.where[t][i] == self.where[t][j]]
            t = shared[rng.randrange(len(shared))]
            where, tables, tabu_t = self.where[t], self.tables[t], tabu[t]
            move_delta, move, ties = 0, (-1, -1), 0
            for a in (i, j):
                x = where[a]
                X = tables[x]
                ma = m[a]
                others = [p for p in X if p != a]
                leave_a = sum(DEC[ma[p]] for p in others)
                p0, p1, p2 = others
                for y in range(g):
                    if y == x:
                        continue
                    Y = tables[y]
                    join_a = leave_a + sum(INC[ma[q]] for q in Y)
                    a_tabu = tabu_t[a * g + y] > it
                    y0, y1, y2, y3 = Y
                    for b in Y:
                        mb = m[b]
                        # a leaves X for Y\{b}, b leaves Y for X\{a}; DEC[m[b][b]] = DEC[0] = 0
                        join_b = INC[mb[p0]] + INC[mb[p1]] + INC[mb[p2]]
                        leave_b = DEC[mb[y0]] + DEC[mb[y1]] + DEC[mb[y2]] + DEC[mb[y3]]
                        d = join_a - INC[ma[b]] + join_b + leave_b
                        if (a_tabu or tabu_t[b * g + x] > it) and self.cost + d >= best_cost:
                            continue  # tabu unless it beats the best seen (aspiration)
                        if ties == 0 or d < move_delta:
                            move_delta, move, ties = d, (a, b), 1
                        elif d == move_delta:
                            ties += 1
                            if rng.randrange(ties) == 0:
                                move = (a, b)
            if ties == 0:
                continue
            a, b = move
            x, y = where[a], where[b]
            self._swap(t, a, b)
            # random tenure: a fixed one lets the search cycle on small rosters
            tabu_t[a * g + x] = it + 3 + rng.randrange(10)
            tabu_t[b * g + y] = it + 3 + rng.randrange(10)
            if self.cost < best_cost:
                best_cost, best = self.cost, self._snapshot()
        return best if best_cost < self.cost else self.tables
