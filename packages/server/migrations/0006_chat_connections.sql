-- Connection extras (issue 5 item 1): presence across nodes and push devices.

-- One row per open connection (socket or long-poll) on any node; the node refreshes `seen_at` every ping
-- interval, so rows of a node that died stop counting after a while. A user is online while a fresh row exists.
CREATE TABLE chat_presence (
  connection_id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES chat_users (id) ON DELETE CASCADE,
  seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_presence_user_idx ON chat_presence (user_id, seen_at);

CREATE TABLE chat_devices (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES chat_users (id) ON DELETE CASCADE,
  push_provider text NOT NULL,
  push_provider_name text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_devices_user_idx ON chat_devices (user_id);
