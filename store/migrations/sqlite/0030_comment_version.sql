-- Counts the comments written and resolved on a project's pages: with
-- projects.version, what the outline shows of a plan, so that a server
-- may keep the outline it rendered until either changes.
ALTER TABLE projects ADD COLUMN comment_version INTEGER NOT NULL DEFAULT 0;
