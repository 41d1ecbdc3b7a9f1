-- A launch check or reading started with a team token is the token's,
-- not a person's: user_id is NULL then and token_id names the token, one
-- job not ended at a time each, as a person has. SQLite drops a NOT NULL
-- only by building the table again (foreign keys are off meanwhile).
CREATE TABLE site_jobs_new (
    seq          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    kind         TEXT NOT NULL,
    user_id      INTEGER REFERENCES users(id) ON DELETE CASCADE,
    token_id     INTEGER REFERENCES api_tokens(id) ON DELETE CASCADE,
    team_id      INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    project_id   INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    version      INTEGER NOT NULL DEFAULT 0,
    by_name      TEXT NOT NULL DEFAULT '',
    source       TEXT NOT NULL,
    name         TEXT NOT NULL DEFAULT '',
    upload       INTEGER NOT NULL DEFAULT 0,
    state        TEXT NOT NULL DEFAULT 'waiting',
    cancel       INTEGER NOT NULL DEFAULT 0,
    instance     TEXT NOT NULL DEFAULT '',
    created      TEXT NOT NULL,
    started      TEXT,
    beat         TEXT,
    ended        TEXT,
    progress     BLOB,
    error        TEXT NOT NULL DEFAULT '',
    report       BLOB,
    report_bytes INTEGER NOT NULL DEFAULT 0,
    dropped      INTEGER NOT NULL DEFAULT 0,
    credentials  TEXT NOT NULL DEFAULT '',
    CHECK (user_id IS NOT NULL OR token_id IS NOT NULL)
);
INSERT INTO site_jobs_new (seq, id, kind, user_id, team_id, project_id, version, by_name, source, name, upload, state, cancel, instance,
    created, started, beat, ended, progress, error, report, report_bytes, dropped, credentials)
    SELECT seq, id, kind, user_id, team_id, project_id, version, by_name, source, name, upload, state, cancel, instance,
    created, started, beat, ended, progress, error, report, report_bytes, dropped, credentials FROM site_jobs;
DROP TABLE site_jobs;
ALTER TABLE site_jobs_new RENAME TO site_jobs;
CREATE UNIQUE INDEX site_jobs_one_per_user ON site_jobs(user_id) WHERE ended IS NULL;
CREATE UNIQUE INDEX site_jobs_one_per_token ON site_jobs(token_id) WHERE ended IS NULL AND user_id IS NULL;
CREATE UNIQUE INDEX site_jobs_one_per_team ON site_jobs(team_id) WHERE state IN ('reading', 'writing');
CREATE INDEX site_jobs_state ON site_jobs(state, seq);
CREATE INDEX site_jobs_team ON site_jobs(team_id, started);
CREATE INDEX site_jobs_launch ON site_jobs(project_id, user_id) WHERE project_id IS NOT NULL;
