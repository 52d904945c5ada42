import type { Message } from '@caseroom/protocol';

/** The actions of a message's menu, in menu order. */
export type MessageAction =
  'reply' | 'quote' | 'react' | 'edit' | 'delete' | 'pin' | 'flag' | 'markUnread' | 'copy';

export interface ActionContext {
  capabilities: readonly string[];
  viewerId: string;
  /** The list the message is shown in. */
  mode: 'main' | 'thread';
  /** Whether `navigator.clipboard.writeText` exists. */
  clipboard: boolean;
}

type ActionMessage = Pick<Message, 'type' | 'text' | 'parent_id' | 'user' | 'user_id' | 'deleted_at'> & {
  status?: string;
};

/**
 * The actions offered for `message`, each only with its capability (chat-spec §6). Deleted, system, error and
 * not-yet-sent messages offer none (a failed one is retried from its bubble).
 */
export function availableActions(message: ActionMessage, ctx: ActionContext): MessageAction[] {
  if (message.type === 'deleted' || message.deleted_at) return [];
  if (message.type === 'system' || message.type === 'error' || message.type === 'ephemeral') return [];
  if (message.status && message.status !== 'received') return [];
  const has = (c: string) => ctx.capabilities.includes(c);
  const own = (message.user?.id ?? message.user_id) === ctx.viewerId;
  const actions: MessageAction[] = [];
  if (ctx.mode === 'main' && !message.parent_id && has('send-reply')) actions.push('reply');
  if (has('quote-message')) actions.push('quote');
  if (has('send-reaction')) actions.push('react');
  if (has('update-any-message') || (own && has('update-own-message'))) actions.push('edit');
  if (has('delete-any-message') || has('delete-any') || (own && (has('delete-own-message') || has('delete'))))
    actions.push('delete');
  if (has('pin-message')) actions.push('pin');
  if (!own && has('flag-message')) actions.push('flag');
  if (ctx.mode === 'main' && !own && has('read-events')) actions.push('markUnread');
  if (ctx.clipboard && (message.type === 'regular' || message.type === 'reply') && message.text.trim())
    actions.push('copy');
  return actions;
}

/** chat-spec §4: a failed message is retryable unless the server refused it with 403. */
export function failureKind(message: {
  status?: string;
  error?: { status?: number };
}): 'none' | 'retry' | 'unauthorized' {
  if (message.status !== 'failed') return 'none';
  return message.error?.status === 403 ? 'unauthorized' : 'retry';
}

/** The default reaction types (chat-spec §3), with the emoji each shows. */
export const REACTIONS: readonly { type: string; emoji: string }[] = [
  { type: 'haha', emoji: '😂' },
  { type: 'like', emoji: '👍' },
  { type: 'love', emoji: '❤️' },
  { type: 'sad', emoji: '😢' },
  { type: 'wow', emoji: '😮' },
];

export function reactionEmoji(type: string): string {
  return REACTIONS.find((r) => r.type === type)?.emoji ?? type;
}
