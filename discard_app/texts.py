"""Every Russian text the pages show, in one place so a translation touches no page."""

APP_TITLE = "Лига Дискарда"
CLUB = "Клуб «Братство Дискарда», Киров"

LOGIN_TITLE = "Вход"
LOGIN_NAME = "Имя"
LOGIN_PASSWORD = "Пароль"
LOGIN_SUBMIT = "Войти"
LOGIN_HINT = "Войдите под своим именем с паролем, который выдал организатор."
LOGIN_EMPTY = "Введите имя и пароль."
LOGOUT = "Выйти"
LOGIN_BUSY = "Сейчас слишком много входов. Попробуйте ещё раз через несколько секунд."
LOGIN_NAME_HINT = "Большие и маленькие буквы, лишние пробелы и ё/е не важны."
HEADER_ROLE = "Вы вошли как {name} ({role})"
TOO_LONG = "Текст слишком длинный: не больше {limit} символов. Ничего не сохранено."
UNEXPECTED_ERROR = (
    "Что-то пошло не так на сервере. Обновите страницу и проверьте, сохранилось ли действие; "
    "если ошибка повторится, сообщите организатору."
)
TEXT_LIMIT_HINT = "до {limit} символов"

NAV_HOME = "Мои матчи"
NAV_ROSTER = "Состав"
NAV_STAFF = "Судьи и эксперты"


HOME_TITLE = "Мои матчи"
HOME_EMPTY_TITLE = "Матчей пока нет"
HOME_EMPTY_TEXT = (
    "Жеребьёвка всех туров проводится после закрытия регистрации и утверждается организатором. "
    "Когда она будет утверждена, здесь появятся ваши матчи и соперники, и можно будет отметить свободное время."
)
HOME_STAFF_TEXT = "Вы вошли как {role}. Игровые матчи есть только у участников лиги."
HOME_TO_DESK = "Открыть вызовы"

FORBIDDEN_TITLE = "Нет доступа"
FORBIDDEN_ORGANIZER = "Эта страница доступна только организатору."

ROSTER_TITLE = "Состав лиги"
ROSTER_ADD = "Добавить игрока"
ROSTER_NAME = "Имя и фамилия"
ROSTER_STATUS = "Статус"
ROSTER_ORDER = "№"
ROSTER_TELEGRAM = "Telegram"
ROSTER_RESET = "Новый пароль"
ROSTER_CHANGE = "Изменить статус"
ROSTER_REASON = "Причина (обязательна при снятии)"
ROSTER_PLAYER = "Игрок"
ROSTER_SAVE = "Сохранить"
ROSTER_PASSWORD_ISSUED = "Пароль для «{name}»: {password}. Он показан один раз — передайте его лично."
ROSTER_ADDED = "Игрок добавлен."
ROSTER_ONE_WORD_TITLE = "Только имя, без фамилии: «{name}»?"
ROSTER_ONE_WORD_TEXT = (
    "По одному имени человека трудно найти в таблице и легко спутать с тёзкой. Будет создана учётная запись "
    "с этим именем и паролем. Лучше дописать фамилию."
)
ROSTER_ONE_WORD_CONFIRM = "Создать без фамилии"
ROSTER_ONE_WORD_CANCEL = "Дописать фамилию"
ROSTER_STATUS_CHANGED = "Статус изменён."
ROSTER_PICK_PLAYER = "Выберите игрока."
ROSTER_COUNT = "В основном составе: {main}. Резерв: {reserve}."
NO_SEASON = "Сезон ещё не создан: выполните «discard demo» или создайте сезон."

# --- the draw page (Регламент §1, §2) ---
NAV_DRAW = "Жеребьёвка"
NAV_SCHEDULE = "Согласование"
NAV_CALENDAR = "Календарь клуба"
DRAW_TITLE = "Жеребьёвка"
DRAW_REGISTRATION = "Закрытие регистрации"
DRAW_REGISTRATION_OPEN = "Регистрация открыта. В основном составе: {main}, в резерве: {reserve}."
DRAW_REGISTRATION_CLOSED = "Регистрация закрыта. В основном составе: {main}."
DRAW_CLOSING_HINT = (
    "Основной состав строго кратен {multiple} (Регламент §1). Ниже — что произойдёт при каждом способе; "
    "ничего не меняется, пока вы не нажмёте кнопку."
)
DRAW_AS_IS_TITLE = "Состав кратен {multiple}"
DRAW_AS_IS_TEXT = "В основном составе {main}: менять ничего не нужно."
DRAW_AS_IS_BUTTON = "Закрыть регистрацию"
DRAW_FROM_RESERVE_TITLE = "Добрать из резерва"
DRAW_FROM_RESERVE_TEXT = "В основной состав перейдут (по порядку регистрации): {names}."
DRAW_FROM_RESERVE_BUTTON = "Добрать из резерва и закрыть регистрацию"
DRAW_TO_RESERVE_TITLE = "Перевести в резерв последних зарегистрировавшихся"
DRAW_TO_RESERVE_TEXT = "В резерв перейдут: {names}."
DRAW_TO_RESERVE_BUTTON = "Перевести в резерв и закрыть регистрацию"
DRAW_OPTION_RESULT = "Станет в основном составе: {main}."
DRAW_CLOSED_NOTICE = "Регистрация закрыта. В основном составе: {main}."
DRAW_DRAFT = "Черновик жеребьёвки"
DRAW_DRAFT_HINT = (
    "Жеребьёвка сразу на все туры: случайная, с наименьшим числом повторных встреч пар (Регламент §2). "
    "Игроки увидят её только после утверждения."
)
DRAW_NEEDS_CLOSING = "Жеребьёвка проводится после закрытия регистрации."
DRAW_MAKE = "Провести жеребьёвку"
DRAW_REMAKE = "Перетасовать заново"
DRAW_MADE = "Черновик готов."
DRAW_QUALITY = "Наибольшее число встреч одной пары: {max}. Повторных встреч всего: {repeats}. Зерно: {seed}."
DRAW_NO_REPEATS = "Повторных встреч нет: каждая пара встречается не больше одного раза."
DRAW_REPEATS_TITLE = "Повторные встречи"
DRAW_REPEAT_ROW = "{a} и {b}: {count}"
DRAW_TOUR = "Тур {number}"
DRAW_TABLE = "Стол"
DRAW_PLAYERS = "Игроки"
DRAW_SWAP = "Поменять местами двух игроков"
DRAW_SWAP_TOUR = "Тур для обмена"
DRAW_SWAP_FIRST = "Первый игрок"
DRAW_SWAP_SECOND = "Второй игрок"
DRAW_SWAP_BUTTON = "Поменять"
DRAW_SWAPPED = "{a} и {b} поменялись местами в туре {tour}."
DRAW_PICK = "Выберите тур и двух игроков."
DRAW_WINDOWS = "Игровые окна туров"
DRAW_WINDOWS_HINT = "Время по Кирову. Окна можно задать до утверждения и изменить позже."
DRAW_WINDOW_START = "Тур {number}: начало"
DRAW_WINDOW_END = "Тур {number}: конец"
DRAW_WINDOWS_SAVE = "Сохранить окна"
DRAW_WINDOWS_SAVED = "Игровые окна сохранены."
DRAW_CAPACITY_LABEL = "Вместят ли столы клуба туры"
DRAW_APPROVE = "Утвердить жеребьёвку"
DRAW_APPROVE_QUESTION = "Утвердить жеребьёвку?"
DRAW_APPROVE_TEXT = (
    "Будут созданы матчи всех туров, игроки увидят свои столы и соперников. После утверждения черновик не меняется."
)
DRAW_APPROVE_CONFIRM = "Утвердить"
DRAW_CANCEL = "Отмена"
DRAW_APPROVED = "Жеребьёвка утверждена {at} (Киров), зерно {seed}. Матчи туров созданы, игроки видят своих соперников."
DRAW_APPROVED_TITLE = "Утверждённая жеребьёвка"

