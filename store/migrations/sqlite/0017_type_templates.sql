-- A page type's template: the content blocks a page of the type starts
-- with (site.Block, JSON; '' for none). Beside the type's colour: both
-- are the team's, not part of any plan.
ALTER TABLE type_colors ADD COLUMN blocks TEXT NOT NULL DEFAULT '';
