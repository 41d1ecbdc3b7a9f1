-- Teams, users and memberships: accounts and sharing build on these.
CREATE TABLE teams (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name          TEXT NOT NULL,
    password_hash TEXT NOT NULL DEFAULT '',
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE memberships (
    team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role    TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
    PRIMARY KEY (team_id, user_id)
);

CREATE TABLE projects (
    id                 INTEGER PRIMARY KEY,
    team_id            INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    name               TEXT NOT NULL,
    base_url           TEXT NOT NULL,
    trailing_slash     INTEGER NOT NULL DEFAULT 0,
    default_changefreq TEXT NOT NULL DEFAULT '',
    default_priority   REAL,
    lastmod            TEXT NOT NULL DEFAULT '',
    version            INTEGER NOT NULL DEFAULT 1,
    created_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX projects_team ON projects(team_id);

-- Pages form an adjacency list. Siblings are the pages with the same
-- parent and placement (placement is 'main' below the roots); their
-- positions are dense from 0.
CREATE TABLE pages (
    id              INTEGER PRIMARY KEY,
    project_id      INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    parent_id       INTEGER REFERENCES pages(id) ON DELETE CASCADE,
    position        INTEGER NOT NULL,
    title           TEXT NOT NULL,
    slug            TEXT NOT NULL,
    slug_auto       INTEGER NOT NULL DEFAULT 1,
    path            TEXT NOT NULL DEFAULT '',
    kind            TEXT NOT NULL DEFAULT 'page' CHECK (kind IN ('page', 'group', 'placeholder', 'external')),
    placement       TEXT NOT NULL DEFAULT 'main' CHECK (placement IN ('main', 'utility', 'footer')),
    type            TEXT NOT NULL DEFAULT '',
    status          TEXT NOT NULL DEFAULT 'planned',
    assignee        TEXT NOT NULL DEFAULT '',
    notes           TEXT NOT NULL DEFAULT '',
    in_sitemap      INTEGER NOT NULL DEFAULT 1,
    in_html_sitemap INTEGER NOT NULL DEFAULT 1,
    priority        REAL,
    changefreq      TEXT NOT NULL DEFAULT '',
    lastmod         TEXT NOT NULL DEFAULT '',
    version         INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX pages_siblings ON pages(project_id, parent_id, placement, position);
CREATE INDEX pages_parent ON pages(parent_id);

CREATE TABLE links (
    id         INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    from_id    INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    to_id      INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    label      TEXT NOT NULL DEFAULT '',
    UNIQUE (from_id, to_id)
);
CREATE INDEX links_to ON links(to_id);
CREATE INDEX links_project ON links(project_id);

-- Until accounts land, everything belongs to one default team.
INSERT INTO teams (id, name) VALUES (1, 'Default team');
