-- What the URL rule reads on every write (store/urls.go): the pages with
-- a given slug or a numbered variant of it, and those with a path
-- override or an empty slug.
CREATE INDEX pages_slug ON pages(project_id, slug);
CREATE INDEX pages_open_url ON pages(project_id) WHERE path != '' OR slug = '';
