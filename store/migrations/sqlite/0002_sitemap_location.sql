-- Where the project's sitemap files are published, when not in the base
-- URL's directory (a staging host path, a /sitemaps/ folder). Empty: the
-- base URL's directory.
ALTER TABLE projects ADD COLUMN sitemap_location TEXT NOT NULL DEFAULT '';
