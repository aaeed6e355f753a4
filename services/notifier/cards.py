"""Telegram message texts in Russian, HTML parse mode; pure: data in, text out. Imports no telegram.

Регламент §3, §6.4: personal intervals and contacts are never published. The texts below only ever
see `MatchSnapshot`, which carries common options (where all four are free), never one player's time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from html import escape
from typing import Any

from services.core import wording
from services.core.text_limits import ANNOUNCEMENT_MAX
from services.notifier.snapshot import BookingView, MatchSnapshot, ProposalView, SeatView
from services.scheduling.intervals import Interval, to_kirov
from services.scheduling.rules import (
    NO_COMMON_TIME,
    NO_FREE_TABLE,
    STATE_LABELS,
    STEP_ADD_TIME,
    STEP_CONFIRM,
    STEP_PAINT,
    STEP_PAINT_MORE,
    STEP_PROPOSE,
    fallback_text,
    format_kirov,
    format_span,
    hanchans_word,
    if_needed_text,
    unblock_text,
)

MAX_MESSAGE = 4096  # Telegram's limit for one text message
MAX_NAME = 60  # a display name longer than this is clipped so a card always fits
MAX_OPTIONS_SHOWN = 5
MAX_ANNOUNCEMENT = ANNOUNCEMENT_MAX  # leaves room for the heading inside MAX_MESSAGE
SITE_HINT = "Отметить время, предложить и подтвердить встречу можно на сайте лиги."


def text_hash(text: str) -> str:
    """What a posted message is remembered by: a card is edited only when the new text's hash differs."""
    return hashlib.sha256(text.encode()).hexdigest()


def _name(seat: SeatView, *, mention: bool = False) -> str:
    name = seat.name if len(seat.name) <= MAX_NAME else seat.name[: MAX_NAME - 1] + "…"
    text = escape(name)
    if mention and seat.telegram_username:
        text += f" (@{escape(seat.telegram_username[:MAX_NAME])})"
    return text


def _names(seats: Iterable[SeatView], *, mention: bool = False) -> str:
    return ", ".join(_name(s, mention=mention) for s in seats) or "—"


def match_title(snap: MatchSnapshot) -> str:
    return escape(wording.match_title(snap.stage_kind, snap.round_code, snap.table))


def _answers_block(snap: MatchSnapshot) -> list[str]:
    answered = [s for s in snap.seats if s.answered]
    waiting = [s for s in snap.seats if not s.answered]
    lines = [f"Ответили: {_names(answered)}"]
    if waiting:
        lines.append(f"Ждём ответа: {_names(waiting)}")
    return lines


def _options_block(snap: MatchSnapshot) -> list[str]:
    if snap.state == NO_COMMON_TIME:
        # Регламент §3: no fallback date and no penalty from the bot, only what to do next.
        return ["Общего времени нет: обновите доступность и обратитесь к организатору."]
    if snap.state == NO_FREE_TABLE:
        return ["Общее время есть, но столы клуба в это время заняты: встречу назначит организатор."]
    if not snap.options:
        return []
    lines = [f"Общие варианты: {len(snap.options)}"]
    for option in snap.options[:MAX_OPTIONS_SHOWN]:
        level = f", {if_needed_text(option.if_needed)}" if option.if_needed else ""
        lines.append(
            f"• {format_span(option.start, option.end)} (хватит на {hanchans_word(option.hanchans_fit)}{level})"
        )
    if len(snap.options) > MAX_OPTIONS_SHOWN:
        lines.append(f"…и ещё {len(snap.options) - MAX_OPTIONS_SHOWN}")
    return lines


def _proposal_block(snap: MatchSnapshot) -> list[str]:
    p = snap.proposal
    if p is None:
        return []
    pending = [s for s in snap.seats if s.player_id not in p.confirmed and s.player_id not in p.declined]
    lines = [
        f"Предложено: {format_span(p.start, p.end)}, {escape(p.room)}, {hanchans_word(p.hanchans)}",
        f"Подтвердили: {_names(snap.players(p.confirmed))}",
    ]
    if pending:
        lines.append(f"Ждём подтверждения: {_names(pending)}")
    if p.declined:
        lines.append(f"Отказались: {_names(snap.players(p.declined))}")
    return lines


def _booking_line(b: BookingView) -> str:
    return f"{format_span(b.start, b.end)}, {escape(b.room)}" + (f", {hanchans_word(b.hanchans)}" if b.hanchans else "")


