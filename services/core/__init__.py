"""What every part of the league shares: settings, the database and its tables, passwords and sessions, the audit
trail and the outbox of events the bot reports. No league rule lives here; imports no reflex or telegram.

Pure: `config`, `security`. Database: `db`, `models`, `audit`, `outbox` (every event kind the services write),
`changes` (the stamp an open page polls to see any process's change).
"""
