-- Message edit history (`POST /chat/messages/history`): each edit of a message's text or attachments keeps the
-- version it replaced. A version says who made it and when (the author at send time, then each editor); the edit
-- that replaced it is kept too, so the next entry knows who made the version it replaces.
-- Rows go with their message (hard delete, channel delete), so a deleted message leaves no old versions behind.
CREATE TABLE chat_message_history (
  seq bigserial PRIMARY KEY,
  message_id text NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
  text text NOT NULL,
  attachments jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- Who made this version and when (null: the server, without a user).
  message_updated_by_id text,
  message_updated_at timestamptz NOT NULL,
  -- The edit that replaced this version.
  replaced_by_id text,
  replaced_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_message_history_message_idx ON chat_message_history (message_id, message_updated_at, seq);