NAV_PLAYOFF = "Плей-офф"
PLAYOFF_TITLE = "Плей-офф"
PLAYOFF_NOT_STARTED = "Плей-офф начнётся, когда организатор закроет регулярный этап: восемь лучших пройдут дальше."
PLAYOFF_SEEDS = "Посев по итогам регулярного этапа"
PLAYOFF_WAITING = "Сетка ждёт"
PLAYOFF_ROUND_1 = "1-й раунд"
PLAYOFF_UPPER = "Верхняя ветка"
PLAYOFF_LOWER = "Нижняя ветка"
PLAYOFF_FINAL = "Финал"
PLAYOFF_CHAMPION = "Чемпион лиги: {name}"
PLAYOFF_PRIZE = "{place}-е место — {name}, приз {prize} ₽"
PLAYOFF_PLACE = "Место"
PLAYOFF_PLAYER = "Игрок"
PLAYOFF_TOTAL = "Очки"
PLAYOFF_AVERAGE = "Ср. место"
PLAYOFF_OUTCOME = "Дальше"
PLAYOFF_NOT_KNOWN = "Состав определится по итогам предыдущих матчей."
PLAYOFF_WINDOW = "Окно: {window} (время Кирова)"
PLAYOFF_NO_WINDOW = "Игровое окно ещё не задано."
PLAYOFF_WINDS_SHUFFLED = "Ветра на ханчан {number} перемешаны: они показаны у стола."
PLAYOFF_CLOSE = "Закрыть регулярный этап"
PLAYOFF_CLOSE_HINT = "Восемь лучших основных участников пройдут в плей-офф; будут созданы матчи 1-го раунда."
PLAYOFF_CLOSED = "Регулярный этап закрыт, матчи 1-го раунда созданы."
PLAYOFF_CLOSE_CONFIRM_TITLE = "Закрыть регулярный этап?"
PLAYOFF_CLOSE_CANCEL = "Отмена"
PLAYOFF_CLOSE_CONFIRM = (
    "Восемь лучших основных участников пройдут в плей-офф, будут созданы матчи 1-го раунда{window}. "
    "Регулярный этап после этого не открыть, результаты его матчей больше не вносятся."
)
PLAYOFF_CLOSE_CONFIRM_WINDOW = " с игровым окном {window}"
PLAYOFF_WINDOWS = "Игровые окна раундов"
PLAYOFF_WINDOW_ROUND = "Раунд"
PLAYOFF_WINDOW_START = "Начало окна"
PLAYOFF_WINDOW_END = "Конец окна"
PLAYOFF_WINDOW_SAVE = "Сохранить окно"
PLAYOFF_WINDOW_SAVED = "Окно раунда сохранено."
PLAYOFF_WINDS = "Перемешать ветра"
PLAYOFF_MATCH_PAGE = "Страница матча: результаты и протокол"
PLAYOFF_WINDS_DRAWN = "Ханчан {number}: {winds}"
PLAYOFF_TIE = "Решение о равенстве в матче"
PLAYOFF_TIE_ORDER = "Порядок: имена через запятую, лучший первым"
PLAYOFF_TIE_REASON = "Основание решения"
PLAYOFF_TIE_SAVE = "Записать решение"
PLAYOFF_TIE_SAVED = "Решение записано."
PLAYOFF_SUBSTITUTE = "замена"

# Telegram: profile, announcements, the bot's state (Регламент §3, §6.4)
NAV_ANNOUNCEMENTS = "Объявления"
NAV_PROFILE = "Профиль"
NAV_MENU = "Меню"
PROFILE_TITLE = "Профиль"
PROFILE_TELEGRAM = "Telegram"
PROFILE_NOT_LINKED = (
    "Telegram не привязан. Это необязательно: всё согласование доступно на сайте. "
    "После привязки бот ответит на /matches и может присылать личные сообщения о ваших матчах."
)
PROFILE_GET_CODE = "Получить код привязки"
PROFILE_CODE = "Ваш одноразовый код: "
PROFILE_OPEN_BOT = "Открыть бота в Telegram"
PROFILE_NO_BOT = "Имя бота не настроено: отправьте боту в личном чате команду /start с этим кодом."
PROFILE_CODE_HINT = "Код действует 30 минут и подходит один раз."
PROFILE_LINKED = "Telegram привязан"
PROFILE_PRIVATE = "Личные сообщения о моих матчах"
PROFILE_PRIVATE_HINT = (
    "Бот напишет, когда вам предложено время, когда встреча забронирована или бронь снята; ответить — подтвердить, "
    "отказаться, «Не смогу» — можно кнопками прямо в чате."
)
PROFILE_UNLINK = "Отвязать Telegram"
PROFILE_SAVED = "Сохранено."
PROFILE_UNLINKED = "Telegram отвязан."
PROFILE_PASSWORD = "Пароль"
PROFILE_PASSWORD_CURRENT = "Текущий пароль"
PROFILE_PASSWORD_NEW = "Новый пароль"
PROFILE_PASSWORD_REPEAT = "Новый пароль ещё раз"
PROFILE_PASSWORD_HINT = (
    "Не короче {min} символов, не из одних пробелов и не ваше имя для входа. "
    "После смены все остальные входы в ваш аккаунт закроются."
)
PROFILE_PASSWORD_SUBMIT = "Сменить пароль"
PROFILE_PASSWORD_CHANGED = "Пароль изменён. Остальные входы в аккаунт закрыты."
PROFILE_CALENDAR = "Личный календарь"
PROFILE_CALENDAR_HINT = (
    "Ссылка на ваш календарь матчей для Google Календаря или телефона. Если она попала в чужие руки, "
    "сделайте новую: старая сразу перестанет работать. Сброс пароля организатором тоже отключает ссылку."
)
PROFILE_CALENDAR_NONE = "Ссылки пока нет."
PROFILE_CALENDAR_NEW = "Сделать новую ссылку"
PROFILE_CALENDAR_CREATE = "Получить ссылку"
PROFILE_CALENDAR_RENEWED = "Новая ссылка готова, старая больше не работает."
PROFILE_CALENDAR_MADE = "Ссылка готова."  # the first: there is no old one to stop
ANNOUNCEMENTS_TITLE = "Объявления"
ANNOUNCEMENTS_EMPTY = "Объявлений пока нет."
ANNOUNCEMENT_TEXT = "Текст объявления"
ANNOUNCEMENT_PUBLISH = "Опубликовать"
ANNOUNCEMENT_PUBLISHED = "Объявление опубликовано на сайте; бот отправит его в тему объявлений."
BOT_TITLE = "Telegram-бот"
BOT_CONNECTED = "Бот подключён."
BOT_DISCONNECTED = "Бот не подключён: сайт работает без него, сообщения ждут отправки."
BOT_LAST_DELIVERY = "Последняя доставка: {at}"
BOT_WAITING = "Событий ждут отправки: {count}"
BOT_LAST_ERROR = "Последняя ошибка ({at}): {error}"
BOT_NEVER = "ещё не было"
PLAYOFF_OUTCOMES = {
    "upper": "верхняя ветка",
    "lower": "нижняя ветка",
    "final": "в финал",
    "round3": "в 3-й раунд",
    "out": "выбывает",
    "champion": "чемпион",
    "second": "2-е место",
    "third": "3-е место",
    "fourth": "4-е место",
}

