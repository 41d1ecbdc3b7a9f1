-- The words 0034 wrote, indexed at once; from now on the triggers keep
-- the index as the pages change. (Written before the triggers: a
-- trigger's 'delete' of words never indexed breaks the index.)
INSERT INTO page_search (page_search) VALUES ('rebuild');
CREATE TRIGGER pages_search_insert AFTER INSERT ON pages BEGIN
    INSERT INTO page_search (rowid, search_words) VALUES (new.id, new.search_words);
END;
CREATE TRIGGER pages_search_delete AFTER DELETE ON pages BEGIN
    INSERT INTO page_search (page_search, rowid, search_words) VALUES ('delete', old.id, old.search_words);
END;
CREATE TRIGGER pages_search_update AFTER UPDATE OF search_words ON pages BEGIN
    INSERT INTO page_search (page_search, rowid, search_words) VALUES ('delete', old.id, old.search_words);
    INSERT INTO page_search (rowid, search_words) VALUES (new.id, new.search_words);
END;
