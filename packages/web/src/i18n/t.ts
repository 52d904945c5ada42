import { en, type MessageKey } from './en';

export type { MessageKey };

/** Translates `key`, filling `{param}` placeholders. English is the only language until issue 3. */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  const text: string = en[key];
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}