# Results, standings, match and player pages (issue 4)
NAV_STANDINGS = "Таблица"
STANDINGS_TITLE = "Таблица регулярного этапа"
STANDINGS_EMPTY = "Результатов пока нет."
# {places}: the season's playoff size (Регламент §1, §2: the ruleset's), «8 мест»
STANDINGS_HINT = "Таблица обновляется сама, как только внесён результат. Черта — граница выхода в плей-офф ({places})."
STANDINGS_PLACE_FORMS = ("место", "места", "мест")
STANDINGS_TIE_NOTE = "= равенство очков и среднего места: решает организатор (Регламент §4)."
COL_PLACE = "Место"
COL_PLAYER = "Игрок"
COL_TOTAL = "Очки"
COL_MATCHES = "Матчи"
COL_HANCHANS = "Ханчаны"
COL_AVERAGE = "Ср. место"
MATCH_NOT_FOUND = "Матч не найден."
CORRECT_HANCHAN = "Исправляемый ханчан"
PENALTY_CANCEL_TITLE = "Отменить штраф"
PENALTY_CANCEL_WHICH = "Какой штраф"
PENALTY_CANCEL_CHOOSE = "выберите штраф"
PENALTY_CANCEL_REASON = "Причина отмены"
PENALTY_CANCEL_SUBMIT = "Отменить штраф"
PENALTY_CANCELLED = "Штраф отменён; отмена и её причина записаны в протокол матча."
CORRECT_RIICHI = "Исправленные палочки риичи"
CORRECT_CHOOSE_FIRST = "Выберите ханчан: его нынешние очки появятся здесь, исправьте неверные."
MATCH_SEATS = "Игроки"
MATCH_HANCHANS = "Ханчаны"
MATCH_HANCHAN = "Ханчан {number}"
MATCH_RIICHI_LEFT = "палочек риичи на столе: {n}"
MATCH_DISPUTED = "оспорен"
MATCH_TOTALS = "Итог матча"
MATCH_UMA = "Ума матча"
MATCH_PENALTIES = "Штрафы"
MATCH_PENALTY_COL = "Штраф"
MATCH_PROTOCOL = "Протокол"
MATCH_RULINGS = "Решения судьи"
MATCH_NO_HANCHANS = "Ханчаны ещё не внесены."
MATCH_ARCHIVED = "Сезон этого матча завершён: протокол только для чтения."
ENTER_TITLE = "Внести ханчан {number}"
ENTER_HINT = "Очки — как на столе в конце ханчана, без палочек риичи. Сумма с палочками должна быть {total}."
ENTER_NEEDS_SUBSTITUTE = (
    "Результат вносится после технической замены (Регламент §6.1): участие в сезоне прекращено — "  # + names, "."
)
ENTER_REASON = "Причина внесения вне встречи"
ENTER_RIICHI = "Палочек риичи осталось на столе"
ENTER_SUBMIT = "Сохранить результат"
ENTER_SAVED = "Результат ханчана сохранён."
ENTER_DONE = "Все ханчаны матча внесены."
DISPUTE_TITLE = "Оспорить результат"
DISPUTE_HANCHAN = "Номер ханчана"
DISPUTE_NOTE = "Что не так"
DISPUTE_SUBMIT = "Оспорить"
DISPUTE_SAVED = "Результат отмечен как спорный: организатор рассмотрит его."
ORG_TITLE = "Действия организатора"
CORRECT_TITLE = "Исправление или переигровка ханчана"
CORRECT_REPLAY = "Это переигровка"
CORRECT_REASON = "Причина"
CORRECT_DECISION = "Решение"
CORRECT_SUBMIT = "Записать исправление"
CORRECT_SAVED = "Исправление записано; исходный результат сохранён в протоколе."
RESOLVE_TITLE = "Оставить результат (спор рассмотрен)"
RESOLVE_SUBMIT = "Записать решение по спору"
RESOLVE_SAVED = "Решение по спору записано."
NO_SHOW_TITLE = "Неявка без предупреждения (Регламент §5): предупреждение и −{penalty}"
NO_SHOW_SUBMIT = "Назначить штраф за неявку"
NO_SHOW_CONFIRM_TITLE = "Записать неявку: {name}?"
NO_SHOW_CONFIRM_TEXT = (
    "Игрок получит предупреждение и штраф −{penalty} очков к итогу этого матча (Регламент §5). "
    "Отменить штраф можно только с указанием причины, и отмена останется в протоколе."
)
NO_SHOW_CONFIRM = "Записать неявку и штраф"
NO_SHOW_CANCEL = "Отмена"
CONDUCT_TITLE = "Штраф за поведение (Регламент §6.3)"
CONDUCT_AMOUNT = "Размер штрафа, очков (0 — предупреждение)"
CONDUCT_VIOLATION = "Нарушение"
CONDUCT_BASIS = "Основание"
CONDUCT_SUBMIT = "Назначить штраф"
CONDUCT_EMA_NOTE = (
    "Подсказка по лестнице санкций EMA (разъяснение, §3.1), в очках МКР; нарушение, размер и основание "
    "определяет организатор (Регламент §6.3)."
)
PENALTY_SAVED = "Штраф записан в протокол матча."
PENALTY_PLAYER = "Игрок"
RULING_TITLE = "Решение судьи (Регламент §6.2)"
RULING_HANCHAN = "Номер ханчана (если есть)"
RULING_ACTIONS = "Последовательность действий"
RULING_DISAGREEMENT = "Суть разногласия"
RULING_DECISION = "Решение"
RULING_SUBMIT = "Записать решение судьи"
RULING_SAVED = "Решение судьи записано."
RULING_PHOTOS = "Фотографии (при необходимости)"
RULING_PHOTOS_HINT = (
    "До 5 фотографий JPEG, PNG, WebP или HEIC, каждая до 10 МБ. Перетащите сюда или нажмите, чтобы выбрать."
)
RULING_PHOTOS_REJECTED = "Не принято (нужна фотография JPEG, PNG, WebP или HEIC до 10 МБ, не больше 5 файлов): {names}"
RULING_PHOTOS_COL = "Фото"
RULING_PHOTO_ALT = "Фотография к решению судьи"
REPLAY_TITLE = "Переигровка матча (Регламент §6.1)"
REPLAY_SUBMIT = "Назначить переигровку матча"
REPLAY_SAVED = "Переигровка назначена: новый матч № {id}."
SUB_TITLE = "Техническая замена (Регламент §6.1)"
SUB_HINT = "Замена только комплектует стол: она есть в результатах матча, но не в общем зачёте."
SUB_REPLACED = "Кого заменяют"
SUB_FROM_ROSTER = "Замена из списка"
SUB_NEW_NAME = "Или новый игрок: имя"
SUB_REASON = "Причина замены"
SUB_SUBMIT = "Посадить замену"
SUB_SAVED = "Замена посажена за стол; записано в протокол матча."
TIE_TITLE = "Решение организатора по равенству (Регламент §4)"
TIE_PLACE = "Равенство на месте {place}"
TIE_POSITION = "Место {n} в группе"
TIE_REASON = "Основание решения"
TIE_SUBMIT = "Записать решение"
TIE_SAVED = "Решение записано: равенство разрешено."
PLAYER_NOT_FOUND = "Игрок не найден."
PLAYER_MATCHES = "Матчи"
PLAYER_CHART = "Сумма очков после каждого тура — рядом с лидерами"
PLAYER_NO_MATCHES = "Сыгранных матчей пока нет."
NAV_PANTHEON = "Pantheon"
PANTHEON_TITLE = "Импорт из Pantheon"
PANTHEON_INTRO = "Ханчаны лиги записываются в Pantheon (Регламент §6.2); импорт вносит их в матчи, зачёт считает лига."
PANTHEON_SETTINGS = "Событие в Pantheon"
PANTHEON_URL = "Адрес API Pantheon"
PANTHEON_EVENT = "Номер события"
PANTHEON_ADMIN_ID = "Id администратора (необязательно)"
PANTHEON_ADMIN_TOKEN = "Токен администратора (необязательно)"
PANTHEON_TOKEN_SET = "Токен администратора сохранён (только для этого адреса)."
PANTHEON_TOKEN_DROPPED = (
    "Настройки сохранены. Адрес API изменился, поэтому токен администратора удалён: "
    "он не отправляется на другой адрес. Введите его снова, если нужен импорт штрафов."
)
PANTHEON_SAVE = "Сохранить"
PANTHEON_SAVED = "Настройки Pantheon сохранены."
PANTHEON_MAPPING = "Игроки события"
PANTHEON_FETCHING = "Загружаем список игроков события из Pantheon…"
PANTHEON_PERSON = "Игрок в Pantheon"
PANTHEON_LEAGUE_PLAYER = "Игрок лиги"
PANTHEON_SUGGESTED = "Предложение"
PANTHEON_ACCEPT = "Подтвердить"
PANTHEON_MAP = "Сопоставить"
PANTHEON_UNMAPPED = "Не сопоставлено игроков: {n}"
PANTHEON_NOT_MAPPED = "не сопоставлен"
PANTHEON_MAPPED = "Сопоставление сохранено."
PANTHEON_IMPORT = "Импортировать из Pantheon"
PANTHEON_RUNNING = "Импорт идёт… прочитано игр: {read}"
PANTHEON_DECISIONS = "Игры, требующие решения"
PANTHEON_NO_DECISIONS = "Все игры размещены."
PANTHEON_ENDED = "Окончена"
PANTHEON_REASON = "Причина"
PANTHEON_RESULT = "Результат"
PANTHEON_MATCH = "Матч"
PANTHEON_ASSIGN = "Внести в матч"
PANTHEON_IGNORE = "Пропустить"
PANTHEON_ASSIGNED = "Игра внесена в матч."
PANTHEON_IGNORED = "Игра пропущена; решение записано."
PANTHEON_STATUS = {"pending": "ждёт решения", "assigned": "внесена вручную", "ignored": "пропущена"}
PANTHEON_NO_SETTINGS = "Укажите адрес API и номер события, чтобы увидеть игроков и импортировать игры."

