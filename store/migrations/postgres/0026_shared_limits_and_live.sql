-- The login limiter's token buckets, as SQLite's 0026.
CREATE TABLE rate_buckets (
	key     TEXT COLLATE "C" PRIMARY KEY,
	full_at BIGINT NOT NULL
);
CREATE INDEX rate_buckets_full ON rate_buckets(full_at);

-- What one instance's live hub tells the others (changes, presence,
-- ended streams), kept a few minutes so that a listener that lost its
-- connection reads what it missed. NOTIFY only wakes the listeners.
CREATE TABLE live_events (
	id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	at      BIGINT NOT NULL, -- Unix seconds
	payload BYTEA NOT NULL
);
CREATE INDEX live_events_at ON live_events(at);
