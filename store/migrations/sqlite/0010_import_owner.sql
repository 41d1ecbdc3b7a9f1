-- Which process writes an unfinished import ("PID-token"), so that one
-- whose process is gone is removed at once, not ten minutes after its
-- last write; '' for imports begun before this column.
ALTER TABLE projects ADD COLUMN import_owner TEXT NOT NULL DEFAULT '';