# --- withdrawal and replays on the roster page (Регламент §6.1) ---
# {who}: ROSTER_WITHDRAWN_WHO in the person's gender
ROSTER_WITHDRAWN = "{who} из зачёта и борьбы за плей-офф; сыгранные протоколы сохранены."
ROSTER_WITHDRAWN_WHO = {
    "m": "Участник снят: исключён",
    "f": "Участница снята: исключена",
    "": "Участник снят: исключён",
}
ROSTER_REPLAY = "Переигровка после раннего снятия"
ROSTER_REPLAY_HINT = (
    "В исключительном случае снятия на очень раннем этапе организатор может назначить переигровку затронутых "
    "сыгранных матчей, если все их участники согласны. Результаты переигровки заменят прежние (Регламент §6.1)."
)
ROSTER_REPLAY_MATCH = "Сыгранный матч снятого участника"
ROSTER_REPLAY_AGREED = "Все участники матча согласны на переигровку"
ROSTER_REPLAY_REASON = "Основание переигровки"
ROSTER_REPLAY_BUTTON = "Назначить переигровку"
ROSTER_REPLAY_DONE = "Переигровка назначена: {title}."

# --- Issue 14: the player's week on a phone (home to-do list, live pages, result forms, phone layout) ---
HOME_OPPONENTS = "Соперники: "
HOME_STATE = "Состояние: "
HOME_YOUR_MOVE = "Ваш ход: "
HOME_AWAITING = "Ждут вашего действия: "
HOME_PAST = "Прошедшие туры"
HOME_LATER = "Следующие туры"
HOME_SCHEDULE_LINK = "Согласование времени"
HOME_MATCH_LINK = "Страница матча: результаты"
HOME_CALENDAR_LINK = "Календарь и ссылка для своего календаря"
CALENDAR_MATCH_LINK = "страница матча"
MATCH_SCHEDULE_LINK = "Согласование времени этого матча"
MESSAGE_CLOSE = "Закрыть"
ENTER_REPEAT = "Да, те же очки ещё раз (ханчан действительно сыгран с таким же счётом)"
ENTER_POINTS_HINT = "Очки — целые, кратные 100; минус можно ввести с клавиатуры телефона."
NOT_FOUND_TITLE = "Страница не найдена"
NOT_FOUND_TEXT = "Такой страницы нет. Проверьте адрес или вернитесь к своим матчам."
NOT_FOUND_HOME = "К моим матчам"
SCHEDULE_PAGE_TITLE = "Согласование времени"
MATCH_PAGE_TITLE = "Матч"
PLAYER_PAGE_TITLE = "Игрок"
TABLE_SCROLL_HINT = "Таблица шире экрана: прокрутите её вбок →"
STANDINGS_MINE = "Ваша строка выделена."
NOTIFICATIONS_LABEL = "Уведомления"
CONNECTION_LOST = "Нет связи с сервером: переподключаемся… Изменения, сделанные сейчас, могут не сохраниться."

# --- the organizer's desk and the organizer's forms (issue 15) ---
NAV_DESK = "Стол организатора"
NAV_DESK_JUDGE = "Стол судьи"  # the same desk, as the judge sees it (their groups only)
DESK_TITLE = "Стол организатора"
DESK_TITLE_JUDGE = "Стол судьи"
DESK_EMPTY_TITLE = "Решать нечего"
DESK_EMPTY_TEXT = "Споров, просроченных окон, матчей без общего времени и других открытых вопросов нет."
DESK_INTRO = "Всё, что ждёт решения: страница обновляется сама, решённое исчезает."
DESK_COUNT = "Открытых вопросов: {count}"
DESK_FOLDED_OPEN = " — показать все"  # after a folded group's «Столов может не хватить · 4»
DESK_REASON = "Уважительная причина"
DESK_DECISION = "Решение по спору"
DESK_DONE = "Готово: {title}."
DESK_LOCK_LIFTED = "Вход открыт: {title}. С нового устройства теперь можно войти сразу."
HOME_STAFF_DESK = "Открытые вопросы лиги — на странице «{desk}»."
HOME_STAFF_NO_MATCHES = (
    "Жеребьёвка утверждена: матчи и их состояние — на страницах «Согласование» и «Стол организатора»."
)
CHOOSE_MATCH = "выберите матч"
CHOOSE_HANCHAN = "выберите ханчан"
CHOOSE_PLAYER = "выберите игрока"
CHOOSE_BOOKING = "выберите бронь"
CHOOSE_ROOM = "выберите помещение"
ROSTER_NOT_FOUR = (
    "В основном составе {main}: он должен быть кратен {multiple} (Регламент §1). "
    "Переведите лишних в резерв или доберите."
)
ROSTER_DEFAULT_RESERVE = "Статус: резерв (жеребьёвка уже утверждена)"
ROSTER_DEFAULT_MAIN = "Статус: основной состав"
ROSTER_RESET_CONFIRM_TITLE = "Выдать новый пароль для {name}?"  # the name in the genitive (wording.declined)
ROSTER_RESET_CONFIRM_TEXT = "Старый пароль сразу перестанет работать; новый будет показан один раз."
ROSTER_RESET_CONFIRM = "Выдать новый пароль"
ROSTER_WITHDRAW_CONFIRM_TITLE = "Снять {name} с сезона?"  # the name in the accusative (wording.declined)
ROSTER_WITHDRAW_CONFIRM_TEXT = (
    "{who} из зачёта и из борьбы за плей-офф (Регламент §6.1); сыгранные протоколы сохранятся. "
    "Переиграть уже сыгранные матчи можно после снятия, только с согласия всех участников."
)
# Agreed with the person's name (services.core.wording.gender); a name that does not tell takes the neutral one.
ROSTER_WITHDRAW_WHO = {"m": "Он будет исключён", "f": "Она будет исключена", "": "Участник будет исключён"}
ROSTER_WITHDRAW_CONFIRM = "Снять участника"
ROSTER_WITHDRAW_CANCEL = "Отмена"
ROSTER_RESET_CANCEL = "Отмена"
PANTHEON_NOTHING_READ = "Из Pantheon ещё ничего не прочитано: нажмите «Импортировать из Pantheon»."
FORBIDDEN_STAFF = "Эта страница доступна организатору и судье."
CHOOSE_JUDGE = "выберите судью"
CHOOSE_ROUND = "выберите тур"
DESK_ASSIGNED = "судья назначен"
DESK_ASSIGN_TITLE = "Назначить судью (Регламент §6.3): на матч, на день или на тур — вызов сначала придёт ему"
DESK_JUDGE = "Судья"
DESK_ASSIGN_MATCH = "Матч"
DESK_ASSIGN_ROUND = "Тур"
DESK_ASSIGN_DAY = "День"
DESK_ASSIGN_SUBMIT = "Назначить судью"
DESK_RULING_ACTIONS = "Последовательность действий"
DESK_RULING_DISAGREEMENT = "Суть разногласия"
DESK_RULING_DECISION = "Решение судьи"
JUDGE_CALL_TITLE = "Позвать судью (Регламент §6.2)"
JUDGE_CALL_HINT = "Во время встречи: игру остановите и сохраните состояние стола. Судья получит вызов сразу."
JUDGE_CALL_HANCHAN = "Ханчан"
JUDGE_CALL_DESCRIPTION = "Что произошло (коротко)"
JUDGE_CALL_SUBMIT = "Позвать судью"
JUDGE_CALL_SENT = "Судья вызван: вызов уже на его странице и в Telegram, если он подключён."

