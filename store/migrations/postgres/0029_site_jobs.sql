-- As SQLite's.
CREATE TABLE site_jobs (
    seq          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id           TEXT COLLATE "C" NOT NULL UNIQUE,
    kind         TEXT COLLATE "C" NOT NULL,
    user_id      BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    team_id      BIGINT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    project_id   BIGINT REFERENCES projects(id) ON DELETE CASCADE,
    version      BIGINT NOT NULL DEFAULT 0,
    by_name      TEXT COLLATE "C" NOT NULL DEFAULT '',
    source       TEXT COLLATE "C" NOT NULL,
    name         TEXT COLLATE "C" NOT NULL DEFAULT '',
    upload       BIGINT NOT NULL DEFAULT 0,
    state        TEXT COLLATE "C" NOT NULL DEFAULT 'waiting',
    cancel       BIGINT NOT NULL DEFAULT 0,
    instance     TEXT COLLATE "C" NOT NULL DEFAULT '',
    created      TEXT COLLATE "C" NOT NULL,
    started      TEXT COLLATE "C",
    beat         TEXT COLLATE "C",
    ended        TEXT COLLATE "C",
    progress     BYTEA,
    error        TEXT COLLATE "C" NOT NULL DEFAULT '',
    report       BYTEA,
    report_bytes BIGINT NOT NULL DEFAULT 0,
    dropped      BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX site_jobs_one_per_user ON site_jobs(user_id) WHERE ended IS NULL;
CREATE UNIQUE INDEX site_jobs_one_per_team ON site_jobs(team_id) WHERE state IN ('reading', 'writing');
CREATE INDEX site_jobs_state ON site_jobs(state, seq);
CREATE INDEX site_jobs_team ON site_jobs(team_id, started);
CREATE INDEX site_jobs_launch ON site_jobs(project_id, user_id) WHERE project_id IS NOT NULL;

CREATE TABLE site_job_chunks (
    job_seq BIGINT NOT NULL REFERENCES site_jobs(seq) ON DELETE CASCADE,
    n       BIGINT NOT NULL,
    bytes   BYTEA NOT NULL,
    PRIMARY KEY (job_seq, n)
);
