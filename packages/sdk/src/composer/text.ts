import { CHAT_LIMITS, type ChatUser } from '@caseroom/protocol';
import { find } from 'linkifyjs';

/** chat-spec §5: leading and trailing newlines are trimmed; whitespace-only becomes empty. */
export function trimComposerText(text: string): string {
  const trimmed = text.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/(?:\r?\n[ \t]*)+$/, '');
  return trimmed.trim() === '' ? '' : trimmed;
}

/**
 * chat-spec §5: text is empty when blank or only markdown scaffolding: quote markers, emphasis
 * markers (`**`, `__`, `~~`, `*`, `_`), inline backticks and empty code fences.
 */
export function isComposerTextEmpty(text: string): boolean {
  const stripped = text
    .replace(/```[^\n`]*\n?([\s\S]*?)```/g, '$1')
    .replace(/^[ \t]*>+/gm, '')
    .replace(/\*\*|__|~~|[*_`]/g, '');
  return stripped.trim() === '';
}

/**
 * Whether the text holds a web link (chat-spec §5 send-links rule): a URL with a scheme, a `www.`
 * host or a bare host name on a known top-level domain (`example.com/path`), as linkifyjs finds
 * them. File names such as `notes.txt` and e-mail addresses are not links.
 */
export function containsLink(text: string): boolean {
  return find(text, 'url').length > 0;
}

/** chat-spec §5: a mention is kept only while the text still holds `@` + the user's id or name. */
export function keepMentions<U extends Pick<ChatUser, 'id' | 'name'>>(
  text: string,
  mentioned: readonly U[],
): U[] {
  const lower = text.toLowerCase();
  return mentioned.filter(
    (user) =>
      lower.includes(`@${user.id.toLowerCase()}`) ||
      (user.name !== undefined && user.name !== '' && lower.includes(`@${user.name.toLowerCase()}`)),
  );
}

export type SendBlockReason =
  | 'empty'
  | 'too-long'
  | 'uploads-pending'
  | 'too-many-attachments'
  | 'cooldown'
  | 'no-permission'
  | 'links-not-allowed';

export interface SendCheckInput {
  text: string;
  attachmentCount?: number;
  /** Attachments that would be sent (finished uploads); defaults to `attachmentCount`. */
  sendableAttachments?: number;
  hasPoll?: boolean;
  uploadsPending?: boolean;
  /** Seconds of slow-mode cooldown left. */
  cooldownRemaining?: number;
  /** The channel's own_capabilities. */
  capabilities: readonly string[];
  /** Sending a thread reply (needs send-reply instead of send-message). */
  reply?: boolean;
  /** Editing an existing message: the send capability is not required. */
  editing?: boolean;
}

/** Why a composition cannot be sent now (chat-spec §5, §6), or undefined when it can. */
export function sendBlockReason(input: SendCheckInput): SendBlockReason | undefined {
  const capability = input.reply ? 'send-reply' : 'send-message';
  if (!input.editing && !input.capabilities.includes(capability)) return 'no-permission';
  if (input.uploadsPending) return 'uploads-pending';
  if ((input.attachmentCount ?? 0) > CHAT_LIMITS.maxAttachments) return 'too-many-attachments';
  const text = trimComposerText(input.text);
  const sendable = input.sendableAttachments ?? input.attachmentCount;
  if (isComposerTextEmpty(text) && !sendable && !input.hasPoll) return 'empty';
  if (text.length > CHAT_LIMITS.maxMessageLength) return 'too-long';
  if ((input.cooldownRemaining ?? 0) > 0 && !input.capabilities.includes('skip-slow-mode')) return 'cooldown';
  if (!input.capabilities.includes('send-links') && containsLink(text)) return 'links-not-allowed';
  return undefined;
}
