-- As SQLite's.
ALTER TABLE projects ADD COLUMN locales TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN x_default BIGINT;
CREATE TABLE page_variants (
    page_id          BIGINT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    project_id       BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    tag              TEXT COLLATE "C" NOT NULL,
    title            TEXT COLLATE "C" NOT NULL DEFAULT '',
    slug             TEXT COLLATE "C" NOT NULL DEFAULT '',
    path             TEXT COLLATE "C" NOT NULL DEFAULT '',
    state            TEXT COLLATE "C" NOT NULL DEFAULT 'planned' CHECK (state IN ('planned', 'translating', 'ready', 'not_offered')),
    seo_title        TEXT COLLATE "C" NOT NULL DEFAULT '',
    meta_description TEXT COLLATE "C" NOT NULL DEFAULT '',
    h1               TEXT COLLATE "C" NOT NULL DEFAULT '',
    keyword          TEXT COLLATE "C" NOT NULL DEFAULT '',
    PRIMARY KEY (page_id, tag)
);
CREATE INDEX page_variants_project ON page_variants (project_id, tag);
