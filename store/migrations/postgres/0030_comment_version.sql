-- As SQLite's.
ALTER TABLE projects ADD COLUMN comment_version BIGINT NOT NULL DEFAULT 0;
