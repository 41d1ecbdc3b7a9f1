-- A project being imported is written in chunks, so that other teams'
-- edits go on meanwhile, and stays invisible until its last chunk: 1
-- while it is written. One left behind by a crash is removed on open.
ALTER TABLE projects ADD COLUMN importing INTEGER NOT NULL DEFAULT 0;
