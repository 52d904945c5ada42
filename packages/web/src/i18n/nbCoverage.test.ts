// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { en, type MessageKey } from './en';
import { nb } from './nb';
import { nbChat } from './nbChat';
import { nbDomain } from './nbDomain';
import { nbOnboarding } from './nbOnboarding';
import { setLanguage, t } from './t';

const norwegian = { ...nbDomain, ...nbChat, ...nbOnboarding, ...nb };
const keys = Object.keys(en) as MessageKey[];
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('Norwegian (nb) texts', () => {
  afterEach(async () => {
    await setLanguage('en');
  });

  it('cover every chat and product-page text', () => {
    const screens = keys.filter((k) => /^(chat|domain|caseplans|session|setup|onboarding)\./.test(k));
    expect(screens.filter((k) => !norwegian[k])).toEqual([]);
  });

  it('keep the placeholders of the English texts', () => {
    for (const [key, text] of Object.entries(norwegian) as [MessageKey, string][]) {
      expect({ key, placeholders: placeholders(text) }).toEqual({ key, placeholders: placeholders(en[key]) });
    }
  });

  it('are used after a switch, and English fills what is missing', async () => {
    await setLanguage('nb');
    expect(t('chat.noChannel')).toBe('Velg en chat, eller start en ny chat.');
    const missing = keys.find((k) => !norwegian[k]);
    if (missing) expect(t(missing)).toBe(en[missing]);
  });
});
