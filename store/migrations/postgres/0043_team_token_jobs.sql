-- A launch check or reading started with a team token is the token's,
-- not a person's: user_id is NULL then and token_id names the token, one
-- job not ended at a time each, as a person has.
ALTER TABLE site_jobs ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE site_jobs ADD COLUMN token_id BIGINT REFERENCES api_tokens(id) ON DELETE CASCADE;
ALTER TABLE site_jobs ADD CONSTRAINT site_jobs_owner CHECK (user_id IS NOT NULL OR token_id IS NOT NULL);
CREATE UNIQUE INDEX site_jobs_one_per_token ON site_jobs(token_id) WHERE ended IS NULL AND user_id IS NULL;
