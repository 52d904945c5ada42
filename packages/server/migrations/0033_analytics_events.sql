-- Analytics events of product-spec §7 (issue 15): "chat opened" and "chat message sent", the database sink (the
-- default; the organization admins' weekly page reads it). Who, where and when only: never a message's text.
CREATE TABLE analytics_events (
  id bigserial PRIMARY KEY,
  name text NOT NULL CHECK (name IN ('chat_opened', 'chat_message_sent')),
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- The chat's case plans at the time (its custom `caseplans`); empty for a chat tied to none.
  caseplan_ids text[] NOT NULL DEFAULT '{}',
  user_id text NOT NULL,
  cid text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX analytics_events_organization_at ON analytics_events (organization_id, at);
