-- The API's Idempotency-Key: a POST sent again with the key it was sent
-- with gets the first one's answer, kept for a day.
CREATE TABLE api_idempotency (
    key_hash     TEXT PRIMARY KEY,  -- the sender (token or account) and its key, hashed
    request_hash TEXT NOT NULL,     -- the method, path and body the key was first sent with
    status       INTEGER NOT NULL DEFAULT 0, -- 0: still being answered
    content_type TEXT NOT NULL DEFAULT '',
    location     TEXT NOT NULL DEFAULT '',
    body         BLOB,
    created_at   TEXT NOT NULL
);
CREATE INDEX api_idempotency_created ON api_idempotency (created_at);
