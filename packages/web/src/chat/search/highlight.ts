/** A piece of a search result's text: `match` marks the words the query found. */
export interface TextPart {
  text: string;
  match: boolean;
}

/** Search results show this many characters either side of the first match (the context). */
export const CONTEXT_CHARS = 60;

/**
 * The query's words as the server matches them (store/message-filter `prefixQuery`: each word a prefix of a word
 * in the message, case-insensitive), as one pattern; undefined when the query has no word.
 */
export function queryPattern(query: string): RegExp | undefined {
  const words = query
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .sort((a, b) => b.length - a.length);
  if (words.length === 0) return undefined;
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join('|')})[\\p{L}\\p{N}]*`, 'giu');
}

/**
 * The text around the first match (at most `context` characters either side, cut at a space, with "…" where cut),
 * split into matched and plain parts for highlighting. The whole text (trimmed to twice the context) when nothing
 * in it matches.
 */
export function highlightedSnippet(text: string, query: string, context = CONTEXT_CHARS): TextPart[] {
  const flat = text.replace(/\s+/g, ' ').trim();
  const pattern = queryPattern(query);
  const first = pattern ? [...flat.matchAll(pattern)][0] : undefined;
  let start = 0;
  let end = Math.min(flat.length, context * 2);
  if (first?.index !== undefined) {
    start = Math.max(0, first.index - context);
    end = Math.min(flat.length, first.index + first[0].length + context);
  }
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space >= 0 && space < (first?.index ?? end)) start = space + 1;
  }
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    if (space > (first?.index ?? start) + (first?.[0].length ?? 0)) end = space;
  }
  const window = `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
  return split(window, pattern);
}

function split(text: string, pattern: RegExp | undefined): TextPart[] {
  if (!pattern) return text ? [{ text, match: false }] : [];
  const parts: TextPart[] = [];
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    const index = m.index ?? 0;
    if (index > at) parts.push({ text: text.slice(at, index), match: false });
    parts.push({ text: m[0], match: true });
    at = index + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}
