-- A task's time limit ends it with a "timeout" event.
ALTER TABLE study_events DROP CONSTRAINT study_events_kind_check;
ALTER TABLE study_events ADD CONSTRAINT study_events_kind_check
    CHECK (kind IN ('start', 'open', 'close', 'choose', 'skip', 'timeout', 'confidence'));
