-- As SQLite's.
CREATE INDEX memberships_user ON memberships(user_id);
CREATE INDEX comments_guests ON comments(project_id, author) WHERE share_link_id IS NOT NULL;
