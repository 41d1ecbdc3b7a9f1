-- As SQLite's 0027.
ALTER TABLE notifications ADD COLUMN mail_lease_until TEXT COLLATE "C";
