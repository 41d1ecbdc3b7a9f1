-- A task's time limit ends it with a "timeout" event: SQLite changes a
-- CHECK only by building the table again.
CREATE TABLE study_events_new (
    id             INTEGER PRIMARY KEY,
    study_id       INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
    participant_id INTEGER NOT NULL REFERENCES study_participants(id) ON DELETE CASCADE,
    task           TEXT NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('start', 'open', 'close', 'choose', 'skip', 'timeout', 'confidence')),
    page_id        INTEGER NOT NULL DEFAULT 0, -- the page; a confidence's answer (1-7)
    at_ms          INTEGER NOT NULL
);
INSERT INTO study_events_new (id, study_id, participant_id, task, kind, page_id, at_ms)
    SELECT id, study_id, participant_id, task, kind, page_id, at_ms FROM study_events;
DROP TABLE study_events;
ALTER TABLE study_events_new RENAME TO study_events;
CREATE INDEX study_events_study ON study_events (study_id, id);
CREATE INDEX study_events_participant ON study_events (participant_id, id);
