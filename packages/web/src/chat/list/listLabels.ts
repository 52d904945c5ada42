import dayjs from 'dayjs';
import 'dayjs/locale/nb';
import type { DateLabels } from '@caseroom/sdk';
import { i18n, t } from '../../i18n/t';

/**
 * The translated words of the SDK's date separators (`withSeparators`, `formatDateSeparator`). Weekday names
 * follow dayjs's locale, which tracks the interface language.
 */
export function dateLabels(): DateLabels {
  return {
    today: t('chat.date.today'),
    tomorrow: t('chat.date.tomorrow'),
    yesterday: t('chat.date.yesterday'),
    last: t('chat.date.last'),
  };
}

function followLanguage(language: string | undefined) {
  dayjs.locale(language?.startsWith('nb') ? 'nb' : 'en');
}
followLanguage(i18n.language);
i18n.on('languageChanged', followLanguage);

/** The typing line (chat-spec §9: singular and plural wording). */
export function typingKey(count: number): 'none' | 'one' | 'two' | 'many' {
  if (count <= 0) return 'none';
  if (count === 1) return 'one';
  if (count === 2) return 'two';
  return 'many';
}
