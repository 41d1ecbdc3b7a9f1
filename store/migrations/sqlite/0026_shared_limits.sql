-- The login limiter's token buckets, in the database so that every
-- instance on it counts the same failures. full_at (Unix nanoseconds) is
-- when the bucket is full again; a bucket that is full has no row.
CREATE TABLE rate_buckets (
	key     TEXT PRIMARY KEY,
	full_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX rate_buckets_full ON rate_buckets(full_at);