def _bookings_block(snap: MatchSnapshot) -> list[str]:
    return [f"Бронь: {_booking_line(b)}" for b in snap.bookings]


def card_text(snap: MatchSnapshot) -> str:
    """The match card in the «Время сбора» topic (Регламент §3)."""
    lines = [f"<b>{match_title(snap)}</b>"]
    if snap.window_start and snap.window_end:
        lines.append(f"Игровое окно: {format_span(snap.window_start, snap.window_end)} (время Кирова)")
    lines.append(f"Игроки: {_names(snap.seats)}")
    lines.append(f"Состояние: <b>{escape(STATE_LABELS.get(snap.state, snap.state))}</b>")
    blocks = [
        _answers_block(snap),
        _options_block(snap),
        _proposal_block(snap),
        _bookings_block(snap),
        _fallback_block(snap),
    ]
    for block in blocks:
        if block:
            lines.append("")
            lines.extend(block)
    return "\n".join(lines)[:MAX_MESSAGE]


def _fallback_block(snap: MatchSnapshot) -> list[str]:
    """Регламент §6.1: the date the match is played on if the four do not agree, known from the window's opening."""
    return [escape(fallback_text(snap.fallback_start))] if snap.fallback_start is not None else []


def unblock_private_text(snap: MatchSnapshot, player_id: int) -> str | None:
    """The one who blocks is told, in their own private chat only: when the other three are free."""
    hint = snap.unblock.get(player_id)
    if not hint:
        return None
    # The options hold part of the remaining hanchans: the hint is for all of them in one meeting (board.unblock_hints).
    short = bool(snap.options)
    lines = [f"<b>{match_title(snap)}</b>",
             "Общего времени у четверых хватает только на часть матча." if short else "У четверых нет общего времени.",
             escape(unblock_text([Interval(o.start, o.end) for o in hint], whole=short,
                                 shared=any(o.shared for o in hint)))]  # fmt: skip
    if snap.fallback_start is not None:
        lines.append(escape(fallback_text(snap.fallback_start)))
    lines.append(SITE_HINT)
    return "\n".join(lines)


# What the Sunday reminder asks of a player, by their step (`Board.step`): Регламент §3.
_TO_DO = {
    STEP_PAINT: "отметить доступность",
    STEP_PAINT_MORE: "обновить доступность и обратиться к организатору",
    STEP_ADD_TIME: "обновить доступность и обратиться к организатору",
    STEP_PROPOSE: "выбрать и предложить время из общих вариантов",
    STEP_CONFIRM: "подтвердить предложенное время",
}


def still_to_act(snap: MatchSnapshot) -> tuple[str, list[SeatView]]:
    """What the match waits for and from whom (Регламент §3: the Sunday reminder): the seats whose step is theirs to
    take, asked for the first one's step (the four share a step but for who has answered or confirmed)."""
    who = [s for s in snap.seats if snap.steps.get(s.player_id) in _TO_DO]
    return (_TO_DO[snap.steps[who[0].player_id]], who) if who else ("", [])


def reminder_heading(late_from: datetime | None = None) -> str:
    """Регламент §3: the Sunday reminder's heading; a late one (the bot, or every process, was down on Sunday
    evening) says which Sunday it is from."""
    what = "согласование времени не завершено"
    if late_from is None:
        return f"<b>Напоминание: {what}</b>"
    return f"<b>Напоминание с воскресенья {to_kirov(late_from):%d.%m}, с опозданием: {what}</b>"


def reminder_texts(snaps: Sequence[MatchSnapshot], *, late_from: datetime | None = None) -> list[str]:
    """The Sunday reminder, split into messages under Telegram's limit; empty when nothing is pending. `late_from`:
    the Sunday's reminder moment when it is sent after that Sunday is over."""
    blocks = []
    for snap in snaps:
        action, seats = still_to_act(snap)
        if seats:
            block = f"<b>{match_title(snap)}</b>: нужно {action} — {_names(seats, mention=True)}"
            if snap.fallback_start is not None:
                block += f". {escape(fallback_text(snap.fallback_start))}"
            blocks.append(block)
    if not blocks:
        return []
    header = reminder_heading(late_from)
    messages: list[str] = []
    current = header
    for block in blocks:
        if len(current) + len(block) + len(SITE_HINT) + 4 > MAX_MESSAGE:
            messages.append(current)
            current = header
        current += "\n\n" + block
    messages.append(current + "\n\n" + SITE_HINT)
    return messages


