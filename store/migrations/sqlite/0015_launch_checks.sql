-- Launch checks the editor ran (site.LaunchCheck): the newest few of
-- each plan, so that a check can say what changed since the one before.
-- The report is the check's JSON, kept as it came.
CREATE TABLE launch_checks (
	id         INTEGER PRIMARY KEY,
	project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	at         TEXT NOT NULL,
	by_name    TEXT NOT NULL DEFAULT '',
	base       TEXT NOT NULL,
	version    INTEGER NOT NULL DEFAULT 0,
	errors     INTEGER NOT NULL DEFAULT 0,
	warnings   INTEGER NOT NULL DEFAULT 0,
	report     BLOB NOT NULL
);
CREATE INDEX launch_checks_project ON launch_checks (project_id, id DESC);
