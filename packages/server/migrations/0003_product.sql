-- The product's domain (product-spec §3): organizations, case plans, teams, roles, memberships, statistics.

CREATE TABLE organizations (
  id text PRIMARY KEY,
  eid text UNIQUE,
  name text NOT NULL,
  created timestamptz NOT NULL DEFAULT now(),
  updated timestamptz NOT NULL DEFAULT now()
);

-- One row per person in an organization. `type` is 'admin', 'member', 'client' or 'guest'; NULL means
-- "active without a user entry", which product-spec §5 counts as organization admin.
CREATE TABLE organization_users (
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES "user" ("id") ON DELETE CASCADE,
  type text CHECK (type IN ('admin', 'member', 'client', 'guest')),
  active boolean NOT NULL DEFAULT true,
  created timestamptz NOT NULL DEFAULT now(),
  updated timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX organization_users_user_idx ON organization_users (user_id);

CREATE TABLE caseplans (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  created_by text NOT NULL REFERENCES "user" ("id"),
  custom jsonb NOT NULL DEFAULT '{}'::jsonb,
  closed boolean NOT NULL DEFAULT false,
  created timestamptz NOT NULL DEFAULT now(),
  updated timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX caseplans_organization_idx ON caseplans (organization_id);

CREATE TABLE teams (
  id text PRIMARY KEY,
  caseplan_id text NOT NULL REFERENCES caseplans (id) ON DELETE CASCADE,
  organization_id text NOT NULL REFERENCES organizations (id),
  name text NOT NULL
);
CREATE INDEX teams_caseplan_idx ON teams (caseplan_id);

CREATE TABLE roles (
  id text PRIMARY KEY,
  caseplan_id text NOT NULL REFERENCES caseplans (id) ON DELETE CASCADE,
  name text NOT NULL,
  client boolean NOT NULL DEFAULT false,
  temp_name text,
  team_id text REFERENCES teams (id),
  user_id text REFERENCES "user" ("id"),
  invite text
);
CREATE INDEX roles_caseplan_idx ON roles (caseplan_id);

CREATE TABLE caseplan_users (
  caseplan_id text NOT NULL REFERENCES caseplans (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES "user" ("id") ON DELETE CASCADE,
  role_id text REFERENCES roles (id),
  team_id text REFERENCES teams (id),
  active boolean NOT NULL DEFAULT true,
  client boolean NOT NULL DEFAULT false,
  created timestamptz NOT NULL DEFAULT now(),
  updated timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (caseplan_id, user_id)
);
CREATE INDEX caseplan_users_user_idx ON caseplan_users (user_id) WHERE active;

CREATE TABLE caseplan_stats (
  caseplan_id text NOT NULL REFERENCES caseplans (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES "user" ("id") ON DELETE CASCADE,
  last_opened_at timestamptz,
  last_message_sent_at timestamptz,
  last_message_to_client_at timestamptz,
  updated timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (caseplan_id, user_id)
);
