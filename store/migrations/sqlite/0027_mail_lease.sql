-- An instance that e-mails notifications holds them until mail_lease_until,
-- so that another instance on the database does not send them too.
ALTER TABLE notifications ADD COLUMN mail_lease_until TEXT;
