-- Live-site readings and launch checks (site.Job): any server on the
-- database may claim a waiting job, one team's one at a time.
CREATE TABLE site_jobs (
    seq          INTEGER PRIMARY KEY,             -- the order they came
    id           TEXT NOT NULL UNIQUE,            -- random, in the job's address
    kind         TEXT NOT NULL,
    user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    team_id      INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    project_id   INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    version      INTEGER NOT NULL DEFAULT 0,
    by_name      TEXT NOT NULL DEFAULT '',
    source       TEXT NOT NULL,
    name         TEXT NOT NULL DEFAULT '',
    upload       INTEGER NOT NULL DEFAULT 0,      -- its bytes in site_job_chunks until it ends
    state        TEXT NOT NULL DEFAULT 'waiting',
    cancel       INTEGER NOT NULL DEFAULT 0,
    instance     TEXT NOT NULL DEFAULT '',        -- the server that claimed it
    created      TEXT NOT NULL,
    started      TEXT,
    beat         TEXT,                            -- when its server last said it is alive
    ended        TEXT,
    progress     BLOB,
    error        TEXT NOT NULL DEFAULT '',
    report       BLOB,
    report_bytes INTEGER NOT NULL DEFAULT 0,
    dropped      INTEGER NOT NULL DEFAULT 0
);
-- A visitor has one job not ended, a team one reading or writing.
CREATE UNIQUE INDEX site_jobs_one_per_user ON site_jobs(user_id) WHERE ended IS NULL;
CREATE UNIQUE INDEX site_jobs_one_per_team ON site_jobs(team_id) WHERE state IN ('reading', 'writing');
CREATE INDEX site_jobs_state ON site_jobs(state, seq);
CREATE INDEX site_jobs_team ON site_jobs(team_id, started);
CREATE INDEX site_jobs_launch ON site_jobs(project_id, user_id) WHERE project_id IS NOT NULL;

-- An uploaded file, in pieces of at most 1 MB: read back a piece at a
-- time, and removed when its job ends.
CREATE TABLE site_job_chunks (
    job_seq INTEGER NOT NULL REFERENCES site_jobs(seq) ON DELETE CASCADE,
    n       INTEGER NOT NULL,
    bytes   BLOB NOT NULL,
    PRIMARY KEY (job_seq, n)
);
