-- The store's SQL now says "accepted = 0", which reads the same on
-- PostgreSQL; SQLite uses a partial index only for a query whose
-- condition is the index's own, so the index says it too.
DROP INDEX old_urls_awaiting;
CREATE INDEX old_urls_awaiting ON old_urls (project_id, clicks DESC, url) WHERE accepted = 0;
-- An e-mail address is looked up as lower(email) = lower(?), which
-- PostgreSQL's unique index answers; SQLite's by this one.
CREATE INDEX users_email_lower ON users (lower(email));
