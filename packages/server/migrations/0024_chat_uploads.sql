-- Issue 14: stored files. One row per uploaded file; the bytes live in platform/storage under `storage_key` (and the
-- thumbnail or poster under `thumb_key`). An upload belongs to its owner until a message carries it; from then on it
-- is readable by whoever may read that message's channel (policy/read-access), and it goes with the message:
-- deleted with a hard delete, hidden with a soft delete. Uploads never attached expire (chat jobs).
CREATE TABLE chat_uploads (
  id text PRIMARY KEY,
  owner_id text NOT NULL,
  -- The channel of a channel upload (`/channels/{type}/{id}/file`); null for `/uploads/*`.
  cid text REFERENCES chat_channels (cid) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('file', 'image')),
  -- The file name the client gave (sanitised), shown and used for downloads.
  name text NOT NULL,
  -- The type sniffed from the content (never the declared one).
  mime_type text NOT NULL,
  size bigint NOT NULL,
  storage_key text NOT NULL,
  thumb_key text,
  width integer,
  height integer,
  duration double precision,
  -- The message that carries the file (set on send or edit by the owner).
  message_id text,
  -- hidden: the message was soft deleted; the file is kept but served to nobody.
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'hidden')),
  created_at timestamptz NOT NULL DEFAULT now(),
  attached_at timestamptz
);
CREATE INDEX chat_uploads_message_idx ON chat_uploads (message_id) WHERE message_id IS NOT NULL;
CREATE INDEX chat_uploads_unattached_idx ON chat_uploads (created_at) WHERE message_id IS NULL;

-- The app's upload configurations (`GET/PATCH /chat/app`): one row.
CREATE TABLE chat_app_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  image_upload_config jsonb NOT NULL DEFAULT '{}',
  file_upload_config jsonb NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO chat_app_settings DEFAULT VALUES;
