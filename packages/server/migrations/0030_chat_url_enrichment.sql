-- Link preview enrichment of sent messages (chat-spec §3, §6 url_enrichment; issue 14): one row per message whose
-- first link waits for its preview. Written after the send commits, run at once by the node that sent it and, if
-- that node died first, by the `enrich-urls` job on any node; removed once tried (a failure is silent, §4).
CREATE TABLE chat_url_enrichments (
  message_id text PRIMARY KEY REFERENCES chat_messages (id) ON DELETE CASCADE,
  url text NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  locked_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_url_enrichments_created ON chat_url_enrichments (created_at);
