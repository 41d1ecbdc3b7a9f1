-- Each member's inbox (site.Notification): mentions, replies in their
-- threads, comments and sign-offs on plans they watch; written in the
-- transaction of what they tell of. mailed_at: e-mailed (at once, or in
-- a digest). watches: who hears of a plan's comments and sign-offs (its
-- creator, and whoever chose to). users.mail_mode: instant, digest or
-- off.
CREATE TABLE notifications (
	id         INTEGER PRIMARY KEY,
	user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	kind       TEXT NOT NULL,
	text       TEXT NOT NULL,
	path       TEXT NOT NULL,
	created_at TEXT NOT NULL,
	read_at    TEXT,
	mailed_at  TEXT
);
CREATE INDEX notifications_user ON notifications (user_id, id DESC);
-- The mailer reads the recent ones not yet e-mailed: those of members who
-- want no e-mail stay unmailed, and an index by time passes them over.
CREATE INDEX notifications_unmailed ON notifications (created_at) WHERE mailed_at IS NULL;

CREATE TABLE watches (
	user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	PRIMARY KEY (user_id, project_id)
) WITHOUT ROWID;

ALTER TABLE users ADD COLUMN mail_mode TEXT NOT NULL DEFAULT 'instant';
