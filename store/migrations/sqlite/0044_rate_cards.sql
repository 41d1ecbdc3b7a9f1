-- Rate cards (site.RateCard): a team's, and a project's that replaces it;
-- a version keeps the card in force when it was named, so its estimate
-- is the one its sign-off approved, whatever the card says later.
CREATE TABLE rate_cards (
    id         INTEGER PRIMARY KEY,
    team_id    INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE, -- NULL: the team's
    card       TEXT NOT NULL,                                     -- as ParseRateCard reads it
    updated_at TEXT NOT NULL,
    updated_by TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX rate_cards_team ON rate_cards (team_id) WHERE project_id IS NULL;
CREATE UNIQUE INDEX rate_cards_project ON rate_cards (project_id) WHERE project_id IS NOT NULL;
ALTER TABLE versions ADD COLUMN rate_card TEXT NOT NULL DEFAULT '';
