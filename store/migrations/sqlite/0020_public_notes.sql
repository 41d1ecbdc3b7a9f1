-- Whether a page's notes are for the client too (site.Page.NotesPublic):
-- a share link shows them on the page's card; notes are the team's
-- unless the team says so.
ALTER TABLE pages ADD COLUMN notes_public INTEGER NOT NULL DEFAULT 0;
