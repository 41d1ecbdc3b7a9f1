-- Tree tests (site/treetest.go): a study on a version of a plan, its
-- tasks, the participants who took it through its link (the token and
-- each participant's resume secret stored hashed), and what they did,
-- append-only: every result is computed from the events and the
-- tasks' correct pages as they are now (package treetest).
CREATE TABLE studies (
    id               INTEGER PRIMARY KEY,
    project_id       INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    version_id       INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    name             TEXT NOT NULL,
    root_id          INTEGER,      -- a page of the version, its branch shown alone
    all_navigation   INTEGER NOT NULL DEFAULT 0,
    per_participant  INTEGER NOT NULL DEFAULT 0,
    random_order     INTEGER NOT NULL DEFAULT 0,
    no_skip          INTEGER NOT NULL DEFAULT 0,
    intro            TEXT NOT NULL DEFAULT '',
    thanks           TEXT NOT NULL DEFAULT '',
    max_participants INTEGER NOT NULL DEFAULT 0,
    speeder_ms       INTEGER NOT NULL DEFAULT 0,
    token_hash       TEXT NOT NULL UNIQUE,
    created_at       TEXT NOT NULL,
    expires_at       TEXT,
    revoked_at       TEXT
);
CREATE INDEX studies_project ON studies (project_id);
CREATE TABLE study_tasks (
    study_id   INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
    key        TEXT NOT NULL,
    position   INTEGER NOT NULL,
    text       TEXT NOT NULL,
    correct    TEXT NOT NULL,  -- a JSON list of page ids of the version
    time_limit INTEGER NOT NULL DEFAULT 0,
    confidence INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (study_id, key)
);
CREATE TABLE study_participants (
    id          INTEGER PRIMARY KEY,
    study_id    INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
    secret_hash TEXT NOT NULL UNIQUE,
    params      TEXT NOT NULL DEFAULT '{}', -- the link's URL parameters, for segments
    tasks       TEXT NOT NULL,              -- the keys of the tasks drawn for them, in order
    created_at  TEXT NOT NULL
);
CREATE INDEX study_participants_study ON study_participants (study_id);
CREATE TABLE study_events (
    id             INTEGER PRIMARY KEY,
    study_id       INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
    participant_id INTEGER NOT NULL REFERENCES study_participants(id) ON DELETE CASCADE,
    task           TEXT NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('start', 'open', 'close', 'choose', 'skip', 'confidence')),
    page_id        INTEGER NOT NULL DEFAULT 0, -- the page; a confidence's answer (1-7)
    at_ms          INTEGER NOT NULL
);
CREATE INDEX study_events_study ON study_events (study_id, id);
CREATE INDEX study_events_participant ON study_events (participant_id, id);
