-- Accounts and sign-in (issue 3): the user's language, the dev outbox, rate limits, uploaded photos.

-- The language mails are written in (BCP 47 tag such as 'en' or 'nb'); NULL means English.
ALTER TABLE profiles ADD COLUMN language text;

-- Mail sent without SMTP_URL (development): readable at /dev/mail, shared by every node.
CREATE TABLE dev_outbox (
  id bigserial PRIMARY KEY,
  "to" text NOT NULL,
  subject text NOT NULL,
  text text NOT NULL,
  html text NOT NULL,
  date timestamptz NOT NULL DEFAULT now()
);

-- better-auth's per-IP rate limiter (storage 'database'): one row per key = IP + path.
CREATE TABLE "rateLimit" (
  "id" text NOT NULL PRIMARY KEY,
  "key" text NOT NULL UNIQUE,
  "count" integer NOT NULL,
  "lastRequest" bigint NOT NULL
);

-- The product's per-address limiter (fixed windows): key = action + normalized e-mail address.
CREATE TABLE auth_address_limits (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  count integer NOT NULL
);

-- Profile photos, resized on upload; served at /api/users/{id}/photo.
CREATE TABLE user_photos (
  user_id text PRIMARY KEY REFERENCES "user" ("id") ON DELETE CASCADE,
  content_type text NOT NULL,
  content bytea NOT NULL,
  updated timestamptz NOT NULL DEFAULT now()
);
