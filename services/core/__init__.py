"""What every part of the league shares, the bottom floor: settings, the database and its tables, passwords and
sessions, the audit trail, the outbox of events the bot reports and its recorded status, and the season's ruleset
(the one place every rule's number is read). Imports no reflex or telegram.

Pure: `config`, `security`, `ruleset` (Регламент §1, §2, §4–§7), `wording`. Database: `db`, `models`, `audit`,
`outbox` (every event kind the services write), `changes` (the stamp an open page polls to see any process's
change), `bot_status` (the notifier's heartbeat and errors, for the desk and the checklist).
"""
