-- As SQLite's 0029.
ALTER TABLE projects ADD COLUMN comment_version BIGINT NOT NULL DEFAULT 0;
