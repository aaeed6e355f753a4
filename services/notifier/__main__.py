"""`python -m services.notifier`: the Telegram bot process."""

import sys

from services.notifier.bot import main

sys.exit(main())
