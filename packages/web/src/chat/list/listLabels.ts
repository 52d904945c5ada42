import { localeOf } from '../../i18n/dates';
import { i18n, t } from '../../i18n/t';

const lists = new Map<string, Intl.ListFormat>();

/** "Ann", "Ann and Bob", "Ann and 2 others": the typists' first names, joined in the interface language. */
export function typingNames(names: readonly string[]): string {
  const locale = localeOf(i18n.language);
  let list = lists.get(locale);
  if (!list) {
    list = new Intl.ListFormat(locale, { type: 'conjunction' });
    lists.set(locale, list);
  }
  const [first = '', ...rest] = names;
  const shown = names.length <= 2 ? names : [first, t('chat.typing.others', { count: rest.length })];
  return list.format(shown);
}

/** The typing line (chat-spec §9: singular and plural wording); empty when nobody types. */
export function typingText(names: readonly string[]): string {
  return names.length === 0 ? '' : t('chat.typing', { names: typingNames(names), count: names.length });
}
