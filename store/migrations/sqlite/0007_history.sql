-- History: every change to a plan is logged with what it takes to invert
-- it (store/changes.go), and named versions keep a snapshot of a plan.
--
-- Pages brought back by an undo or a restore keep their ids, so an id
-- must never be handed out twice: AUTOINCREMENT never reuses one, not
-- even the largest after it was deleted. SQLite cannot add it to a
-- table, so pages is rebuilt (the migration runs with foreign keys off).
CREATE TABLE pages_new (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
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
INSERT INTO pages_new (id, project_id, parent_id, position, title, slug, slug_auto, path, kind, placement, type, status,
        assignee, notes, in_sitemap, in_html_sitemap, priority, changefreq, lastmod, version)
    SELECT id, project_id, parent_id, position, title, slug, slug_auto, path, kind, placement, type, status,
        assignee, notes, in_sitemap, in_html_sitemap, priority, changefreq, lastmod, version FROM pages;
DROP TABLE pages;
ALTER TABLE pages_new RENAME TO pages;
CREATE INDEX pages_siblings ON pages(project_id, parent_id, placement, position);
CREATE INDEX pages_parent ON pages(parent_id);
CREATE INDEX pages_slug ON pages(project_id, slug);
CREATE INDEX pages_open_url ON pages(project_id) WHERE path != '' OR slug = '';
CREATE TRIGGER pages_counted AFTER INSERT ON pages BEGIN
	UPDATE projects SET page_count = page_count + 1 WHERE id = NEW.project_id;
END;
CREATE TRIGGER pages_uncounted AFTER DELETE ON pages BEGIN
	UPDATE projects SET page_count = page_count - 1 WHERE id = OLD.project_id;
END;

-- One row per change: who, when, what in words, and in data the images
-- of the rows it touched before and after (JSON), never a copy of the
-- plan. state: done; undone (its author may redo it); dropped (undone,
-- then its author changed something else: no longer redoable).
CREATE TABLE changes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id    INTEGER REFERENCES users(id) ON DELETE SET NULL,
    author     TEXT NOT NULL,
    at         TEXT NOT NULL,
    verb       TEXT NOT NULL,
    summary    TEXT NOT NULL,
    page_id    INTEGER NOT NULL DEFAULT 0, -- the page it is about (no foreign key: pages come back)
    state      TEXT NOT NULL DEFAULT 'done' CHECK (state IN ('done', 'undone', 'dropped')),
    undoable   INTEGER NOT NULL DEFAULT 1,
    undone_at  TEXT,
    data       TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX changes_project ON changes(project_id, id);
CREATE INDEX changes_user ON changes(project_id, user_id, state, id);

-- Every page a change touched, for the history of a page and for saying
-- who changed it last.
CREATE TABLE change_pages (
    page_id   INTEGER NOT NULL,
    change_id INTEGER NOT NULL REFERENCES changes(id) ON DELETE CASCADE,
    PRIMARY KEY (page_id, change_id)
) WITHOUT ROWID;
CREATE INDEX change_pages_change ON change_pages(change_id);

-- Named versions: a snapshot of the plan (gzip'd JSON) when it was made.
CREATE TABLE versions (
    id         INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    number     INTEGER NOT NULL,
    name       TEXT NOT NULL,
    user_id    INTEGER REFERENCES users(id) ON DELETE SET NULL,
    author     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    change_id  INTEGER NOT NULL DEFAULT 0, -- the newest change it includes
    page_count INTEGER NOT NULL,
    snapshot   BLOB NOT NULL,
    UNIQUE (project_id, number)
);

-- A client's sign-off of a version, whole (page_id NULL) or one branch.
CREATE TABLE approvals (
    id            INTEGER PRIMARY KEY,
    version_id    INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    page_id       INTEGER,
    page_title    TEXT NOT NULL DEFAULT '',
    name          TEXT NOT NULL,
    share_link_id INTEGER REFERENCES share_links(id) ON DELETE SET NULL,
    created_at    TEXT NOT NULL
);
CREATE INDEX approvals_version ON approvals(version_id);