# --- seasons, history, fee, disqualifications, the regulation (issue 17; Регламент §1, §5, §7) ---
NAV_SEASONS = "Сезоны"
SEASONS_TITLE = "Сезоны лиги"
SEASON_ADMIN_TITLE = "Управление сезоном"
SEASON_ADMIN_LINK = "Управление сезоном: новый сезон, состав из CSV, завершение"
SEASON_CURRENT = "Текущий сезон: «{name}» — {status}."
SEASON_STATUS_REGISTRATION = "идёт регистрация"
SEASON_STATUS_CLOSED = "регистрация закрыта, ждёт жеребьёвки"
SEASON_STATUS_RUNNING = "идёт"
SEASON_STATUS_FINISHED = "завершён {date}"
SEASON_DATES = "Регистрация: {opens} — {closes}."
SEASON_NEW = "Новый сезон"
SEASON_NEW_HINT = (
    "Новый сезон станет текущим и начнётся пустым; залы клуба сохраняются, прошлые сезоны остаются в истории."
)
SEASON_NAME = "Название сезона"
SEASON_OPENS = "Регистрация открывается"
SEASON_CLOSES = "Регистрация закрывается"
SEASON_CREATE = "Начать сезон"
SEASON_DATES_TITLE = "Даты регистрации текущего сезона"
SEASON_DATES_OPENS = "Открывается"
SEASON_DATES_CLOSES = "Закрывается"
SEASON_DATES_SUBMIT = "Сохранить даты"
SEASON_DATES_SAVED = "Даты регистрации сохранены."
SEASON_CREATED = "Сезон «{name}» начат и стал текущим."
SEASON_BAD_DATE = "Дата «{value}» не распознана: выберите её в календаре."
SEASON_COPY = "Перенести состав прошлого сезона "
SEASON_COPY_HINT = (
    "Игроки прошлого сезона (кроме снятых) войдут со своими прежними паролями; взнос отмечается отдельно."
)
SEASON_COPIED = "Перенесено игроков: {count}."
SEASON_NOT_COPIED = "Не перенесён: {reason}"
SEASON_CSV = "Состав из CSV-файла регистрации"
SEASON_CSV_HINT = (
    "Три столбца: имя, контакт, взнос оплачен («да», «нет» или дата оплаты); разделитель — запятая или точка с "
    "запятой, первая строка может быть заголовком. Сначала проверьте файл: предпросмотр скажет, чем станет каждая "
    "строка; отклонённые строки не импортируются."
)
SEASON_CSV_PICK = "Перетащите CSV-файл сюда или нажмите, чтобы выбрать"
SEASON_CSV_CHECK = "Проверить файл"
SEASON_CSV_IMPORT = "Импортировать принятые строки"
SEASON_CSV_NONE = "Выберите CSV-файл."
SEASON_CSV_UNREADABLE = "Файл не прочитан как текст UTF-8 или Windows-1251."
SEASON_CSV_EMPTY = "В файле нет ни одной строки с игроком."
SEASON_CSV_SUMMARY = "Строк принято: {accepted}, отклонено: {refused}."
SEASON_CSV_DONE = (
    "Импортировано игроков: {count}. Пароли новых игроков показаны один раз и скачаны листом для печати — "
    "передайте их лично."
)
SEASON_CSV_CHANGED = "Выбран не тот файл, что проверен: нажмите «Проверить файл» ещё раз."
SEASON_REISSUE = "Пароли, которыми ещё не входили"
SEASON_REISSUE_HINT = (
    "Если лист с паролями потерян: новые пароли всем игрокам сезона, которые ещё ни разу не вошли, и лист для "
    "печати с ними. Прежние пароли этих игроков перестанут действовать. Лист нигде не хранится."
)
SEASON_REISSUE_BUTTON = "Выдать заново и скачать лист"
SEASON_REISSUE_NONE = "Все игроки сезона уже входили со своими паролями: выдавать нечего."
SEASON_REISSUE_DONE = "Выданы новые пароли: {count}. Лист для печати скачан; пароли показаны один раз."
SEASON_CSV_LINE = "Строка"
SEASON_CSV_WHO = "Игрок"
SEASON_CSV_FEE = "Взнос"
SEASON_CSV_OUTCOME = "Чем станет"
SEASON_FINISH = "Завершить сезон"
SEASON_FINISH_HINT = "Сезон завершается после финала: он останется текущим и читаемым, пока не начнётся новый."
SEASON_FINISHED = "Сезон «{name}» завершён."
SEASON_GO_ROSTER = "Состав и пароли"
SEASON_GO_DRAW = "Закрытие регистрации и жеребьёвка"
SEASONS_HINT = (
    "Текущий и прошлые сезоны: итоговая таблица, сетка плей-офф, матчи и протоколы остаются доступны для чтения."
)
SEASONS_CURRENT_BADGE = "текущий"
SEASONS_CHAMPION = "Чемпион: {name}"
SEASONS_NO_CHAMPION = "Финал ещё не сыгран."
SEASONS_TOP = "Первая восьмёрка"
SEASONS_OPEN = "Открыть сезон"
SEASON_RECORD_STANDINGS = "Итоговая таблица"
SEASON_RECORD_PLAYOFF = "Плей-офф"
SEASON_RECORD_NO_PLAYOFF = "Плей-офф в этом сезоне не проводился или ещё не начат."
SEASON_RECORD_MATCHES = "Матчи и протоколы"
SEASON_RECORD_NO_MATCHES = "Матчей в этом сезоне нет."
SEASON_RECORD_READONLY = "Архив сезона: только для чтения."
SEASON_RECORD_RUNNING = "Сезон идёт: таблица и матчи обновляются по ходу."
SEASON_RECORD_STANDINGS_NOW = "Таблица на сегодня"
SEASON_RECORD_MISSING = "Такого сезона нет."
PLAYER_SEASONS = "Сезоны игрока"
PLAYER_SEASONS_PLACE = "Место"
PLAYER_SEASONS_TOTAL = "Очки"
PLAYER_SEASONS_MATCHES = "Матчей"
ROSTER_FEE = "Взнос"
FEE_TITLE = "Регистрационный взнос"
FEE_HINT = "Видит только организатор (Регламент §1)."
FEE_ACTION = "Что произошло"
FEE_DATE = "Дата"
FEE_SAVE = "Записать"
FEE_SAVED = "Взнос: {name} — {label}."
FEE_ACTIONS = {"paid": "Оплачен", "refunded": "Возвращён", "unpaid": "Не оплачен (исправить ошибку)"}
DQ_TITLE = "Дисквалификации"
DQ_LINK = "Реестр дисквалификаций"
DQ_HINT = (
    "Регламент §5: за отказ продолжать игру или саботаж — дисквалификация на год или пожизненно. Дисквалифицированного "
    "нельзя внести в состав сезона, пока срок не истёк. Реестр видят организатор и судья."
)
DQ_FORBIDDEN = "Реестр дисквалификаций видят только организатор и судья."
DQ_PERSON = "Игрок"
DQ_TERM = "Срок"
DQ_TERMS = {"year": "На год", "permanent": "Пожизненно"}
DQ_REASON = "Причина"
DQ_MATCH = "Протокол матча (номер)"
DQ_STARTS = "С какого дня"
DQ_SAVE = "Записать дисквалификацию"
DQ_SAVED = "Дисквалификация записана: {name}."
DQ_EMPTY = "Реестр пуст."
DQ_UNTIL_PERMANENT = "пожизненно"
DQ_UNTIL = "до {date}"
DQ_PROTOCOL = "протокол"
DQ_BAD_MATCH = "Номер матча — целое число."
DQ_PICK = "Выберите игрока."
NAV_REGULATION = "Регламент"
REGULATION_TITLE = "Регламент лиги"
REGULATION_HINT = (
    "Изменения регламента вступают в силу после объявления участникам в официальных каналах лиги (Регламент §7)."
)
REGULATION_NONE = "Регламент ещё не опубликован."
REGULATION_VERSION = "Редакция от {date}: {reason}"
REGULATION_ON_DATE = "Редакция, действовавшая на дату"
REGULATION_SHOW = "Показать"
REGULATION_NONE_ON_DATE = "На {date} регламент ещё не был опубликован."
REGULATION_PICK_DATE = "Выберите дату в календаре."
REGULATION_HISTORY = "Изменения"
REGULATION_EDIT = "Опубликовать изменение"
REGULATION_EDIT_HINT = (
    "Исправьте текст и укажите, что и почему изменено. Изменение вступит в силу сразу после публикации: оно будет "
    "объявлено на сайте и в Telegram-теме объявлений."
)
REGULATION_TEXT = "Текст регламента"
REGULATION_REASON = "Что и почему изменено"
REGULATION_FILE = "Или загрузите текстовый файл (.txt, UTF-8) — он заменит текст в поле"
REGULATION_PUBLISHED = "Изменение опубликовано и объявлено."
REGULATION_SHOWN = "Текст редакции"
RULES_TITLE = "Правила сезона"
RULES_EDIT_FREE = "Результатов в сезоне ещё нет: правила меняются свободно."
RULES_EDIT_AMENDMENT = (
    "В сезоне уже есть результаты: изменение — поправка к регламенту (Регламент §6.3, §7). Сначала посмотрите, "
    "что оно изменит; затем укажите причину — поправка будет объявлена, таблица пересчитана."
)
RULES_SHOW_CHANGE = "Показать, что изменится"
RULES_PREVIEW = "Что изменится"
RULES_AMENDMENT_HINT = "Таблица регулярного этапа: место · очки сейчас и после изменения."
RULES_SHIFT = "Таблица до и после изменения"
RULES_BEFORE = "Сейчас"
RULES_AFTER = "После изменения"
RULES_REASON = "Причина изменения"
RULES_APPLY = "Записать изменение"
RULES_CANCEL = "Отменить"
RULES_UNCHANGED = "Правила не изменились."
RULES_PREVIEW_FIRST = "Сначала посмотрите, что изменится."
RULES_SAVED = "Правила сезона сохранены."
RULES_AMENDMENT_SAVED = "Поправка записана и объявлена; таблица пересчитана."
RULES_HISTORY = "Изменения правил сезона"
RULES_CHANGE_LABEL = "{date} — {kind}: {reason}"
RULES_AMENDED = "поправка"
RULES_SET = "до первого результата"

