-- A page's brief (site.Brief): its SEO fields, content blocks, word
-- target, owner and due date, its fields cut by control characters
-- (store/pages.go, briefText; '' for an empty brief). It is a
-- field of the page like its notes: changes and versions keep it.
ALTER TABLE pages ADD COLUMN brief TEXT NOT NULL DEFAULT '';
