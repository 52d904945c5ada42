-- Members, messages and threads (issue 5 items 3-5).

-- Timed channel mutes: muted until this instant (NULL = until unmuted).
ALTER TABLE chat_members ADD COLUMN mute_expires timestamptz;

-- Undelete restores the type a message had before a soft delete.
ALTER TABLE chat_messages ADD COLUMN deleted_type text;

-- Full-text search over message text (GET /chat/search); 'simple' keeps every language's words as typed.
ALTER TABLE chat_messages
  ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce(text, ''))) STORED;
CREATE INDEX chat_messages_search_idx ON chat_messages USING gin (search_tsv);

-- Flags: one per user and message (POST /chat/moderation/flag); review comes with moderation (later issue).
CREATE TABLE chat_flags (
  message_id text NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES chat_users (id) ON DELETE CASCADE,
  reason text,
  custom jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (message_id, user_id)
);

-- Thread data beyond the parent message: title and custom fields (PATCH /chat/threads/{id}).
CREATE TABLE chat_threads (
  parent_id text PRIMARY KEY REFERENCES chat_messages (id) ON DELETE CASCADE,
  cid text NOT NULL REFERENCES chat_channels (cid) ON DELETE CASCADE,
  title text,
  custom jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Per-user read state of a thread.
CREATE TABLE chat_thread_reads (
  parent_id text NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES chat_users (id) ON DELETE CASCADE,
  last_read timestamptz NOT NULL DEFAULT now(),
  last_read_message_id text,
  unread_count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (parent_id, user_id)
);
CREATE INDEX chat_thread_reads_user_idx ON chat_thread_reads (user_id) WHERE unread_count > 0;

-- Hide with clear_history: the member no longer sees messages up to this instant.
ALTER TABLE chat_members ADD COLUMN history_cleared_at timestamptz;
