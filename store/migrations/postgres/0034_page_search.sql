-- As SQLite's, with PostgreSQL's own full-text index: a GIN index of
-- the words as the 'simple' configuration splits them (no stemming:
-- the words are already folded), which the search's query names.
ALTER TABLE pages ADD COLUMN search_key TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE pages ADD COLUMN search_words TEXT COLLATE "C" NOT NULL DEFAULT '';
CREATE INDEX pages_search_key ON pages (project_id, search_key);
CREATE INDEX pages_search_words ON pages USING gin (to_tsvector('simple', search_words));