ANSWER_HERE = "Ответьте кнопкой ниже или на сайте лиги."


def proposal_waiting_text(snap: MatchSnapshot) -> str:
    p = snap.proposal
    assert p is not None
    return (
        f"<b>{match_title(snap)}</b>\nВам предложено время встречи: {format_span(p.start, p.end)}, "
        f"{escape(p.room)}, {hanchans_word(p.hanchans)}.\n{ANSWER_HERE}"
    )


SOON = "начнётся меньше чем через сутки, а вы ещё не ответили"


def proposal_soon_text(snap: MatchSnapshot) -> str:
    """Регламент §3: the private reminder, a day before its start, of a proposal the player has not answered."""
    p = snap.proposal
    assert p is not None
    return (
        f"<b>{match_title(snap)}</b>\nПредложенная встреча {format_span(p.start, p.end)} ({escape(p.room)}, "
        f"{hanchans_word(p.hanchans)}) {SOON}. Бронь будет, только "
        f"когда подтвердят все четверо. {ANSWER_HERE}"
    )


def booked_text(snap: MatchSnapshot, *, moved: bool = False, ask: bool = False) -> str:
    """The booked or moved meeting; `ask`: with its «Не смогу» buttons, whose question it then asks."""
    head = "Встреча перенесена" if moved else "Встреча забронирована"
    lines = [f"<b>{match_title(snap)}</b>", f"{head}:"] + [f"• {_booking_line(b)}" for b in snap.bookings]
    return "\n".join(lines + (cannot_question(snap.bookings) if ask else []))


# Issue 44, Регламент §3: the buttons of the private messages and what a tap answers (answerCallbackQuery: at most
# 200 characters) and how the message then reads.
BUTTON_CONFIRM = "Подтверждаю"
BUTTON_DECLINE = "Не могу"
TAP_UNKNOWN = "Эта кнопка больше не действует: наберите /matches или откройте матч на сайте."
TAP_NOT_YOURS = "Эта кнопка не ваша: ответить ею может только тот игрок, кому бот её прислал."
TAP_CONFIRMED = "Подтверждение записано."
TAP_BOOKED = "Все четверо подтвердили: помещение забронировано."
TAP_DECLINED = "Вы отклонили это время."
BUTTON_CANNOT_FREE = "Не смогу, время убрать"
BUTTON_CANNOT_KEEP = "Не смогу, время оставить"
# The page's question (its «Не сможете прийти?» dialog), asked by the two buttons.
CANNOT_QUESTION = (
    "Не сможете прийти? «Не смогу» снимет бронь сразу, остальные трое получат сообщение, и время придётся согласовать "
    "заново; «время убрать» — ещё и уберёт это время из вашей доступности, чтобы его не предложили снова."
)
# Регламент §5, §6.1, §6.3: the question on the binding fallback, whose «Не смогу» warns the organizer instead.
CANNOT_QUESTION_BINDING = (
    "Запасная дата обязательна (Регламент §6.1): «Не смогу» бронь не снимет и время из доступности не уберёт — "
    "организатор получит ваше предупреждение и решит, переносить ли матч."
)


def cannot_question(asked: Sequence[BookingView]) -> list[str]:
    """The question the «Не смогу» buttons of these meetings ask: the page's, and the binding fallback's."""
    return ([CANNOT_QUESTION] if any(not b.binding for b in asked) else []) + (
        [CANNOT_QUESTION_BINDING] if any(b.binding for b in asked) else []
    )


BUTTON_OPEN = "Открыть на сайте"


def add_button(start: datetime, end: datetime) -> str:
    """The blocker's hint's button: adds exactly this span to the person's own time."""
    return f"Добавить {format_span(start, end)}"


def added_answer(start: datetime, end: datetime) -> str:
    return f"Добавлено в вашу доступность: {format_span(start, end)}."


def added_text(snap: MatchSnapshot, start: datetime, end: datetime) -> str:
    """The hint's message once its time was added and no hint is left for the person: what changed, and the
    match as it stands now."""
    state = escape(STATE_LABELS.get(snap.state, snap.state))
    return f"<b>{match_title(snap)}</b>\n{added_answer(start, end)}\nСейчас: {state}."


TAP_LINK_SENT = "Ссылка для входа отправлена отдельным сообщением."


