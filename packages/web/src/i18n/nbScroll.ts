import type { MessageKey } from './en';

/** Norsk bokmål for the message list's scrolling and unread behaviour and the tab title (issue 15). */
export const nbScroll: Partial<Record<MessageKey, string>> = {
  'app.title.unread': '({count}) {title}',
};
