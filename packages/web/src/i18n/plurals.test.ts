// @vitest-environment jsdom
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { en } from './en';
import { nb } from './nb';
import { nbChat } from './nbChat';
import { nbDomain } from './nbDomain';
import { nbOnboarding } from './nbOnboarding';
import { nbPeople } from './nbPeople';
import { setLanguage, t } from './t';

const norwegian: Record<string, string | undefined> = {
  ...nbDomain,
  ...nbChat,
  ...nbOnboarding,
  ...nbPeople,
  ...nb,
};
const english: Record<string, string> = en;
// Tests run from the repository's root.
const webSrc = resolve(process.cwd(), 'packages/web/src');

/** Every source file of the web app but the tests. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('plurals and placeholders through i18next', () => {
  afterEach(async () => {
    await setLanguage('en');
  });

  it('no text carries a raw {{placeholder}} (our interpolation is {name})', () => {
    const raw = (texts: Record<string, string | undefined>) =>
      Object.entries(texts).filter(([, text]) => text?.includes('{{'));
    expect(raw(english)).toEqual([]);
    expect(raw(norwegian)).toEqual([]);
  });

  it('no component picks a singular by hand (count === 1): plural keys do', () => {
    const branches = sources(webSrc).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ file: file.slice(webSrc.length), line: i + 1, text: line.trim() }))
        .filter(
          ({ text }) => /\b\w*(count|replies)\s*[!=]==\s*1\b/i.test(text) || /[!=]==\s*1\s*\?/.test(text),
        ),
    );
    expect(branches).toEqual([]);
  });

  it('every plural text has its one and other forms, in English and in Norwegian', () => {
    const bases = Object.keys(english)
      .filter((key) => key.endsWith('_one') || key.endsWith('_other'))
      .map((key) => key.replace(/_(one|other)$/, ''));
    expect(bases.length).toBeGreaterThan(0);
    for (const base of new Set(bases)) {
      expect({ base, one: english[`${base}_one`], other: english[`${base}_other`] }).toEqual({
        base,
        one: expect.any(String),
        other: expect.any(String),
      });
      if (norwegian[`${base}_one`] || norwegian[`${base}_other`]) {
        expect({ base, one: !!norwegian[`${base}_one`], other: !!norwegian[`${base}_other`] }).toEqual({
          base,
          one: true,
          other: true,
        });
      }
    }
  });

  it('chooses the form with the language’s plural rules', async () => {
    expect(t('chat.thread.replies', { count: 1 })).toBe('1 reply');
    expect(t('chat.thread.replies', { count: 3 })).toBe('3 replies');
    expect(t('chat.list.unread', { count: 1 })).toBe('1 unread message · Jump');
    expect(t('chat.list.unread', { count: 0 })).toBe('0 unread messages · Jump');
    expect(t('chat.notice.markUnreadWindow', { count: 100 })).toBe(
      'Error, only the first 100 messages can be marked as unread',
    );
    await setLanguage('nb');
    expect(t('chat.list.unread', { count: 1 })).toBe('1 ulest melding · Gå dit');
    expect(t('chat.list.unread', { count: 7 })).toBe('7 uleste meldinger · Gå dit');
    expect(t('chat.notice.markUnreadWindow', { count: 100 })).toBe(
      'Feil: bare de 100 nyeste meldingene kan merkes som uleste',
    );
  });
});
