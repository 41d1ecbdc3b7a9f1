-- The pages of a project by slug (what the URL rule reads on every
-- write, store/urls.go) move from an index on pages to a table of their
-- own, so that an import can fill it at once, in slug order, when it
-- commits: a million slugs inserted one by one, in outline order, land
-- all over the index, and each chunk of the import wrote most of it
-- again (5 of 12 s of writing 1,000,000 pages). Triggers keep it on every
-- other write, whichever statement adds, renames or removes pages.
--
-- The pages of a project being imported (projects.importing) are neither
-- in it nor counted in page_count until the import commits, which adds
-- them all (Import.commit).
CREATE TABLE page_slugs (
    project_id INTEGER NOT NULL,
    slug       TEXT NOT NULL,
    page_id    INTEGER NOT NULL,
    PRIMARY KEY (project_id, slug, page_id)
) WITHOUT ROWID;
INSERT INTO page_slugs (project_id, slug, page_id)
    SELECT p.project_id, p.slug, p.id FROM pages p JOIN projects pr ON pr.id = p.project_id
    WHERE NOT pr.importing ORDER BY 1, 2, 3;
DROP INDEX pages_slug;

-- A page is counted and listed by slug by one trigger, not two: each
-- looks its project up, for every page of a plan pasted or restored.
-- A page whose project is gone (deleted, and its pages with it) is
-- removed as any other.
DROP TRIGGER pages_counted;
DROP TRIGGER pages_uncounted;
CREATE TRIGGER pages_added AFTER INSERT ON pages
WHEN (SELECT importing FROM projects WHERE id = NEW.project_id) IS NOT 1 BEGIN
	UPDATE projects SET page_count = page_count + 1 WHERE id = NEW.project_id;
	INSERT INTO page_slugs (project_id, slug, page_id) VALUES (NEW.project_id, NEW.slug, NEW.id);
END;
CREATE TRIGGER pages_renamed AFTER UPDATE OF project_id, slug ON pages
WHEN (OLD.slug != NEW.slug OR OLD.project_id != NEW.project_id)
	AND (SELECT importing FROM projects WHERE id = NEW.project_id) IS NOT 1 BEGIN
	DELETE FROM page_slugs WHERE project_id = OLD.project_id AND slug = OLD.slug AND page_id = OLD.id;
	INSERT INTO page_slugs (project_id, slug, page_id) VALUES (NEW.project_id, NEW.slug, NEW.id);
END;
CREATE TRIGGER pages_removed AFTER DELETE ON pages
WHEN (SELECT importing FROM projects WHERE id = OLD.project_id) IS NOT 1 BEGIN
	UPDATE projects SET page_count = page_count - 1 WHERE id = OLD.project_id;
	DELETE FROM page_slugs WHERE project_id = OLD.project_id AND slug = OLD.slug AND page_id = OLD.id;
END;
