-- Chat token revocations (sign-out, deactivation, deletion): the user's chat tokens issued (`iat`) before
-- `revoked_before` (Unix seconds) are refused. The database is the truth; each node keeps them in memory, learns a
-- new one over the bus at once and from this table within seconds (a node that missed the bus message, a node that
-- restarted). One row per user (the latest revocation covers the earlier ones); a row goes once `expires_at` passed,
-- when every token it refuses has expired too.
CREATE TABLE chat_token_revocations (
  user_id text PRIMARY KEY,
  revoked_before bigint NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX chat_token_revocations_recorded_idx ON chat_token_revocations (recorded_at);
CREATE INDEX chat_token_revocations_expires_idx ON chat_token_revocations (expires_at);

-- Each node also follows deactivated and deleted users from the users changed since its last look.
CREATE INDEX chat_users_updated_idx ON chat_users (updated_at);
