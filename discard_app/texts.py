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

NAV_HOME = "Мои матчи"
NAV_ROSTER = "Состав"

ROLE_LABELS = {"player": "игрок", "organizer": "организатор", "judge": "судья"}

HOME_TITLE = "Мои матчи"
HOME_EMPTY_TITLE = "Матчей пока нет"
HOME_EMPTY_TEXT = (
    "Жеребьёвка всех четырёх туров проводится после закрытия регистрации и утверждается организатором. "
    "Когда она будет утверждена, здесь появятся ваши матчи и соперники, и можно будет отметить свободное время."
)
HOME_STAFF_TEXT = "Вы вошли как {role}. Игровые матчи есть только у участников лиги."

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
ROSTER_PASSWORD_ISSUED = "Пароль для «{name}»: {password}. Он показан один раз — передайте его игроку."
ROSTER_ADDED = "Игрок добавлен."
ROSTER_STATUS_CHANGED = "Статус изменён."
ROSTER_PICK_PLAYER = "Выберите игрока."
ROSTER_COUNT = "В основном составе: {main}. Резерв: {reserve}."
NO_SEASON = "Сезон ещё не создан: выполните «discard demo» или создайте сезон."