def link_still_live(until: datetime) -> str:
    """A tap on «Открыть на сайте» while the link it sent before is unused and live: no second link (issue 44)."""
    return f"Ссылка для входа уже отправлена отдельным сообщением выше и действует до {to_kirov(until):%H:%M}."


def login_link_text(snap: MatchSnapshot, minutes: int) -> str:
    """The message with the one-time login link (issue 44), sent only to the person's own private chat."""
    return (
        f"<b>{match_title(snap)}</b>\nКнопка ниже откроет страницу матча на сайте уже с входом: она действует "
        f"{minutes} {wording.plural(minutes, 'минуту', 'минуты', 'минут')} и только один раз. "
        "Не пересылайте это сообщение: ссылка входит на сайт от вашего имени."
    )


TAP_CANNOT_FREED = "Бронь снята, это время убрано из вашей доступности: согласуйте другое."
TAP_CANNOT_KEPT = "Бронь снята. Ваша доступность не изменилась: согласуйте другое время."
MAX_TAP_ANSWER = 200


PAGE_ONLY = ": обновите страницу."  # a service's refusal says so to a page; in the chat the message shows the state


def tap_answer(text: str) -> str:
    """What a tap is answered with, within Telegram's limit for answerCallbackQuery."""
    text = text.replace(PAGE_ONLY, ".")
    return text if len(text) <= MAX_TAP_ANSWER else text[: MAX_TAP_ANSWER - 1] + "…"


def proposal_outcome_text(
    snap: MatchSnapshot, proposal: ProposalView, *, status: str, player_id: int, now: datetime, reason: str | None
) -> str:
    """The proposal's private message after a tap, as the proposal stands now (Регламент §3): confirmed and whom it
    waits for, booked, declined, or why it no longer can be (ended, begun, the table gone: `reason`)."""
    head = (
        f"<b>{match_title(snap)}</b>\nПредложенное время: {format_span(proposal.start, proposal.end)}, "
        f"{escape(proposal.room)}, {hanchans_word(proposal.hanchans)}."
    )
    if status == "booked":
        return booked_text(snap)
    if status == "failed":
        line = f"Встреча не забронирована: {escape(reason or '')}"
    elif status == "declined":
        line = "Вы отклонили это время." if player_id in proposal.declined else "Это время отклонено."
    elif status != "open":
        line = "Это предложение уже не действует" + (f": {escape(reason)}" if reason else ".")
    elif proposal.start <= now:
        line = "Время встречи уже началось: подтвердить его больше нельзя."
    elif player_id in proposal.confirmed:
        waiting = [s for s in snap.seats if s.player_id not in proposal.confirmed]
        line = f"Вы подтвердили; ждём: {_names(waiting)}."
    else:
        line = ANSWER_HERE
    if status != "open" or proposal.start <= now:
        line += f"\nСейчас: {escape(STATE_LABELS.get(snap.state, snap.state))}."
    return f"{head}\n{line}"


def meeting_soon_text(snap: MatchSnapshot, soon: Sequence[BookingView], *, ask: bool) -> str:
    """Issue 44: the private reminder, a day before, of a booked meeting; `ask`: with its «Не смогу» buttons."""
    lines = [f"<b>{match_title(snap)}</b>", "Встреча меньше чем через сутки:"] + [f"• {_booking_line(b)}" for b in soon]
    return "\n".join(lines + (cannot_question(soon) if ask else []))


def booking_outcome_text(snap: MatchSnapshot, booking: BookingView, *, now: datetime) -> str:
    """A booked meeting's private message after a tap that left it booked (asking the page's question while it has
    not begun)."""
    lines = [f"<b>{match_title(snap)}</b>", f"Встреча забронирована: {_booking_line(booking)}"]
    if booking.start > now:
        lines += cannot_question([booking])
    return "\n".join(lines)


def released_text(snap: MatchSnapshot) -> str:
    state = escape(STATE_LABELS.get(snap.state, snap.state))
    return f"<b>{match_title(snap)}</b>\nБронь встречи снята. Сейчас: {state}. Согласуйте новое время на сайте лиги."


def matches_text(snaps: Sequence[MatchSnapshot]) -> str:
    """The answer to /matches: the player's own matches and their state."""
    if not snaps:
        return "У вас пока нет матчей: они появятся после утверждения жеребьёвки."
    lines = ["<b>Ваши матчи</b>"]
    for snap in snaps:
        state = escape(STATE_LABELS.get(snap.state, snap.state))
        line = f"• {match_title(snap)} — {state}"
        if snap.bookings:
            line += "; " + "; ".join(format_span(b.start, b.end) for b in snap.bookings)
        lines.append(line)
    return "\n".join(lines)[:MAX_MESSAGE]


