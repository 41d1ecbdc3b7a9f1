-- A sign-off of a localized plan names the locale its signer read the
-- plan in ('' for the default locale's): a client signs off one market.
ALTER TABLE approvals ADD COLUMN locale TEXT NOT NULL DEFAULT '';
-- The outline in a locale reads the titles and states of a plan's
-- variants there from the index alone, not a row each (10,000 rows'
-- were a quarter of the outline's time).
DROP INDEX page_variants_project;
CREATE INDEX page_variants_project ON page_variants (project_id, tag, page_id, state, title);
