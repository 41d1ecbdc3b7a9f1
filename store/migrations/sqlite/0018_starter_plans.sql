-- A team's starter plans (site.Starter): a plan kept as a siteplan/1
-- document to start new projects from. The team's, not any plan's.
CREATE TABLE starter_plans (
	id         INTEGER PRIMARY KEY,
	team_id    INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	pages      INTEGER NOT NULL,
	by_name    TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL,
	document   BLOB NOT NULL,
	UNIQUE (team_id, name)
);
