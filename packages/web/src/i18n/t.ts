import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en, type MessageKey } from './en';
import { nb } from './nb';
import { nbChat } from './nbChat';
import { nbDomain } from './nbDomain';
import { nbOnboarding } from './nbOnboarding';
import { nbScroll } from './nbScroll';

export type { MessageKey };

/** The languages the interface speaks; English is complete and the fallback for every missing text. */
export const LANGUAGES = { en: 'English', nb: 'Norsk bokmål' } as const;
export type Language = keyof typeof LANGUAGES;

const STORAGE_KEY = 'caseroom.language';

/** The saved choice, else the browser's first supported language (`nb-NO`, `no`, `nn` -> `nb`), else English. */
export function detectLanguage(): Language {
  const candidates: string[] = [];
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved) candidates.push(saved);
  } catch {
    // storage unavailable: use the browser's languages
  }
  if (typeof navigator !== 'undefined') candidates.push(...(navigator.languages ?? [navigator.language]));
  for (const tag of candidates) {
    const base = tag.toLowerCase().split('-')[0] ?? '';
    if (base === 'nb' || base === 'no' || base === 'nn') return 'nb';
    if (base === 'en') return 'en';
  }
  return 'en';
}

/**
 * i18next with our flat keys (`login.title`) and `{name}` placeholders; React re-renders through
 * react-i18next when the language changes.
 */
void i18next.use(initReactI18next).init({
  resources: {
    en: { translation: en },
    nb: { translation: { ...nbDomain, ...nbChat, ...nbOnboarding, ...nbScroll, ...nb } },
  },
  lng: detectLanguage(),
  fallbackLng: 'en',
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  initAsync: false,
  returnNull: false,
});

export const i18n = i18next;

/** Switches the interface language and remembers the choice on this device. */
export async function setLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // not remembered; still switched
  }
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

/**
 * Texts without placeholders in the current language: the same key answers the same text until the language
 * changes, and a screen asks for many (i18next's lookup is the costlier part of a first render).
 */
const plain = new Map<MessageKey, string>();
i18next.on('languageChanged', () => plain.clear());

/** Translates `key`, filling `{param}` placeholders; missing texts come from English. */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  if (params) return i18next.t(key, params);
  let text = plain.get(key);
  if (text === undefined) {
    text = i18next.t(key, {});
    plain.set(key, text);
  }
  return text;
}
