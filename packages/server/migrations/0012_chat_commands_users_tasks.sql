-- Issue 5, the rest: commands, batch tasks, user blocks, user deletion, long-poll across nodes.

-- Slash commands (`/chat/commands`); a channel type's `commands: ["all"]` lists every row here.
CREATE TABLE chat_commands (
  name text PRIMARY KEY,
  description text NOT NULL DEFAULT '',
  args text NOT NULL DEFAULT '',
  -- A group name clients may use to bundle commands (e.g. 'moderation_set'); free text.
  "set" text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Batch operations (POST /chat/channels/delete, POST /chat/users/delete) answer a task id; GET /chat/tasks/{id}.
CREATE TABLE chat_tasks (
  id text PRIMARY KEY,
  type text NOT NULL,
  -- 'waiting', 'pending', 'completed' or 'failed'.
  status text NOT NULL,
  result jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_tasks_created_idx ON chat_tasks (created_at);

-- A user blocks another (POST /chat/users/block): see docs/chat-api.md notes for what it does.
CREATE TABLE chat_user_blocks (
  user_id text NOT NULL REFERENCES chat_users (id) ON DELETE CASCADE,
  blocked_user_id text NOT NULL REFERENCES chat_users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, blocked_user_id)
);
CREATE INDEX chat_user_blocks_blocked_idx ON chat_user_blocks (blocked_user_id);

-- Hard-deleting a user keeps the messages of others' conversations readable (author unknown) unless the messages
-- are deleted too, and the channels they created.
ALTER TABLE chat_messages DROP CONSTRAINT chat_messages_user_id_fkey;
ALTER TABLE chat_messages ADD CONSTRAINT chat_messages_user_id_fkey
  FOREIGN KEY (user_id) REFERENCES chat_users (id) ON DELETE SET NULL;
ALTER TABLE chat_channels DROP CONSTRAINT chat_channels_created_by_id_fkey;
ALTER TABLE chat_channels ADD CONSTRAINT chat_channels_created_by_id_fkey
  FOREIGN KEY (created_by_id) REFERENCES chat_users (id) ON DELETE SET NULL;

-- Long-poll connections across nodes: the node that opened one keeps its watch state and queues its frames here,
-- so a poll may land on any node. `polled_at` is refreshed by every poll; frames are kept at most 60 s.
CREATE TABLE chat_longpoll_connections (
  connection_id text PRIMARY KEY,
  user_id text NOT NULL,
  polled_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE chat_longpoll_frames (
  seq bigserial PRIMARY KEY,
  connection_id text NOT NULL REFERENCES chat_longpoll_connections (connection_id) ON DELETE CASCADE,
  frame text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_longpoll_frames_conn_idx ON chat_longpoll_frames (connection_id, seq);
CREATE INDEX chat_longpoll_frames_created_idx ON chat_longpoll_frames (created_at);

-- The member blocked the other member of this two-person channel (shown as `blocked` to them; the channel is hidden).
ALTER TABLE chat_members ADD COLUMN blocked boolean NOT NULL DEFAULT false;
