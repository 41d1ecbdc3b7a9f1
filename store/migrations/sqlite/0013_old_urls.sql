-- The old site a relaunch replaces: its URLs, what is known of them, and
-- where each goes (site.OldURL). Part of the plan: changes record these
-- rows before and after, versions keep them.
CREATE TABLE old_urls (
	id          INTEGER PRIMARY KEY,
	project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	url         TEXT NOT NULL,
	section     TEXT NOT NULL DEFAULT '',
	title       TEXT NOT NULL DEFAULT '',
	h1          TEXT NOT NULL DEFAULT '',
	clicks      INTEGER NOT NULL DEFAULT 0,
	disposition TEXT NOT NULL DEFAULT 'review',
	page_id     INTEGER REFERENCES pages(id) ON DELETE SET NULL,
	status      INTEGER NOT NULL DEFAULT 0,
	confidence  REAL NOT NULL DEFAULT 0,
	reason      TEXT NOT NULL DEFAULT '',
	accepted    INTEGER NOT NULL DEFAULT 0,
	manual      INTEGER NOT NULL DEFAULT 0,
	UNIQUE (project_id, url)
);
CREATE INDEX old_urls_page ON old_urls (page_id) WHERE page_id IS NOT NULL;
CREATE INDEX old_urls_clicks ON old_urls (project_id, clicks DESC, url);

-- A launched version: the site went live with this plan. Its URLs are
-- kept in launched_urls; from then on a change that moves one records
-- its redirect (an old_urls row) in the same transaction.
ALTER TABLE versions ADD COLUMN launched INTEGER NOT NULL DEFAULT 0;
CREATE TABLE launched_urls (
	project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	url        TEXT NOT NULL,
	PRIMARY KEY (project_id, url)
) WITHOUT ROWID;
