import { CHAT_LIMITS } from '@caseroom/protocol';
import { ATTACHMENT_TEXTS, NOTICE_TEXTS } from '@caseroom/sdk';
import { t, type MessageKey } from '../../i18n/t';

const KEYS: Record<keyof typeof NOTICE_TEXTS, MessageKey> = {
  connectError: 'chat.connectError',
  reconnecting: 'chat.notice.reconnecting',
  channelsLoadError: 'chat.notice.channelsLoadError',
  messageNotFound: 'chat.notice.messageNotFound',
  waitForUploads: 'chat.notice.waitForUploads',
  cannotSend: 'chat.composer.cannotSend',
  cannotSendReply: 'chat.composer.cannotSendReply',
  linksNotAllowed: 'chat.notice.linksNotAllowed',
  deleteError: 'chat.notice.deleteError',
  editError: 'chat.notice.editError',
  markUnreadError: 'chat.notice.markUnreadError',
  markUnreadWindow: 'chat.notice.markUnreadWindow',
  pinned: 'chat.notice.pinned',
  pinError: 'chat.notice.pinError',
  unpinned: 'chat.notice.unpinned',
  unpinError: 'chat.notice.unpinError',
  flagged: 'chat.notice.flagged',
  flagError: 'chat.notice.flagError',
  reactionsLoadError: 'chat.reactions.loadError',
};

/** The one notice with a number in it, as the SDK fills it in. */
const PARAMS = { count: CHAT_LIMITS.markUnreadWindow };
const filled = (text: string) => text.replace('{{count}}', String(PARAMS.count));

const BY_TEXT = new Map<string, MessageKey>(
  (Object.keys(KEYS) as (keyof typeof NOTICE_TEXTS)[]).map((k) => [filled(NOTICE_TEXTS[k]), KEYS[k]]),
);

/** The attachment notices carry a file name, a type or a limit: matched by pattern, their values kept. */
const ATTACHMENT_PATTERNS: [RegExp, MessageKey][] = [
  [template(ATTACHMENT_TEXTS.typeNotSupported), 'chat.attachments.typeNotSupported'],
  [template(ATTACHMENT_TEXTS.sizeExceeded), 'chat.attachments.sizeExceeded'],
  [template(`${ATTACHMENT_TEXTS.uploadError} "{{ name }}"`), 'chat.attachments.uploadError'],
  [template(ATTACHMENT_TEXTS.limitReached), 'chat.attachments.limit'],
  [template(ATTACHMENT_TEXTS.deleteError), 'chat.attachments.deleteError'],
];

function template(text: string): RegExp {
  const source = text
    .split(/\{\{\s*(\w+)\s*\}\}/)
    .map((part, i) => (i % 2 ? `(?<${part}>.+)` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** A notice of the SDK (its English texts of chat-spec §8) in the interface language; unknown texts as they are. */
export function noticeText(text: string): string {
  const key = BY_TEXT.get(text);
  if (key) return t(key, PARAMS);
  for (const [pattern, patternKey] of ATTACHMENT_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return t(patternKey, { ...match.groups });
  }
  return text;
}
