-- The API's Idempotency-Key: a POST sent again with the key it was sent
-- with gets the first one's answer, kept for a day.
CREATE TABLE api_idempotency (
    key_hash     TEXT COLLATE "C" PRIMARY KEY,
    request_hash TEXT COLLATE "C" NOT NULL,
    status       BIGINT NOT NULL DEFAULT 0,
    content_type TEXT COLLATE "C" NOT NULL DEFAULT '',
    location     TEXT COLLATE "C" NOT NULL DEFAULT '',
    body         BYTEA,
    created_at   TEXT COLLATE "C" NOT NULL
);
CREATE INDEX api_idempotency_created ON api_idempotency (created_at);
