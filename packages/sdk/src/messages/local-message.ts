import type { ChatUser, Message, NewMessage } from '@caseroom/protocol';
import { SERVER_SET_MESSAGE_FIELDS } from './server-fields.js';

export type MessageStatus = 'sending' | 'received' | 'failed';

/** Plain error data kept on a failed message (chat-spec §4). */
export interface MessageError {
  code?: number;
  status?: number;
  message: string;
}

/** A message as the client holds it: the server shape plus the send status of local echo. */
export type LocalMessage = Message & { status: MessageStatus; error?: MessageError };

/** What `channel.sendMessage` accepts: the spec's send payload, with users for mentions. */
export interface MessageDraft {
  /** Normally left out: the SDK chooses the id. */
  id?: string;
  text?: string;
  parent_id?: string;
  show_in_channel?: boolean;
  quoted_message_id?: string;
  mentioned_users?: (string | ChatUser)[];
  attachments?: Record<string, unknown>[];
  silent?: boolean;
  poll_id?: string;
  /** Custom fields are sent along. */
  [custom: string]: unknown;
}

/** A client-chosen id the server keeps (DESIGN: client ids make sends idempotent). */
export function newMessageId(userId: string): string {
  return `${userId}-${crypto.randomUUID()}`;
}

/** The optimistic copy shown while the send runs. */
export function createLocalMessage(
  draft: MessageDraft,
  cid: string,
  user: ChatUser,
  now = new Date(),
): LocalMessage {
  const at = now.toISOString();
  const { mentioned_users: mentioned = [], ...rest } = draft;
  return {
    ...rest,
    id: draft.id ?? newMessageId(user.id),
    cid,
    text: draft.text ?? '',
    type: draft.parent_id ? 'reply' : 'regular',
    user,
    user_id: user.id,
    mentioned_users: mentioned.map((m) => (typeof m === 'string' ? { id: m } : m)),
    attachments: draft.attachments ?? [],
    silent: draft.silent ?? false,
    pinned: false,
    reply_count: 0,
    reaction_counts: {},
    reaction_scores: {},
    reaction_groups: {},
    latest_reactions: [],
    own_reactions: [],
    created_at: at,
    updated_at: at,
    status: 'sending',
  };
}

/** The wire payload of a send or resend of `message`. */
export function toSendPayload(message: LocalMessage): NewMessage {
  const payload: NewMessage = {
    id: message.id,
    text: message.text,
    mentioned_users: message.mentioned_users.map((u) => u.id),
  };
  if (message.attachments.length > 0) payload.attachments = message.attachments;
  for (const key of ['parent_id', 'show_in_channel', 'quoted_message_id', 'silent', 'poll_id'] as const) {
    const value = (message as Record<string, unknown>)[key];
    if (value !== undefined && value !== false) (payload as Record<string, unknown>)[key] = value;
  }
  for (const [key, value] of Object.entries(message)) {
    if (!(key in payload) && !SERVER_FIELDS.has(key) && value !== undefined) {
      (payload as Record<string, unknown>)[key] = value;
    }
  }
  return payload;
}

/** Fields the server owns; everything else on a local message is custom data to send along. */
const SERVER_FIELDS = new Set([
  ...SERVER_SET_MESSAGE_FIELDS,
  'attachments',
  'mentioned_users',
  'pinned',
  'pin_expires',
]);

/** A server message as received. */
export function received(message: Message): LocalMessage {
  const { status: _status, error: _error, ...rest } = message as LocalMessage;
  return { ...rest, status: 'received' };
}

/**
 * The server's order (`seq`, the same for every page and every reader); a message without one (a local echo the
 * server has not answered yet) comes after every message that has one, by creation time, ids breaking ties.
 */
export function compareMessages(a: Message, b: Message): number {
  if (a.seq !== undefined && b.seq !== undefined) return a.seq - b.seq;
  if (a.seq !== undefined) return -1;
  if (b.seq !== undefined) return 1;
  const at = Date.parse(a.created_at) - Date.parse(b.created_at);
  if (at !== 0 && !Number.isNaN(at)) return at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
