# Discard League: `make run` serves the app, `make test` runs every test. Both set up what they need.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run

PORT ?= 3000
WORKERS ?= 2
# make prod starts the Telegram bot too (when TELEGRAM_BOT_TOKEN is set); BOT=0 where it runs as its own unit
BOT ?= 1
# More workers than the machine's two cores: while one starts an app or a browser, the others keep both cores busy.
TEST_WORKERS ?= 4
VENV := .venv
PY := $(VENV)/bin/python
BUN_VERSION := 1.4.4
BUN_ARCH := $(if $(filter aarch64 arm64,$(shell uname -m)),aarch64,x64)
BUN := $(VENV)/bun/node_modules/@oven/bun-linux-$(BUN_ARCH)/bin/bun

# Every write of Reflex, bun and their caches stays inside the checkout.
export REFLEX_DIR := $(CURDIR)/.reflex-home
export XDG_CONFIG_HOME := $(CURDIR)/.config
export XDG_CACHE_HOME := $(CURDIR)/.cache
export BUN_INSTALL_CACHE_DIR := $(CURDIR)/.cache/bun
export REFLEX_BUN_PATH := $(CURDIR)/$(BUN)
export REFLEX_CHECK_LATEST_VERSION := 0
export NPM_CONFIG_REGISTRY ?= $(shell npm config get registry 2>/dev/null || echo https://registry.npmjs.org/)
export NO_PROXY := 127.0.0.1,localhost
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: run prod test setup chromium fmt

setup: $(VENV)/.installed $(BUN)

$(VENV)/.installed: pyproject.toml requirements.lock
	@echo "==> Python-окружение $(VENV) (зависимости из requirements.lock)"
	@command -v python3.11 >/dev/null || command -v python3 >/dev/null || { echo "!! Нужен Python 3.11"; exit 1; }
	@test -x $(PY) || python3 -m venv $(VENV) || { echo "!! Не удалось создать $(VENV): нужен пакет python3-venv"; exit 1; }
	@$(PY) -m pip install -q --disable-pip-version-check -r requirements.lock || { echo "!! pip install не удался: см. сообщение выше"; exit 1; }
	@$(PY) -m pip install -q --disable-pip-version-check --no-deps -e . || { echo "!! Установка проекта не удалась"; exit 1; }
	@touch $@

$(BUN):
	@echo "==> bun $(BUN_VERSION) из реестра npm (своя загрузка Reflex здесь не работает)"
	@command -v npm >/dev/null || { echo "!! Нужен npm (Node.js 20)"; exit 1; }
	@npm install --silent --no-save --ignore-scripts --no-audit --no-fund --prefix $(VENV)/bun bun@$(BUN_VERSION) \
		|| { echo "!! Не удалось поставить bun из реестра npm"; exit 1; }
	@test -x $(BUN) || { echo "!! bun не найден в $(BUN)"; exit 1; }

chromium:
	@command -v chromium >/dev/null || { \
		echo "==> Chromium из пакетов Debian (для браузерных тестов)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
		|| { echo "!! Не удалось установить chromium через apt-get"; exit 1; }; }

run: setup
	@echo "==> Миграции базы данных"
	@umask 077 && $(VENV)/bin/discard migrate
	@umask 077 && $(VENV)/bin/discard demo --if-empty
	@if [ -n "$${TELEGRAM_BOT_TOKEN:-}" ]; then \
		echo "==> Telegram-бот запускается в фоне (discard bot) и остановится вместе с сайтом"; \
	else echo "==> Telegram-бот не настроен (TELEGRAM_BOT_TOKEN пуст): сайт работает без него"; fi
	@echo "==> Сборка и запуск: http://127.0.0.1:$(PORT)"
	@umask 077; if [ -n "$${TELEGRAM_BOT_TOKEN:-}" ]; then \
		$(VENV)/bin/discard bot & BOT=$$!; trap 'kill $$BOT 2>/dev/null || true' EXIT; fi; \
	REFLEX_API_URL=http://127.0.0.1:$(PORT) $(VENV)/bin/reflex run --env prod --single-port \
		--frontend-port $(PORT) --backend-port $(PORT) --backend-host 127.0.0.1

# Production: N backend workers sharing their state through Redis, on PostgreSQL; the bot as its own process.
# The README's "Production" section has the systemd units and the reverse proxy that run the same commands.
prod: setup
	@[[ "$${DATABASE_URL:-}" == postgresql* ]] || { echo "!! make prod: задайте DATABASE_URL=postgresql+psycopg://..."; exit 1; }
	@[[ "$${REFLEX_REDIS_URL:-}" == redis* ]] || { echo "!! make prod: задайте REFLEX_REDIS_URL=redis://host:6379/0"; exit 1; }
	@echo "==> Миграции базы данных"
	@$(VENV)/bin/discard migrate
	@echo "==> Сайт: $(WORKERS) процесса(ов) на http://127.0.0.1:$(PORT), состояние в Redis; проверка: discard health"
	@if [ -n "$${TELEGRAM_BOT_TOKEN:-}" ] && [ "$(BOT)" != "0" ]; then \
		$(VENV)/bin/discard bot & BOT=$$!; trap 'kill $$BOT 2>/dev/null || true' EXIT; fi; \
	GRANIAN_WORKERS=$(WORKERS) REFLEX_API_URL=$${PUBLIC_URL:-http://127.0.0.1:$(PORT)} $(VENV)/bin/reflex run --env prod \
		--single-port --frontend-port $(PORT) --backend-port $(PORT) --backend-host 127.0.0.1

test: setup chromium
	@echo "==> Стиль кода: ruff format --check, ruff check"
	@$(VENV)/bin/ruff format --check --quiet . && $(VENV)/bin/ruff check --quiet . \
		|| { echo "!! ruff: исправьте стиль (make fmt)"; exit 1; }
	@echo "==> Типы: mypy --strict services/ и discard_app/ (настройки и исключения — в pyproject.toml); тем временем"
	@echo "    собираются страницы для браузерных тестов (одна сборка на весь прогон)"
	@web=$$(mktemp -d); trap 'kill $${build:-} 2>/dev/null || true; rm -rf "$$web"' EXIT; \
	$(PY) -m tests.e2e.frontend "$$web/web" > "$$web/frontend.log" 2>&1 & build=$$!; \
	$(VENV)/bin/mypy || { echo "!! mypy: исправьте типы"; exit 1; }; \
	wait $$build || { tail -n 40 "$$web/frontend.log"; echo "!! Страницы не собрались"; exit 1; }; \
	echo "==> Тесты: unit, база данных, бот, браузер (процессов pytest-xdist: $(TEST_WORKERS))"; \
	DISCARD_TEST_FRONTEND="$$web/web" $(VENV)/bin/pytest tests -n $(TEST_WORKERS)

fmt: setup
	@$(VENV)/bin/ruff format . && $(VENV)/bin/ruff check --fix .
