-- A plan's search reads an index, not the plan (Pages.Search): each
-- page's title folded (site.SearchKey), whose prefixes a B-tree finds
-- in title order, and its words (site.SearchWords) in a full-text index
-- that finds the pages with a word starting so. The store writes both
-- columns with the title and slug (here, for the pages kept before, a
-- step in Go: goSteps); 0035 indexes them and adds the triggers that
-- keep the full-text index, whose content is the pages table's (and
-- which keeps no sizes of the documents, columnsize=0: the search does
-- not rank by them, and an import writes a page a little faster).
ALTER TABLE pages ADD COLUMN search_key TEXT NOT NULL DEFAULT '';
ALTER TABLE pages ADD COLUMN search_words TEXT NOT NULL DEFAULT '';
CREATE INDEX pages_search_key ON pages (project_id, search_key);
CREATE VIRTUAL TABLE page_search USING fts5(search_words, content='pages', content_rowid='id', tokenize='unicode61 remove_diacritics 0', columnsize=0);
