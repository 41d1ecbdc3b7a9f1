-- As SQLite's.
ALTER TABLE notifications ADD COLUMN mail_lease_until TEXT COLLATE "C";
