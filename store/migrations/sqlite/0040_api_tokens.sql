-- API tokens (site/token.go): personal (user_id set) or the team's
-- (user_id NULL), each with a scope and optionally one project, stored
-- hashed; the rate limit's buckets are rate_buckets' rows.
CREATE TABLE api_tokens (
    id           INTEGER PRIMARY KEY,
    team_id      INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    user_id      INTEGER REFERENCES users(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    scope        TEXT NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
    project_id   INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    token_hash   TEXT NOT NULL UNIQUE,
    prefix       TEXT NOT NULL,
    created_by   INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at   TEXT NOT NULL,
    expires_at   TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at   TEXT
);
CREATE INDEX api_tokens_team ON api_tokens (team_id, user_id);
