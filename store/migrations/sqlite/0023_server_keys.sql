-- Keys the server signs with (an unsubscribe link's), made on first
-- use; the same for every instance on the database.
CREATE TABLE server_keys (
	name TEXT PRIMARY KEY,
	key  BLOB NOT NULL
) WITHOUT ROWID;
