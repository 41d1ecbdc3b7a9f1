-- The Redirects view stays fast at 200,000 old URLs (docs/benchmarks.md):
-- the figures read one covering index; the rows awaiting review, the
-- retired ones and a section's are paged by clicks from indexes of their
-- own, not by walking every row.
CREATE INDEX old_urls_state ON old_urls (project_id, accepted, disposition, page_id, clicks);
CREATE INDEX old_urls_awaiting ON old_urls (project_id, clicks DESC, url) WHERE NOT accepted;
CREATE INDEX old_urls_retired ON old_urls (project_id, clicks DESC, url) WHERE disposition = 'retire';
CREATE INDEX old_urls_section ON old_urls (project_id, section, clicks DESC, url);