def match_now_text(snap: MatchSnapshot, *, action: str, when: str) -> str:
    """One match in the answer to /matches (issue 44): its state, when, and the person's next action, in the read
    model's words (the home page's), above the buttons that apply."""
    state = escape(STATE_LABELS.get(snap.state, snap.state))
    return f"<b>{match_title(snap)} — {state}</b>\nКогда: {escape(when)}\nДальше: {escape(action)}"[:MAX_MESSAGE]


def announcement_text(text: str) -> str:
    return f"<b>Объявление</b>\n\n{escape(text[:MAX_ANNOUNCEMENT])}"


def judge_call_text(payload: Mapping[str, Any]) -> str:
    """Регламент §6.2: the judge's private message — match, hanchan, what happened, who called."""
    hanchan = payload.get("hanchan")
    return (
        f"<b>Вызов судьи</b>: {escape(str(payload.get('match', '')))}"
        + (f", ханчан {int(hanchan)}" if hanchan else "")
        + f"\n{escape(str(payload.get('description', '')))}\nЗовёт: {escape(str(payload.get('caller', '')))}"
    )


def judge_call_unanswered_text(payload: Mapping[str, Any]) -> str:
    """Регламент §6.2 «при невозможности связаться — к организатору»: the organizer's private message."""
    hanchan = payload.get("hanchan")
    return (
        f"<b>Вызов судьи без ответа</b> {int(payload.get('waited_minutes') or 0)}\u00a0мин: "
        f"{escape(str(payload.get('match', '')))}"
        + (f", ханчан {int(hanchan)}" if hanchan else "")
        + f"\n{escape(str(payload.get('description', '')))}"
    )


def fallback_warned_text(payload: Mapping[str, Any]) -> str:
    """Регламент §5, §6.1: the organizers' private message when a player warns they cannot come to the binding
    fallback (it stays booked; the organizer decides)."""
    start, name = datetime.fromisoformat(str(payload.get("start"))), str(payload.get("name", ""))
    warned = wording.agreed(name, "предупредил", "предупредила")
    return (
        f"<b>{escape(name)} {warned}: не сможет прийти на запасную дату</b> "
        f"{escape(str(payload.get('match', '')))}, {format_kirov(start)}.\nБронь остаётся (Регламент §6.1). "
        "Решите на «Столе организатора»: перенести матч, посадить замену или оставить время."
    )


def draw_approved_text(season: str, matches: int, windows: Sequence[tuple[datetime, datetime]]) -> str:
    """Регламент §2: the draw of all tours is approved; each tour's window as Kirov dates (the end is exclusive)."""
    lines = [f"<b>Жеребьёвка утверждена</b>: {escape(season[:MAX_NAME])}, туров: {len(windows)}, матчей: {matches}."]
    for number, (start, end) in enumerate(windows, start=1):
        last = to_kirov(end - timedelta(microseconds=1))
        lines.append(f"Тур {number}: {to_kirov(start):%d.%m}–{last:%d.%m.%Y}")
    lines.append("Свои матчи и соперники — на сайте лиги. " + SITE_HINT)
    return "\n".join(lines)


START_HELP = (
    "Это бот Лиги Дискарда: он сообщает о согласовании матчей. Чтобы привязать аккаунт, "
    "откройте на сайте лиги страницу «Профиль» и перейдите по ссылке с кодом."
)
LINKED = "Готово: Telegram привязан к игроку {name}. Команда /matches покажет ваши матчи, /stop отвяжет аккаунт."
LINK_FAILED = "Код не подошёл: он неверный, уже использован или устарел. Получите новый на странице «Профиль»."
UNLINKED = "Telegram отвязан. Личных сообщений от бота больше не будет."
NOT_LINKED = "Этот Telegram не привязан к игроку лиги. Привяжите его на странице «Профиль» на сайте."
PRIVATE_ONLY = "Эта команда работает только в личном чате с ботом."


def linked_text(name: str) -> str:
    return LINKED.format(name=escape(name))


# --- the bot's error handler (issue 24) ---
COMMAND_FAILED = (
    "Не получилось выполнить команду: попробуйте ещё раз чуть позже. Если не выйдет — напишите организатору."
)
