-- As SQLite's.
ALTER TABLE type_colors ADD COLUMN post_type TEXT COLLATE "C" NOT NULL DEFAULT '';
