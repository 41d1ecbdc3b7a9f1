-- A team's outgoing webhooks (site.Webhook) and the deliveries waiting
-- for their (next) try: an event's rows are written in the transaction
-- of what it tells of (a comment, a sign-off, a version, a launch
-- check), so none is lost; the server's deliverer sends them. A
-- delivery done, or given up on, is deleted: its webhook keeps how the
-- last one went.
CREATE TABLE webhooks (
	id         INTEGER PRIMARY KEY,
	team_id    INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
	url        TEXT NOT NULL,
	format     TEXT NOT NULL,
	secret     TEXT NOT NULL,
	events     TEXT NOT NULL DEFAULT '', -- kinds, comma-separated; '' for all
	created_at TEXT NOT NULL,
	last_at    TEXT,
	last_code  INTEGER NOT NULL DEFAULT 0,
	last_error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX webhooks_team ON webhooks (team_id);

CREATE TABLE deliveries (
	id          INTEGER PRIMARY KEY,
	webhook_id  INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
	event       TEXT NOT NULL, -- site.Event as JSON
	attempts    INTEGER NOT NULL DEFAULT 0,
	next_at     TEXT NOT NULL,
	lease_until TEXT -- claimed by a deliverer until then
);
CREATE INDEX deliveries_due ON deliveries (next_at);
CREATE INDEX deliveries_webhook ON deliveries (webhook_id, id);
