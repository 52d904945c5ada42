-- Unread counts on read (docs/performance.md, fan-out): a send no longer updates every member's row.
-- The channel counts the messages that count as unread (main list, not silent, not system) in `unread_seq`;
-- a member's unread count is `unread_base + channel.unread_seq - member.unread_seq`, where `unread_base` is the
-- count when it was last set (read, mark unread, recount after a delete) and `unread_seq` the channel's counter then.
ALTER TABLE chat_channels ADD COLUMN unread_seq integer NOT NULL DEFAULT 0;
ALTER TABLE chat_members RENAME COLUMN unread_count TO unread_base;
ALTER TABLE chat_members ADD COLUMN unread_seq integer NOT NULL DEFAULT 0;

-- A send un-hides the channel for hidden members only; this finds them without reading every member row.
CREATE INDEX chat_members_hidden_idx ON chat_members (cid) WHERE hidden;