# /schedule: how long a new proposal holds its table (issue 27 item 6).
# {hours}: the season's ruleset's proposal hold
HOLD_HOURS_NOW = "Предложение держит стол {hours} ч, пока все четверо не подтвердят."
HOLD_HOURS_WHERE = "Изменить в правилах сезона"

# --- staff: the judge and the experts made on the site (issue 28 item 1) ---
STAFF_TITLE = "Судьи и эксперты"
STAFF_HINT = (
    "Регламент §1: главный судья лиги и эксперты для спорных случаев. Новому человеку выдаётся пароль — он показан "
    "один раз; роль можно сменить или снять (человек останется игроком)."
)
STAFF_ADD_TITLE = "Добавить судью или эксперта"
STAFF_NAME = "Имя и фамилия"
STAFF_ROLE = "Роль"
STAFF_ROLE_PICK = "Выберите роль"
STAFF_ADD = "Добавить"
STAFF_ADDED = "{added}: {name}."
STAFF_ADDED_WORDS = ("Добавлен", "Добавлена")  # wording.agreed with the new member's name
STAFF_NEW_ROLE = "Новая роль"
STAFF_ROLE_SAVE = "Сменить роль"
STAFF_ROLE_SET = "{name}: теперь {role}."
STAFF_EMPTY = "Судей и экспертов пока нет."
STAFF_TELEGRAM_YES = "Telegram привязан"
STAFF_TELEGRAM_NO = "Telegram не привязан"
STAFF_SHEET = "Судьи и эксперты лиги"
CHECKLIST_TITLE = "Подготовка сезона"
CHECKLIST_OF = " из "
CHECKLIST_DONE = ": готово"
CHECKLIST_MISSING = ": не готово"
# --- desk and ties on the guarded action (issue 24 item 2, issue 25 items 1–2) ---
TIE_PICK_EVERY_PLACE = "Выберите игрока на каждое место группы."
TIE_NO_SEASON = "Сезон не найден."

# --- match scheduling page (issue 24 item 5: its texts, moved from match_schedule_state.py) ---
SCHED_ANSWERED = "Кто ответил"
SCHED_OPTIONS = "Общие варианты"
SCHED_NO_OPTIONS = "Общих вариантов пока нет: ждём ответов всех четырёх."
SCHED_WINDOW_OVER_NO_OPTIONS = "Окно закончилось: новых вариантов нет, дальше решает организатор."
SCHED_NO_COMMON_TIME = (
    "Все четверо ответили, но общего свободного времени нет: матч ждёт доступности. Добавьте свободное время в "
    "свою доступность и сохраните."
)
SCHED_NO_FREE_TABLE = (
    "Общее свободное время у четверых есть, но все столы клуба в это время заняты или удерживаются за другими "
    "матчами: встречу назначит организатор. Можно и отметить другое свободное время."
)
SCHED_ALL_BOOKED = (
    "Все ханчаны матча забронированы или сыграны: новое время не нужно. Не сможете прийти — нажмите «Не смогу» "
    "у брони, и время согласуется заново."
)
SCHED_PROPOSE = "Предложить встречу"
SCHED_START = "Начало"
SCHED_END = "Окончание"
SCHED_HANCHANS = "Ханчанов"
SCHED_REPLACES = "Перенос брони"
SCHED_NEW_MEETING = "новая встреча"
SCHED_PROPOSALS = "Предложения"
SCHED_NO_PROPOSALS = "Предложений пока нет."
SCHED_CONFIRM = "Подтвердить"
SCHED_DECLINE = "Отклонить"
SCHED_BOOKINGS = "Бронь"
SCHED_NO_BOOKINGS = "Пока не забронировано."
SCHED_PART_BOOKED = "{settled}: предложите время для оставшихся ({remaining})."
SCHED_SAVE = "Сохранить доступность"
SCHED_SAVED = "Доступность сохранена."
SCHED_UNSAVED = "Есть несохранённые изменения."
SCHED_GRID_HINT = (
    "Отметьте своё время (по Кирову). Сначала выберите, что отмечать: «Свободен», «Если нужно» или «Стереть». "
    "Мышью — проведите по клеткам. На телефоне — коснитесь первой клетки промежутка, затем последней: все клетки "
    "между ними станут такими, как выбрано. Прокрутка пальцем ничего не отмечает."
)
SCHED_PICK = "Выбрать"
SCHED_EVERYONE = "Доступность игроков (видит только организатор)"
SCHED_PROPOSED = "Предложение отправлено, ваше подтверждение учтено: ждём остальных."
SCHED_CONFIRMED = "Подтверждение записано."
SCHED_PROPOSAL_NOW = "Ваше предложение: {status}."  # the read model's word for it now (забронировано, отклонено …)
SCHED_BOOKED = "Все четверо подтвердили: помещение забронировано."
SCHED_DECLINED = "Вы отклонили предложение."
SCHED_DECLINE_TITLE = "Отклонить предложение?"
SCHED_DECLINE_TEXT = "Предложение перестанет действовать для всех четверых: время придётся предложить заново."
SCHED_DECLINE_BACK = "Назад"
SCHED_RELEASE_TITLE = "Снять бронь?"
SCHED_RELEASE_WARNING = (
    "Встреча {when} больше не входит в вашу доступность. Если сохранить, бронь помещения будет снята, "
    "остальные трое сразу увидят это на сайте и получат сообщение бота, и встречу придётся подтверждать заново."
)
SCHED_RELEASE_OK = "Сохранить и снять бронь"
SCHED_RELEASE_CANCEL = "Не сохранять"
SCHED_CANNOT = "Не смогу"
SCHED_CANNOT_TITLE = "Не сможете прийти?"
SCHED_CANNOT_TEXT = (
    "Бронь помещения будет снята сразу, остальные трое увидят это на сайте и получат сообщение бота; "
    "время придётся согласовать заново."
)
SCHED_CANNOT_OK = "Снять бронь"
# Регламент §5, §6.1, §6.3: on the binding fallback «Не смогу» warns the organizer, who decides; the booking stays.
SCHED_CANNOT_BINDING_TEXT = (
    "Это запасная дата: время обязательно для участников (Регламент §6.1), бронь не снимется. Организатор получит "
    "ваше предупреждение и решит — перенести матч, посадить замену или оставить время."
)
SCHED_CANNOT_WARN = "Предупредить организатора"
SCHED_CANNOT_BACK = "Я приду"
SCHED_CANNOT_FREE = "Убрать это время из моей доступности"
SCHED_CANNOT_DONE = (
    "Бронь снята: остальные игроки уже видят это. Снимите это время в своей доступности и сохраните, "
    "чтобы его не предлагали снова, и согласуйте другое."
)
SCHED_CANNOT_DONE_FREED = (
    "Бронь снята: остальные игроки уже видят это. Это время убрано из вашей доступности — согласуйте другое."
)
SCHED_COPY = "Скопировать моё время из прошлого тура"
SCHED_COPIED = "Отмечено ваше свободное время из матча «{title}» (по тем же дням недели): проверьте и сохраните."
SCHED_NOTHING_TO_COPY = "В прошлых турах вы не отмечали свободное время: копировать нечего."
SCHED_MATCH_PAGE = "Страница матча: результаты, протокол"
# --- overview: /schedule and /pantheon on the guarded action ---
SCHEDULE_DIALOG_GONE = "Это действие больше не открыто: обновите страницу и выберите матч снова."
SCHEDULE_TABLES_WHOLE = "Число столов — целое от 1 до {most}."
SCHEDULE_CANCEL = "Отмена"
# Регламент §3, §6.3: the organizer may take a table another match's proposal holds, asked first (issue 43 item 3)
SCHEDULE_OVERRULE_ASK = (
    "Других свободных столов в это время нет. Стол удерживает предложение: {holds}. Если назначить, это предложение "
    "будет снято, а его игроки узнают причину."
)
SCHEDULE_OVERRULE_ASK_MANY = (
    "Других свободных столов в это время нет. Столы удерживают предложения: {holds}. Если назначить, эти "
    "предложения будут сняты, а их игроки узнают причину."
)
SCHEDULE_OVERRULE_CONFIRM = "Снять удержание и назначить"


