-- Every request reads its session with the user's teams (memberships by
-- user), and the comments panel the names of the guests who commented
-- through share links (comments by project, only theirs): without these
-- both scan their whole table.
CREATE INDEX memberships_user ON memberships(user_id);
CREATE INDEX comments_guests ON comments(project_id, author) WHERE share_link_id IS NOT NULL;
