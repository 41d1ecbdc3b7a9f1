-- SQLite's 0025 rewrites an index the PostgreSQL schema (0024) already
-- has in its new form.
SELECT 1;