def overrule_question(held: list[str]) -> str:
    """The question before an action that would end other matches' holds (none: no question)."""
    if not held:
        return ""
    ask = SCHEDULE_OVERRULE_ASK if len(held) == 1 else SCHEDULE_OVERRULE_ASK_MANY
    return ask.format(holds="; ".join(held))


PANTHEON_PICK_MATCH = "Выберите матч."
# --- full-season: /seasons/manage and /playoff guarded; finishing and re-issuing ask first (issue 25) ---
SEASON_FINISH_CONFIRM_TITLE = "Завершить сезон?"
SEASON_FINISH_CONFIRM = (
    "Сезон «{season}» закончится: чемпион — {champion} (места финала: {podium}). Итоговая таблица, сетка "
    "плей-офф и протоколы матчей будут заморожены — результаты, штрафы и решения этого сезона больше не вносятся и "
    "не исправляются. Сезон останется текущим и открытым для чтения; следующий шаг — «Начать сезон» ниже: новый "
    "сезон станет текущим, а этот уйдёт в архив на странице «Сезоны». Отменить завершение нельзя."
)
SEASON_FINISH_CANCEL = "Отмена"
SEASON_REISSUE_CONFIRM_TITLE = "Выдать заново {count}?"
SEASON_REISSUE_CONFIRM_TEXT = (
    "У {count} сезона пароли, которыми ещё ни разу не входили: им будут выданы новые, прежние перестанут "
    "действовать сразу. Новые пароли покажутся один раз и скачаются листом для печати."
)
SEASON_REISSUE_CONFIRM = "Выдать заново"
SEASON_REISSUE_CANCEL = "Отмена"
SEASON_COPY_BUTTON = "Перенести состав"
# --- draw, roster and rules on the guarded helper (issue 24 item 2, issue 25 item 4) ---
DRAW_PICK_CLOSING = "Этот способ закрыть регистрацию сейчас недоступен: обновите страницу."
DRAW_CLOSE_ASK_TITLE = "Закрыть регистрацию?"
DRAW_CLOSE_ASK_AS_IS = "Никто не переходит между основным составом и резервом."
DRAW_CLOSE_ASK_FROM_RESERVE = "Из резерва в основной состав перейдут: {names}."
DRAW_CLOSE_ASK_TO_RESERVE = "Из основного состава в резерв перейдут: {names}."
DRAW_CLOSE_ASK_MAIN = "Основной состав ({main}): {names}. После закрытия регистрации можно провести жеребьёвку."
DRAW_CLOSE_CONFIRM = "Закрыть регистрацию"
DRAW_CLOSE_CANCEL = "Отмена"
ROSTER_DELETE = "Удалить строку"
ROSTER_DELETE_CONFIRM_TITLE = "Удалить {name} из состава сезона?"  # the name in the accusative (wording.declined)
ROSTER_DELETE_CONFIRM_TEXT = (
    "Строка состава и запись о регистрации будут удалены (действие записывается в журнал); учётная запись "
    "человека останется. Игрока, у которого уже есть матч, удалить нельзя — его можно только снять."
)
ROSTER_DELETE_CONFIRM = "Удалить строку"
ROSTER_DELETE_CANCEL = "Отмена"
ROSTER_DELETED = "Строка «{name}» удалена из состава."
ROSTER_PASSWORD_RESET_DONE = "Новый пароль выдан."

