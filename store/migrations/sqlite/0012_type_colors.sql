-- A team's page-type colours: every type its plans have used, in the
-- order first used (position), with the colour the team chose ('': the
-- default that order gives, site.NewPalette). A type is added the first
-- time a page of any of the team's projects takes it, by the triggers
-- below, so that every write path (edits, imports, pastes, undo) keeps
-- the palette whole. Not part of any plan: no history.
CREATE TABLE type_colors (
	team_id  INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
	type     TEXT NOT NULL,
	color    TEXT NOT NULL DEFAULT '',
	position INTEGER NOT NULL,
	PRIMARY KEY (team_id, type)
) WITHOUT ROWID;

INSERT INTO type_colors (team_id, type, position)
SELECT team_id, type, row_number() OVER (PARTITION BY team_id ORDER BY first) - 1
FROM (SELECT pr.team_id, p.type, min(p.id) AS first
	FROM pages p JOIN projects pr ON pr.id = p.project_id
	WHERE p.type != '' GROUP BY pr.team_id, p.type);

CREATE TRIGGER pages_type_color_insert AFTER INSERT ON pages
WHEN NEW.type != '' AND NOT EXISTS (SELECT 1 FROM type_colors
	WHERE team_id = (SELECT team_id FROM projects WHERE id = NEW.project_id) AND type = NEW.type)
BEGIN
	INSERT INTO type_colors (team_id, type, position)
	SELECT pr.team_id, NEW.type, coalesce((SELECT max(position) + 1 FROM type_colors WHERE team_id = pr.team_id), 0)
	FROM projects pr WHERE pr.id = NEW.project_id;
END;

CREATE TRIGGER pages_type_color_update AFTER UPDATE OF type ON pages
WHEN NEW.type != '' AND NOT EXISTS (SELECT 1 FROM type_colors
	WHERE team_id = (SELECT team_id FROM projects WHERE id = NEW.project_id) AND type = NEW.type)
BEGIN
	INSERT INTO type_colors (team_id, type, position)
	SELECT pr.team_id, NEW.type, coalesce((SELECT max(position) + 1 FROM type_colors WHERE team_id = pr.team_id), 0)
	FROM projects pr WHERE pr.id = NEW.project_id;
END;
