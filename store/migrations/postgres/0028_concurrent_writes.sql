-- Writes to different projects run side by side on PostgreSQL: two
-- projects of one team may bring in the same new page type at once. The
-- second's insert into the palette then finds the first's and keeps it.
CREATE OR REPLACE FUNCTION pages_type_color() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.type != '' AND NOT EXISTS (SELECT 1 FROM type_colors
		WHERE team_id = (SELECT team_id FROM projects WHERE id = NEW.project_id) AND type = NEW.type) THEN
		INSERT INTO type_colors (team_id, type, position)
		SELECT pr.team_id, NEW.type, coalesce((SELECT max(position) + 1 FROM type_colors WHERE team_id = pr.team_id), 0)
		FROM projects pr WHERE pr.id = NEW.project_id
		ON CONFLICT (team_id, type) DO NOTHING;
	END IF;
	RETURN NULL;
END $$;

-- The planner took json_each's lists for 1,000 rows (a set-returning
-- function's default): a page's subtree walk then looked like millions of
-- rows, was planned as hash joins over every page and compiled by the
-- JIT, 20 ms of the 27 an edit of a 10,000-page plan took. The lists the
-- store passes are mostly a few ids.
ALTER FUNCTION json_each(TEXT) ROWS 1;
