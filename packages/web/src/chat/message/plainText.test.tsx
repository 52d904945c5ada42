import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MarkdownText } from './MarkdownText';
import { PlainText } from './MessageText';
import { plainTextLines } from './plainText';

const viaMarkdown = (text: string, names: readonly string[] = []) =>
  renderToStaticMarkup(<MarkdownText text={text} names={names} />);

/** The shortcut in MessageText must render exactly what the markdown renderer would. */
describe('plainTextLines', () => {
  it('takes ordinary chat text and renders it as markdown would', () => {
    for (const text of [
      'Hello',
      'Hi Maria, the meeting is at 10:30 (room 4).',
      'first line\nsecond line\nthird',
      'Æøå, ñ, 中文, emoji 👍 and quotes "x" \'y\' — fine?',
      'well-known, 3-4 items, 50% off, $5 and €3.',
      'not a list: 1 thing\n2nd thing',
    ]) {
      const lines = plainTextLines(text, []);
      expect(lines, text).not.toBeNull();
      expect(renderToStaticMarkup(<PlainText lines={lines ?? []} />), text).toBe(viaMarkdown(text));
    }
  });

  it('leaves anything markdown might change to the parser', () => {
    for (const text of [
      '',
      'mail me at someone@example.test',
      'https://example.test/a/b?c is a link with gfm',
      'see www.example.com',
      ' padded',
      'trailing ',
      'a\n\nb',
      '*bold*',
      '_em_',
      '`code`',
      '# heading',
      '> quote',
      '- item',
      '+ item',
      '1. item',
      '2) item',
      'title\n---',
      'title\n===',
      '[link](https://example.test)',
      '<b>html</b>',
      'AT&amp;T',
      'back\\slash',
      'tab\there',
      'nbsp\u00a0here',
      'cr\r\nlf',
      '    code',
    ]) {
      expect(plainTextLines(text, []), JSON.stringify(text)).toBeNull();
    }
    expect(plainTextLines('hi @Maria', ['Maria'])).toBeNull();
    // remark-gfm links even odd addresses (fast-check found `a@.a`): any word character before `@` declines.
    expect(plainTextLines('a@.a', [])).toBeNull();
    expect(plainTextLines('hi @Maria', [])).toEqual(['hi @Maria']);
  });

  it('renders every text it takes exactly as the markdown renderer', () => {
    const alphabet = fc.constantFrom(
      ...'aZ 0123456789.,;:!?()/\\-+*_`[]<>#&~|=@"\'\n\t\u00a0é👍'.split(''),
      '  ',
      '\n\n',
      '1.',
      '- ',
      '---',
      'www.x.y',
      'http://x.y',
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        const lines = plainTextLines(text, []);
        if (lines === null) return;
        expect(renderToStaticMarkup(<PlainText lines={lines} />)).toBe(viaMarkdown(text));
      }),
      { numRuns: 3000 },
    );
  });
});
