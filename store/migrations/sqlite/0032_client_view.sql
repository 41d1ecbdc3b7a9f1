-- What a share link shows its visitor: the downloads it allows
-- (site.ShareDownloads, space-separated) and the page statuses it shows
-- (others read as none). Links made before keep what they had: the
-- diagram as PDF and PNG, no statuses.
ALTER TABLE share_links ADD COLUMN downloads TEXT NOT NULL DEFAULT 'pdf png';
ALTER TABLE share_links ADD COLUMN statuses TEXT NOT NULL DEFAULT '';
-- A sign-off's fingerprint of what its signer saw of the signed branch
-- when signing (site.Digest in the signer's projection): "changed since
-- approval" is a change of it, never an edit made before the sign-off.
-- NULL for the sign-offs made before: they compare with the version.
ALTER TABLE approvals ADD COLUMN seen_digest TEXT;
-- When a member was last e-mailed their notifications: the next instant
-- e-mail waits site.MailInstantEvery after it (a flood of mentions is one
-- e-mail).
ALTER TABLE users ADD COLUMN mailed_at TEXT;
-- A launch check's credentials for its site (user:password of a base
-- URL such as https://user:pass@staging.example/), kept apart from its
-- base, which is shown: used by the check, never shown, cleared when the
-- job ends.
ALTER TABLE site_jobs ADD COLUMN credentials TEXT NOT NULL DEFAULT '';
