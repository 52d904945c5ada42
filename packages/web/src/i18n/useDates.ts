import { useSyncExternalStore } from 'react';
import { session } from '../session/session';
import { dateFormatter, localeOf, validTimeZone, type DateFormatter, type DateWords } from './dates';
import { i18n, t } from './t';

/** The signed-in user's profile time zone; undefined (the device's zone) when signed out or not set. */
function profileZone(): string | undefined {
  const state = session.getSnapshot();
  return state.status === 'signed-in' ? (state.me.user.timezone ?? undefined) : undefined;
}

let current: DateFormatter | undefined;

/**
 * The formatter for the interface language and the profile's time zone now. The same object answers until one of
 * them changes, so a component can hold it in a memo's dependencies.
 */
export function dates(): DateFormatter {
  const locale = localeOf(i18n.language);
  const zone = validTimeZone(profileZone());
  if (current?.locale !== locale || current.timeZone !== zone) current = dateFormatter(i18n.language, zone);
  return current;
}

function subscribe(listener: () => void): () => void {
  const unsubscribe = session.subscribe(listener);
  i18n.on('languageChanged', listener);
  return () => {
    unsubscribe();
    i18n.off('languageChanged', listener);
  };
}

/** {@link dates} for a component: it re-renders when the language or the profile's time zone changes. */
export function useDates(): DateFormatter {
  return useSyncExternalStore(subscribe, dates, dates);
}

/** The translated words of the date separators. */
export function dateWords(): DateWords {
  return {
    today: t('chat.date.today'),
    tomorrow: t('chat.date.tomorrow'),
    yesterday: t('chat.date.yesterday'),
    last: t('chat.date.last'),
  };
}
