-- A project's page count is kept on the project, so that reading a
-- project (on every request to it) does not count a large plan's pages
-- again: that took 20 ms for 300,000 pages. Triggers keep it on every
-- write, whichever statement adds or removes pages.
ALTER TABLE projects ADD COLUMN page_count INTEGER NOT NULL DEFAULT 0;
UPDATE projects SET page_count = (SELECT count(*) FROM pages WHERE project_id = projects.id);
CREATE TRIGGER pages_counted AFTER INSERT ON pages BEGIN
	UPDATE projects SET page_count = page_count + 1 WHERE id = NEW.project_id;
END;
CREATE TRIGGER pages_uncounted AFTER DELETE ON pages BEGIN
	UPDATE projects SET page_count = page_count - 1 WHERE id = OLD.project_id;
END;
