-- "Changed since approval": the plan version (projects.version) a
-- sign-off was last held against, and when its plan's watchers were told
-- that the plan now differs in what it approved (once a sign-off).
ALTER TABLE approvals ADD COLUMN checked_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE approvals ADD COLUMN changed_told_at TEXT;
CREATE INDEX approvals_untold ON approvals (version_id, checked_version) WHERE changed_told_at IS NULL AND voided_at IS NULL;

-- A member's digest comes at their hour in their time zone:
-- digest_next_at is when it is next due (NULL: at once, then daily).
ALTER TABLE users ADD COLUMN digest_hour INTEGER NOT NULL DEFAULT 7;
ALTER TABLE users ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
ALTER TABLE users ADD COLUMN digest_next_at TEXT;
CREATE INDEX users_digest_due ON users (digest_next_at) WHERE mail_mode = 'digest';
