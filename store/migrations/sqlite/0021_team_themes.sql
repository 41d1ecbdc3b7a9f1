-- A team's brand (site.Theme without a client): accent colour, agency
-- name and logo, which every project of the team takes where its own
-- theme leaves a field empty.
CREATE TABLE team_themes (
	team_id  INTEGER PRIMARY KEY REFERENCES teams(id) ON DELETE CASCADE,
	accent   TEXT NOT NULL DEFAULT '',
	agency   TEXT NOT NULL DEFAULT '',
	logo     BLOB,
	logo_sum TEXT NOT NULL DEFAULT ''
);