# --- the season from zero (issue 28, the lead) ---
ROSTER_CSV_LINK = "Весь состав сразу — из CSV-файла регистрации (управление сезоном)"
# --- moved from the pages (issue 24 item 5) ---
# /schedule, the organizer's scheduling overview (pages/scheduling/schedule_overview*.py)
SCHEDULE_TITLE = "Согласование матчей"
SCHEDULE_COL_MATCH = "Матч"
SCHEDULE_COL_PLAYERS = "Игроки"
SCHEDULE_COL_WINDOW = "Окно"
SCHEDULE_COL_STATE = "Состояние"
SCHEDULE_COL_BOOKING = "Бронь"
SCHEDULE_COL_FALLBACK = "Запасная дата (§6.1)"
SCHEDULE_COL_ACTIONS = "Действия"
SCHEDULE_TOUR_FILTER = "Тур"
SCHEDULE_TOUR_FILTER_ALL = "все туры"
SCHEDULE_STATE_FILTER = "Состояние матчей"
SCHEDULE_STATE_FILTERS = (
    ("all", "все"),
    ("open", "согласуются"),
    ("over", "окно закончилось"),
    ("booked", "забронированы"),
    ("played", "сыграны"),
)
SCHEDULE_APPLY_FALLBACK = "Назначить запасную дату"
SCHEDULE_ASSIGN = "Назначить встречу"
SCHEDULE_MOVE = "Перенести бронь"
SCHEDULE_NEXT_WINDOW = "Перенести матч на следующий тур"
SCHEDULE_RELEASE = "Снять бронь"
SCHEDULE_DONE = "Готово."
SCHEDULE_MOVED_TO_TOUR = ": перенесён в тур {code}{window}."
SCHEDULE_KIROV_SUFFIX = " (Киров)"
SCHEDULE_REASON = "Уважительная причина"
SCHEDULE_BOOKING = "Бронь"
SCHEDULE_START = "Начало"
SCHEDULE_NEW_START = "Новое начало"
SCHEDULE_NEW_END = "Новое окончание"
SCHEDULE_HANCHANS = "Ханчанов"
SCHEDULE_ROOM = "Помещение"
SCHEDULE_RELEASE_HINT = "Помещение освободится сразу; игроки получат сообщение и согласуют время заново."
SCHEDULE_NEXT_WINDOW_HINT = "Брони матча будут сняты, игроки согласуют время в окне следующего тура."
SCHEDULE_FALLBACK_HINT = "Регламент §6.1: встреча в последнее воскресенье окна, "
SCHEDULE_DIALOG_CHECK = "Проверьте матч и данные: изменение увидят игроки."
SCHEDULE_ROOMS = "Помещения"
SCHEDULE_ADD_ROOM = "Добавить помещение"
SCHEDULE_ROOM_NAME = "Название помещения"
SCHEDULE_NEW_ROOM_TABLES = "Столов в нём"
SCHEDULE_TABLES = "Столы в помещении (одна встреча матча — один стол): "
SCHEDULE_SAVE_TABLES = "Сохранить число столов"
SCHEDULE_TABLES_ROOM = "Помещение, где меняется число столов"
SCHEDULE_TABLES_COUNT = "Число столов"
SCHEDULE_ACTIVITY = "Другое занятие клуба (D&D и др.)"
SCHEDULE_ADD_ACTIVITY = "Добавить в календарь"
SCHEDULE_ACTIVITY_NAME = "Название занятия"
SCHEDULE_ACTIVITY_START = "Начало занятия"
SCHEDULE_ACTIVITY_END = "Окончание занятия"
SCHEDULE_ACTIVITY_TABLES = "Столов (пусто — всё помещение)"
SCHEDULE_ACTIVITY_START_FIELD = "Начало"
SCHEDULE_ACTIVITY_END_FIELD = "Окончание"
SCHEDULE_CALENDAR_LINK = "Календарь клуба"
# /match/<id>/schedule, a match's scheduling page (pages/scheduling/match_schedule*.py)
SCHED_NO_SUCH_MATCH = "Такого матча нет."
SCHED_NO_WINDOW = "Игровое окно этого матча ещё не назначено."
SCHED_GRID_BROKEN = "Сетка доступности пришла повреждённой: обновите страницу и отметьте время снова."
SCHED_SEAT_ANSWERED = ("ответил", "ответила")  # agreed with the player's name
SCHED_SEAT_NOT_YET = "ещё не {answered}"
SCHED_MY_AVAILABILITY = "Моя доступность"
SCHED_BOOKED_PREFIX = "Забронировано: "
SCHED_WINDOW_PREFIX = "Игровое окно: "
# /calendar, the club calendar (pages/scheduling/club_calendar.py)
CALENDAR_TITLE = "Календарь клуба"
CALENDAR_WEEKDAYS = ("Понедельник", "Вторник", "Среда", "Четверг", "Пятница", "Суббота", "Воскресенье")
CALENDAR_PREV = "← Предыдущая неделя"
CALENDAR_NEXT = "Следующая неделя →"
CALENDAR_TODAY = "Эта неделя"
CALENDAR_EMPTY = "Свободно"
CALENDAR_FEEDS = "Подписка на календарь (ICS)"
CALENDAR_CLUB_FEED = "Календарь клуба"
CALENDAR_MY_FEED = "Мои матчи (личная ссылка, не передавайте её другим)"
# the personal feed's links (components/feed_link.py)
FEED_SUBSCRIBE = "Подписаться в календаре"
FEED_COPY = "Скопировать ссылку"
FEED_COPIED = "Ссылка скопирована"
# the answers in front of Reflex (http_guard.py) and of the site's own HTTP routes (api.py)
HTTP_BAD_LENGTH = "Неверный размер запроса (Content-Length)."
HTTP_LENGTH_REQUIRED = "Нужен размер запроса (Content-Length)."
HTTP_TOO_LARGE = "Слишком большой запрос."
HTTP_UPLOAD_TOO_LARGE = "Слишком большой запрос: не больше {megabytes} МБ."
HTTP_UPLOAD_FORBIDDEN = "Нет доступа: войдите как судья или организатор."
HTTP_FORBIDDEN = "Нет доступа."
HTTP_NO_SESSION = "Сессия не найдена."
LOGIN_LINK_TITLE = "Вход по ссылке из Telegram"
LOGIN_LINK_OPENING = "Входим на сайт…"
LOGIN_LINK_NO_SCRIPT = "Для входа по ссылке нужен JavaScript: включите его или войдите на сайт с паролем."
LOGIN_LINK_FAILED = "Сайт не ответил: проверьте связь и откройте ссылку ещё раз (пока она действует)."
HTTP_LOGIN_LINK_GONE = (
    "Ссылка для входа уже использована или устарела: она действует несколько минут и один раз. Нажмите "
    "«Открыть на сайте» в сообщении бота ещё раз или войдите на сайт с паролем."
)
HTTP_NO_CALENDAR = "Календарь не найден: ссылка устарела или неверна."
# /draw (pages/league/draw*.py)
DRAW_PLAYER_FORMS = ("игрок", "игрока", "игроков")
DRAW_TIMES_FORMS = ("раз", "раза", "раз")
# /seasons/manage (pages/league/season_admin_state.py)
SEASON_PASSWORD_FORMS = ("пароль", "пароля", "паролей")
SEASON_OF_PLAYERS_FORMS = ("игрока", "игроков", "игроков")  # «у 3 игроков сезона»
# /player/<id> (pages/results/player.py)
PLAYER_MATCH_TOUR = "Тур "
PLAYER_COLUMNS = ("Тур", "Соперники", "Ханчаны", "Очки", "Место")
# /standings/ties (pages/results/standings_ties.py)
TIE_PLACE_PREFIX = "Место "
# --- h-phone (issue 28 item 5): the phone shows the numbers that matter ---
TABLE_ALL_COLUMNS = "Все столбцы"
GRID_WEEK_SHOWN = "Показана"
GRID_PAST_NOTE = "Серые клетки — время, которое уже прошло: его не отметить."
GRID_WEEK_NAMES = ("первая неделя", "вторая неделя", "третья неделя")
GRID_ONE_WEEK = ("неделя",)  # a window of at most seven days
# --- h-once (issue 24, "say it once"): the club's time zone on /regulation (pages/league/regulation_rules.py) ---
RULES_CLUB_ZONE = "Часовой пояс клуба"
RULES_CLUB_ZONE_VALUE = "время Кирова, одно для всех сезонов"
# --- h-once (issue 24 item 5): the last literals of the pages, moved ---
# /match/<id> (pages/results/match.py)
MATCH_EMA_HINT = "{name}: ранее нарушений {previous}, EMA — {step}"
MATCH_HANCHAN_PREFIX = "Ханчан "
MATCH_RIICHI_LEFT_PREFIX = "палочек риичи на столе: "
MATCH_COL_SCORE = "Результат"
MATCH_COL_CHOMBO = "Чомбо"
# The title over a refusal on the match page: what was not done (the walk met «Результат не сохранён» over a refused
# judge call)
MATCH_RESULT_NOT_SAVED = "Результат не сохранён"
JUDGE_CALL_NOT_SENT = "Судья не вызван"
DISPUTE_NOT_SAVED = "Результат не отмечен как спорный"
RESOLVE_NOT_SAVED = "Решение по спору не записано"
CORRECT_NOT_SAVED = "Исправление не записано"
PENALTY_NOT_SAVED = "Штраф не записан"
PENALTY_NOT_CANCELLED = "Штраф не отменён"
RULING_NOT_SAVED = "Решение судьи не записано"
SUB_NOT_SAVED = "Замена не посажена"
REPLAY_NOT_SAVED = "Переигровка не назначена"
MATCH_COL_PENALTY_KIND = "Вид"
MATCH_COL_PENALTY_BASIS = "Основание"
MATCH_PROTOCOL_COLUMNS = ("Когда", "Кто", "Что", "Подробности", "Причина")
MATCH_PROTOCOL_EMPTY = "Записей пока нет."
MATCH_COL_WHEN = "Когда"
MATCH_COL_HANCHAN = "Ханчан"
# the match's result forms (pages/results/match_forms.py)
ENTER_POINTS_LABEL = "Очки"
ENTER_POINTS_OF = "Очки: "  # + the player's name, the field's accessible name
ENTER_CHOMBO_LABEL = "Чомбо, раз"
ENTER_CHOMBO_OF = "Чомбо: "
ENTER_HANCHAN_PREFIX = "Внести ханчан "
FORM_HANCHAN_PREFIX = "Ханчан "
CORRECT_POINTS_OF = "Исправленные очки: "
CORRECT_CHOMBO_OF = "Исправленные чомбо: "
# the judge's ruling photos (pages/results/match_admin.py)
RULING_PHOTO_UNNAMED = "фото"  # an uploaded file without a name
# the availability grid (components/availability_grid.py)
GRID_LEGEND = (
    "Зелёная клетка — свободен; жёлтая в полоску — могу, если нужно (такое время предлагается после полностью "
    "свободного); синяя рамка — ваша бронь другого матча; красная черта слева — все помещения клуба уже заняты."
)
GRID_WEEK_TITLES = ("Первая неделя", "Вторая неделя", "Третья неделя")
GRID_FILL_DAY = "день"
GRID_FILL_DAY_OF = "Весь день "  # + the day's label
GRID_FILL_EVENING = "вечер"
GRID_FILL_EVENING_OF = "Вечер "
GRID_FILL_ALL_EVENINGS = "Все вечера"
GRID_FILL_WINDOW = "Всё окно"
GRID_ANCHOR_HINT = "Начало отмечено: коснитесь последней клетки промежутка."
GRID_KIND_LABEL = "Отмечать:"
GRID_KIND_FREE = "Свободен"
GRID_KIND_IF_NEEDED = "Если нужно"
GRID_KIND_ERASE = "Стереть"
# /roster (pages/league/roster.py)
ROSTER_TELEGRAM_LINKED = "привязан"
ROSTER_UNKNOWN_STATUS = "Неизвестный статус: {status}."
# /seasons/manage (pages/league/season_admin.py)
SEASON_NAME_EXAMPLE = "Лига Дискарда 2027"
# /playoff (pages/playoff/playoff.py)
PLAYOFF_WINDOW_ROUNDS = {"1": "1-й раунд", "2": "2-й раунд", "3": "3-й раунд", "F": "финал"}
PLAYOFF_TIE_FORM_INCOMPLETE = "Выберите матч и перечислите имена равных игроков через запятую."

# --- the profile page while it loads ---
PROFILE_LOADING = "Загружаем…"
