-- Accounts, sessions, invites, share links and comments. Tokens are never
-- stored: only their SHA-256, so a copy of the database opens nothing.
-- Times are UTC text ('YYYY-MM-DDTHH:MM:SS.sssZ'), which sorts in time order.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    team_id    INTEGER REFERENCES teams(id) ON DELETE SET NULL, -- the team worked in; NULL: none
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE invites (
    id         INTEGER PRIMARY KEY,
    team_id    INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
    token_hash TEXT NOT NULL UNIQUE,
    created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at    TEXT,
    used_by    INTEGER REFERENCES users(id) ON DELETE SET NULL
);
CREATE INDEX invites_team ON invites(team_id);

CREATE TABLE share_links (
    id           INTEGER PRIMARY KEY,
    project_id   INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('view', 'comment')),
    label        TEXT NOT NULL DEFAULT '',
    token_hash   TEXT NOT NULL UNIQUE,
    created_at   TEXT NOT NULL,
    expires_at   TEXT,
    last_used_at TEXT,
    revoked_at   TEXT
);
CREATE INDEX share_links_project ON share_links(project_id);

CREATE TABLE comments (
    id            INTEGER PRIMARY KEY,
    project_id    INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    page_id       INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    parent_id     INTEGER REFERENCES comments(id) ON DELETE CASCADE,
    user_id       INTEGER REFERENCES users(id) ON DELETE SET NULL,
    share_link_id INTEGER REFERENCES share_links(id) ON DELETE SET NULL,
    author        TEXT NOT NULL,
    body          TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    resolved_at   TEXT,
    resolved_by   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX comments_page ON comments(page_id, parent_id);
CREATE INDEX comments_parent ON comments(parent_id);
CREATE INDEX comments_open ON comments(project_id, page_id) WHERE parent_id IS NULL AND resolved_at IS NULL;
