"""The season bench's invariants and its independent standings sum (bench/season.py). Pure: data in, the list of
violations out (empty when the invariant holds); imports no database, reflex or telegram, nor the league's own
scoring, so a fault there cannot hide itself here."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from services.scheduling.intervals import Interval, subtract

START = 30_000
UMA = (15_000, 5_000, -5_000, -15_000)  # Регламент §4: hanchan uma and match uma alike
CHOMBO = -40_000
STICK = 1_000


@dataclass(frozen=True)
class Meeting:
    """An active booking as the checks see it; `match_id` None for a club activity."""

    booking_id: int
    match_id: int | None
    room_id: int
    start: datetime
    end: datetime
    hanchans: int = 0
    table_no: int = 1


@dataclass(frozen=True)
class HanchanRecord:
    """What the simulated table wrote down: final points by player, chombo by player, sticks left."""

    points: Mapping[int, int]
    chombo: Mapping[int, int]
    sticks: int


def _kirov(instant: datetime) -> str:
    from datetime import timedelta, timezone

    return instant.astimezone(timezone(timedelta(hours=3))).strftime("%d.%m %H:%M")


def _span(m: Meeting) -> str:
    return f"booking {m.booking_id} (match {m.match_id}, room {m.room_id}, {_kirov(m.start)}–{_kirov(m.end)})"


def _overlapping_pairs(items: Iterable[Meeting]) -> list[tuple[Meeting, Meeting]]:
    """Every pair of overlapping half-open intervals, by a sweep over the starts."""
    pairs: list[tuple[Meeting, Meeting]] = []
    open_: list[Meeting] = []
    for m in sorted(items, key=lambda x: (x.start, x.end, x.booking_id)):
        open_ = [o for o in open_ if o.end > m.start]
        pairs += [(o, m) for o in open_]
        open_.append(m)
    return pairs


def room_double_bookings(meetings: Sequence[Meeting]) -> list[str]:
    """Регламент §3: пересекающиеся брони не допускаются — never two active bookings overlapping at one table of a
    room (a room of one table: in the room)."""
    by_table: dict[tuple[int, int], list[Meeting]] = defaultdict(list)
    for m in meetings:
        by_table[(m.room_id, m.table_no)].append(m)
    return [
        f"room {room} table {table} double-booked: {_span(a)} and {_span(b)}"
        for (room, table), items in sorted(by_table.items())
        for a, b in _overlapping_pairs(items)
    ]


def player_clashes(meetings: Sequence[Meeting], seats: Mapping[int, Sequence[int]]) -> list[str]:
    """No player in two meetings at once (of two matches, or one match booked twice at once in two rooms)."""
    by_player: dict[int, list[Meeting]] = defaultdict(list)
    for m in meetings:
        for player in seats.get(m.match_id, ()) if m.match_id is not None else ():
            by_player[player].append(m)
    out = []
    for player, items in sorted(by_player.items()):
        for a, b in _overlapping_pairs(items):
            how = "one match booked twice at once" if a.match_id == b.match_id else "two matches at once"
            out.append(f"player {player} in two meetings at once ({how}): {_span(a)} and {_span(b)}")
    return out


def over_hanchans(meetings: Sequence[Meeting], planned: Mapping[int, int], played: Mapping[int, int]) -> list[str]:
    """No match booked for more hanchans than it has, and none with more results than it has."""
    booked: dict[int, int] = defaultdict(int)
    for m in meetings:
        if m.match_id is not None:
            booked[m.match_id] += m.hanchans
    out = [
        f"match {mid} booked for {n} hanchans of {planned.get(mid, 0)}"
        for mid, n in sorted(booked.items())
        if n > planned.get(mid, 0)
    ]
    out += [
        f"match {mid} has {n} hanchans entered of {planned.get(mid, 0)}"
        for mid, n in sorted(played.items())
        if n > planned.get(mid, 0)
    ]
    return out


def outside_window(
    meetings: Sequence[Meeting],
    windows: Mapping[int, tuple[datetime, datetime]],
    earlier: Mapping[int, Sequence[tuple[datetime, datetime]]] | None = None,
) -> list[str]:
    """Регламент §2: все встречи должны состояться в пределах игрового окна — the window the match is in now, or,
    for a meeting over before that window opened, one of the windows the match was in before it moved (Регламент
    §6.1: a split match's played meeting stays where it was held, its rest moves on)."""
    out = []
    for m in meetings:
        if m.match_id is None:
            continue
        window = windows.get(m.match_id)
        held = (
            window is not None
            and m.end <= window[0]
            and any(a <= m.start and m.end <= b for a, b in (earlier or {}).get(m.match_id, ()))
        )
        if window is None or not (window[0] <= m.start and m.end <= window[1]) and not held:
            shown = f"{_kirov(window[0])}–{_kirov(window[1])}" if window else "none"
            out.append(f"{_span(m)} outside its window {shown}")
    return out


def hanchan_scores(record: HanchanRecord) -> dict[int, int]:
    """Регламент §4 (RRC for ties): points − 30 000 + uma (a tie splits the uma of the places it covers) + the
    sticks left to first place (split on a tie, floored) − 40 000 per chombo."""
    ordered = sorted(record.points.items(), key=lambda kv: -kv[1])
    out: dict[int, int] = {}
    position = 0
    while position < len(ordered):
        tied = [p for p, pts in ordered if pts == ordered[position][1]]
        uma = sum(UMA[position : position + len(tied)]) // len(tied)
        sticks = record.sticks * STICK // len(tied) if position == 0 else 0
        for player in tied:
            out[player] = record.points[player] - START + uma + sticks + CHOMBO * record.chombo.get(player, 0)
        position += len(tied)
    return out


def independent_totals(
    matches: Mapping[int, tuple[Sequence[int], Mapping[int, HanchanRecord], Sequence[tuple[int, int]], int]],
) -> dict[int, int]:
    """Each player's regular-stage total: per match the sum of its hanchans plus penalties, plus match uma only
    once all its hanchans are in (shared places split it). `matches`: id -> (seats, hanchans by number,
    penalties (player, points), planned hanchans)."""
    totals: dict[int, int] = defaultdict(int)
    for seats, hanchans, penalties, planned in matches.values():
        line = dict.fromkeys(seats, 0)
        for record in hanchans.values():
            for player, score in hanchan_scores(record).items():
                line[player] += score
        for player, points in penalties:
            line[player] = line.get(player, 0) + points
        if len(hanchans) >= planned:
            ordered = sorted(line.items(), key=lambda kv: -kv[1])
            position = 0
            while position < len(ordered):
                tied = [p for p, t in ordered if t == ordered[position][1]]
                share = Fraction(sum(UMA[position : position + len(tied)]), len(tied))
                for player in tied:
                    line[player] += int(share)
                position += len(tied)
        for player, total in line.items():
            totals[player] += total
    return dict(totals)


def standings_mismatch(db_totals: Mapping[int, int], independent: Mapping[int, int]) -> list[str]:
    out = []
    for player in sorted(set(db_totals) | set(independent)):
        a, b = db_totals.get(player), independent.get(player, 0)
        if a != b:
            out.append(f"player {player}: standings say {a}, the independent sum {b}")
    return out


def stale_cards(truth: Mapping[int, str], shown: Mapping[int, str | None]) -> list[str]:
    """Every match card in the chat shows what the read model says now (issue 43 item 5: what changed it — a
    result, a neighbour's hold, time alone — was followed)."""
    out = []
    for match_id, text in sorted(truth.items()):
        card = shown.get(match_id) or ""
        if card != text:  # the first line that differs, as the chat and the read model have it
            pairs = zip([*card.splitlines(), ""], [*text.splitlines(), ""], strict=False)
            old, new = next(((a, b) for a, b in pairs if a != b), (card, text))
            out.append(f"match {match_id}: the card shows {old[:70]!r}, the read model {new[:70]!r}")
    return out


def outbox_violations(
    *, events: int, undelivered: int, delivered_by_passes: int, sent_ids: Sequence[int], recorded_ids: Sequence[int]
) -> list[str]:
    """Every outbox event delivered exactly once: none left, the passes marked each once (their count equals the
    events), and every message the gateway sent is recorded once (a card or a TelegramSend): none sent twice."""
    out = []
    if undelivered:
        out.append(f"{undelivered} of {events} outbox events never delivered")
    if delivered_by_passes != events:
        out.append(f"the delivery passes marked {delivered_by_passes} deliveries for {events} events")
    sent, recorded = list(sent_ids), list(recorded_ids)
    if len(set(sent)) != len(sent) or sorted(sent) != sorted(recorded):
        stray = sorted(set(sent) - set(recorded))[:5]
        out.append(f"{len(sent)} messages sent, {len(recorded)} recorded (unrecorded: {stray})")
    return out


def table_free_time(
    common: Sequence[Interval],
    others: Sequence[Meeting],
    places: Iterable[tuple[int, int]],
    own_meetings: Iterable[Interval],
) -> list[Interval]:
    """The capacity-aware ceiling's time for one match: its four's common time at which some one table is free
    of every other booking (other matches' and the club's activities, as they stand at the end) and none of the
    four sits in another match's meeting. Per table (spans of different tables are not merged: a meeting sits at
    one table), sorted."""
    busy: dict[tuple[int, int], list[Interval]] = {place: [] for place in places}
    for m in others:
        busy.setdefault((m.room_id, m.table_no), []).append(Interval(m.start, m.end))
    not_sitting = subtract(common, own_meetings)
    return sorted(iv for spans in busy.values() for iv in subtract(not_sitting, spans))
