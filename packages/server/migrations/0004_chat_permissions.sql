-- Channel types, roles and permission rules (chat-spec §6), stored instead of hard-coded.
-- The built-in permission rules are written by the server at start (src/chat/policy/rules.ts, ON CONFLICT DO NOTHING),
-- so that the unit tests and the database share one definition.

CREATE TABLE chat_channel_types (
  name text PRIMARY KEY,
  -- Settings that differ from the defaults (protocol DEFAULT_CHANNEL_TYPE_SETTINGS); {} = all defaults.
  config jsonb NOT NULL DEFAULT '{}'::jsonb,
  builtin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO chat_channel_types (name, builtin) VALUES ('messaging', true), ('team', true);

-- A type in use cannot be deleted.
ALTER TABLE chat_channels ADD CONSTRAINT chat_channels_type_fk FOREIGN KEY (type) REFERENCES chat_channel_types (name);

CREATE TABLE chat_roles (
  name text PRIMARY KEY,
  -- 'global' (chat_users.role) or 'channel' (chat_members.channel_role).
  scope text NOT NULL CHECK (scope IN ('global', 'channel')),
  custom boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO chat_roles (name, scope, custom) VALUES
  ('user', 'global', false), ('admin', 'global', false), ('guest', 'global', false), ('anonymous', 'global', false),
  ('channel_member', 'channel', false), ('channel_moderator', 'channel', false), ('owner', 'channel', false);

CREATE TABLE chat_permissions (
  id text PRIMARY KEY,
  name text NOT NULL,
  action text NOT NULL CHECK (action IN ('Allow', 'Deny')),
  -- Applies only when the viewer owns the channel.
  owner boolean NOT NULL DEFAULT false,
  priority integer NOT NULL,
  -- Capability names or '*'.
  resources text[] NOT NULL,
  -- Global or channel role names or '*'.
  roles text[] NOT NULL,
  -- NULL = every channel type.
  channel_type text REFERENCES chat_channel_types (name) ON DELETE CASCADE,
  builtin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_permissions_type_idx ON chat_permissions (channel_type);
