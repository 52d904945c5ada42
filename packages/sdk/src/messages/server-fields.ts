/**
 * Message fields the server sets (chat-spec §3 Message) plus the SDK's local-only state (`status`, `error`).
 * A payload the client sends never carries them; the send and update builders add their own few on top.
 */
export const SERVER_SET_MESSAGE_FIELDS: readonly string[] = [
  'cid',
  'seq',
  'type',
  'user',
  'user_id',
  'status',
  'error',
  'quoted_message',
  'pinned_at',
  'reply_count',
  'reaction_counts',
  'reaction_scores',
  'reaction_groups',
  'latest_reactions',
  'own_reactions',
  'created_at',
  'updated_at',
  'deleted_at',
  'message_text_updated_at',
];
