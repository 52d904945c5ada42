-- The rest of the product's domain (product-spec §3-§5, issue 4): closing history, events, settings documents,
-- organization invites, the session's selection and the append-only audit log.

-- Who closed or reopened a case plan, when, and why; the newest row is the case plan's current state.
CREATE TABLE caseplan_closings (
  id bigserial PRIMARY KEY,
  caseplan_id text NOT NULL REFERENCES caseplans (id) ON DELETE CASCADE,
  action text NOT NULL CHECK (action IN ('close', 'reopen')),
  by_user text NOT NULL REFERENCES "user" ("id"),
  reason text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX caseplan_closings_caseplan_idx ON caseplan_closings (caseplan_id, id DESC);

-- Events on a case plan: attendees are roles (optional or not), answers are per user.
CREATE TABLE events (
  id text PRIMARY KEY,
  caseplan_id text NOT NULL REFERENCES caseplans (id) ON DELETE CASCADE,
  title text NOT NULL,
  description text,
  location text,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz,
  created_by text NOT NULL REFERENCES "user" ("id"),
  created timestamptz NOT NULL DEFAULT now(),
  updated timestamptz NOT NULL DEFAULT now(),
  CHECK (ends_at IS NULL OR ends_at >= starts_at)
);
CREATE INDEX events_caseplan_idx ON events (caseplan_id, starts_at);

CREATE TABLE event_attendees (
  event_id text NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  role_id text NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
  optional boolean NOT NULL DEFAULT false,
  PRIMARY KEY (event_id, role_id)
);

CREATE TABLE event_rsvps (
  event_id text NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES "user" ("id") ON DELETE CASCADE,
  response text NOT NULL CHECK (response IN ('yes', 'no', 'maybe')),
  updated timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (event_id, user_id)
);

-- Organization settings documents (product-spec §3): a JSON Schema per document.
CREATE TABLE organization_settings (
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  doc text NOT NULL CHECK (doc IN ('client-fields', 'caseplan-fields')),
  schema jsonb NOT NULL,
  created timestamptz NOT NULL DEFAULT now(),
  updated timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, doc)
);

-- Invitations to an organization by e-mail address, claimed when an account with that (verified) address
-- signs in. One open invite per address and organization.
CREATE TABLE organization_invites (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  email text NOT NULL,
  type text NOT NULL CHECK (type IN ('admin', 'member', 'client', 'guest')),
  invited_by text NOT NULL REFERENCES "user" ("id"),
  created timestamptz NOT NULL DEFAULT now(),
  accepted_by text REFERENCES "user" ("id"),
  accepted_at timestamptz
);
CREATE UNIQUE INDEX organization_invites_open_idx ON organization_invites (organization_id, lower(email))
  WHERE accepted_at IS NULL;

-- The session's selection (product-spec §4): the case plan and organization a user has open.
CREATE TABLE session_selections (
  user_id text PRIMARY KEY REFERENCES "user" ("id") ON DELETE CASCADE,
  caseplan_id text REFERENCES caseplans (id) ON DELETE SET NULL,
  organization_id text REFERENCES organizations (id) ON DELETE SET NULL,
  updated timestamptz NOT NULL DEFAULT now()
);

-- Append-only record of every change to an organization, case plan, role, team, membership or setting.
-- No foreign keys: the log outlives what it describes.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  organization_id text NOT NULL,
  caseplan_id text,
  actor_id text NOT NULL,
  action text NOT NULL,
  entity text NOT NULL,
  entity_id text NOT NULL,
  before jsonb,
  after jsonb,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_organization_idx ON audit_log (organization_id, id DESC);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$;
CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
