-- A project's theme brands its diagrams: accent colour, agency, client,
-- logo. It is not part of the plan, so it has no history.
CREATE TABLE project_themes (
	project_id  INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
	accent      TEXT NOT NULL DEFAULT '',
	agency      TEXT NOT NULL DEFAULT '',
	client_name TEXT NOT NULL DEFAULT '',
	logo        BLOB,
	-- The logo's SHA-256 in hex: what a cached drawing is keyed by,
	-- without reading the logo on every request.
	logo_sum    TEXT NOT NULL DEFAULT ''
);
