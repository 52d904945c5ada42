-- First-run setup (issue 15). One row, taken by the setup request that creates the first account: a second
-- request finds it taken and is refused, on PGlite and on PostgreSQL shared by many nodes alike. A claim that
-- never completed (the process died half way) may be taken over after a while.
CREATE TABLE instance_setup (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  claim text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  user_id text,
  organization_id text
);

-- When the invite mail last went out: re-sending waits a little, so the button is no way to flood an inbox.
ALTER TABLE organization_invites ADD COLUMN last_sent_at timestamptz;
