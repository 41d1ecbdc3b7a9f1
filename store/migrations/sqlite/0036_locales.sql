-- A localized plan (site/locale.go): the project's locales as a JSON
-- list of site.Locale ('' for a one-language plan), the page hreflang's
-- x-default points at (NULL: each page's variant in the default
-- locale), and each page's variants by locale tag. A page with no row
-- for a locale is planned there under its own title and slugs.
ALTER TABLE projects ADD COLUMN locales TEXT NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN x_default INTEGER;
CREATE TABLE page_variants (
    page_id          INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    project_id       INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    tag              TEXT NOT NULL,
    title            TEXT NOT NULL DEFAULT '',
    slug             TEXT NOT NULL DEFAULT '',
    path             TEXT NOT NULL DEFAULT '',
    state            TEXT NOT NULL DEFAULT 'planned' CHECK (state IN ('planned', 'translating', 'ready', 'not_offered')),
    seo_title        TEXT NOT NULL DEFAULT '',
    meta_description TEXT NOT NULL DEFAULT '',
    h1               TEXT NOT NULL DEFAULT '',
    keyword          TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (page_id, tag)
);
CREATE INDEX page_variants_project ON page_variants (project_id, tag);
