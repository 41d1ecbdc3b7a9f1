-- Who signed: a member of the team with their account, or a visitor
-- through a share link (its label as it was then); and whether the team
-- voided the sign-off. signer is 'member', 'link' or '' (before this).
ALTER TABLE approvals ADD COLUMN signer TEXT NOT NULL DEFAULT '';
ALTER TABLE approvals ADD COLUMN user_id INTEGER REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE approvals ADD COLUMN link_label TEXT NOT NULL DEFAULT '';
ALTER TABLE approvals ADD COLUMN voided_at TEXT;
ALTER TABLE approvals ADD COLUMN voided_by TEXT NOT NULL DEFAULT '';
UPDATE approvals SET signer = 'link' WHERE share_link_id IS NOT NULL;
