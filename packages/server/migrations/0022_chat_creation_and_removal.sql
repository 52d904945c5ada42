-- Issue 13 §2: a distinct-members channel is handed back only when its members are exactly the asked ones and it was
-- created by one of them (or by the server). `member_hash` now marks a channel created from a member list; a
-- channel whose members changed no longer matches, and a new one for the same members may exist beside it, so the
-- hash is an index, not a unique key.
DROP INDEX chat_channels_distinct_idx;
CREATE INDEX chat_channels_member_hash_idx ON chat_channels (type, member_hash) WHERE member_hash IS NOT NULL;

-- Issue 13 §3: a message another member (a moderator) removed shows "Message removed by a moderator".
ALTER TABLE chat_messages ADD COLUMN removed_by_moderator boolean NOT NULL DEFAULT false;

-- The version a moderator's removal replaced is kept in the history, marked as removed (who: replaced_by_id,
-- when: replaced_at); while the message stays removed its history shows the removal, never the removed words.
ALTER TABLE chat_message_history ADD COLUMN removed boolean NOT NULL DEFAULT false;
