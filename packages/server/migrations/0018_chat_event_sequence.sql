-- Per-channel event sequence (docs/ARCHITECTURE.md "Event sequence and sync").
-- Every recorded channel event takes the next number of its channel's counter `chat_channels.last_seq`, inside the
-- write's transaction and under the channel row's lock, so the numbers of a channel are consecutive and in commit
-- order. A message's `seq` is the seq of its `message.new` event: one counter orders both.

ALTER TABLE chat_channels ADD COLUMN last_seq bigint NOT NULL DEFAULT 0;

-- Messages: numbered per channel (was one global sequence), in their old order.
ALTER TABLE chat_messages DROP CONSTRAINT chat_messages_seq_key;
ALTER TABLE chat_messages ALTER COLUMN seq DROP DEFAULT;
DROP SEQUENCE IF EXISTS chat_messages_seq_seq;
UPDATE chat_messages m SET seq = r.n
  FROM (SELECT id, row_number() OVER (PARTITION BY cid ORDER BY seq) AS n FROM chat_messages) r
 WHERE m.id = r.id;
ALTER TABLE chat_messages ADD CONSTRAINT chat_messages_cid_seq_key UNIQUE (cid, seq);
DROP INDEX chat_messages_channel_idx;
UPDATE chat_channels c SET last_seq = coalesce((SELECT max(seq) FROM chat_messages m WHERE m.cid = c.cid), 0);

-- A member's place in the stream: sync gives a member nothing from before they joined (the channel's counter when
-- the row was made, set by the trigger below whoever inserts the row).
ALTER TABLE chat_members ADD COLUMN joined_seq bigint NOT NULL DEFAULT 0;
UPDATE chat_members m SET joined_seq = c.last_seq FROM chat_channels c WHERE c.cid = m.cid;
CREATE FUNCTION chat_members_joined_seq() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.joined_seq := coalesce((SELECT last_seq FROM chat_channels WHERE cid = NEW.cid), 0);
  RETURN NEW;
END $$;
CREATE TRIGGER chat_members_joined_seq BEFORE INSERT ON chat_members
  FOR EACH ROW EXECUTE FUNCTION chat_members_joined_seq();

-- The event table holds references, not copies: a message event names its message (`message_id`) and keeps only
-- its own small fields in `payload`; sync presents the message as it is now. Events recorded before this
-- migration had no channel sequence: they are dropped (a client that synced before the upgrade re-queries).
-- `id` orders everything (the per-user notification cursor); `seq` is set on channel events, NULL on a user's
-- notifications (`user_id` set).
DROP TABLE chat_events;
CREATE TABLE chat_events (
  id bigserial PRIMARY KEY,
  cid text,
  seq bigint,
  user_id text,
  type text NOT NULL,
  message_id text,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((cid IS NOT NULL AND seq IS NOT NULL AND user_id IS NULL) OR (user_id IS NOT NULL AND seq IS NULL))
);
CREATE UNIQUE INDEX chat_events_channel_idx ON chat_events (cid, seq) WHERE cid IS NOT NULL;
CREATE INDEX chat_events_user_idx ON chat_events (user_id, id) WHERE user_id IS NOT NULL;
CREATE INDEX chat_events_created_idx ON chat_events (created_at);

-- Scheduled jobs (event pruning, ...): one row per job name, claimed by one node at a time when due.
CREATE TABLE chat_jobs (
  name text PRIMARY KEY,
  run_at timestamptz NOT NULL,
  locked_until timestamptz,
  last_run_at timestamptz,
  last_error text
);
