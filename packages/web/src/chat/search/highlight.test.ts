import { describe, expect, it } from 'vitest';
import { highlightedSnippet, queryPattern } from './highlight';

const marked = (parts: { text: string; match: boolean }[]) =>
  parts.map((p) => (p.match ? `[${p.text}]` : p.text)).join('');

describe('search result highlighting', () => {
  it('marks whole words starting with a query word, case-insensitively, as the server matches prefixes', () => {
    expect(marked(highlightedSnippet('The Meeting moved; meet at noon', 'meet'))).toBe(
      'The [Meeting] moved; [meet] at noon',
    );
    expect(marked(highlightedSnippet('Møtet er flyttet', 'møt'))).toBe('[Møtet] er flyttet');
    expect(marked(highlightedSnippet('comment on it', 'men'))).toBe('comment on it');
  });

  it('keeps context either side of the first match, cut at spaces with an ellipsis', () => {
    const before = 'word '.repeat(30);
    const after = ' more'.repeat(30);
    const snippet = marked(highlightedSnippet(`${before}budget${after}`, 'budget', 20));
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('[budget]');
    expect(snippet.length).toBeLessThan(60);
  });

  it('treats regular expression characters in the query as text', () => {
    expect(queryPattern('a.b (c)')?.test('a b c')).toBe(true);
    expect(queryPattern('   ')).toBeUndefined();
  });
});
