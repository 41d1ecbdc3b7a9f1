-- Proposals (site/proposal.go): a named set of changes to a plan that an
-- agent, an import or a person offers and a member of the team accepts,
-- whole or a branch at a time, or rejects. data is what accepting the
-- rest would do (the changes' before and after states, as a change of
-- the history keeps them, gzip'd JSON); pages it would add carry
-- negative ids until they are made.
CREATE TABLE proposals (
    id          INTEGER PRIMARY KEY,
    project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    title       TEXT NOT NULL,
    summary     TEXT NOT NULL DEFAULT '',
    source      TEXT NOT NULL,
    user_id     INTEGER REFERENCES users(id) ON DELETE SET NULL,
    author      TEXT NOT NULL,
    base_version INTEGER NOT NULL DEFAULT 0, -- the version it was made on, 0: the plan as it was
    base_change INTEGER NOT NULL DEFAULT 0,  -- the plan's last change when it was made
    state       TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'accepted', 'rejected')),
    accepted    TEXT NOT NULL DEFAULT '',    -- the branches accepted so far, one title a line
    page_count  INTEGER NOT NULL DEFAULT 0,  -- the pages and links its open changes touch
    link_count  INTEGER NOT NULL DEFAULT 0,
    data        BLOB NOT NULL,
    created_at  TEXT NOT NULL,
    decided_at  TEXT,
    decided_by  TEXT NOT NULL DEFAULT '',
    UNIQUE (project_id, number)
);
CREATE TABLE proposal_comments (
    id          INTEGER PRIMARY KEY,
    proposal_id INTEGER NOT NULL REFERENCES proposals(id) ON DELETE CASCADE,
    user_id     INTEGER REFERENCES users(id) ON DELETE SET NULL,
    author      TEXT NOT NULL,
    body        TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX proposal_comments_proposal ON proposal_comments (proposal_id);
