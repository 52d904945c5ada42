/**
 * Characters that may mean something in markdown (emphasis, code, links, HTML and entities, headings, quotes,
 * escapes, setext underlines) and no-break spaces; control characters are checked apart.
 */
const MARKDOWN_CHARS = /[\\`*_[\]<>#&~|=\u00a0]/;
/** A line opening a list item or a setext underline / thematic break. */
const BLOCK_START = /^([-+]|\d+[.)])/;
/** What GitHub Flavored Markdown turns into a link by itself: URLs, `www.` hosts, e-mail addresses. */
const AUTOLINK = /:\/\/|www\.|[\w.+-]@|mailto:|xmpp:/i;

/**
 * The lines of a message text that markdown would render as one plain paragraph, its lines joined by line breaks
 * (as MarkdownText does: single newlines are hard breaks), or `null` when the text needs the markdown parser:
 * any character that could be markup, a line that could open a block, blank or padded lines, or an `@` when
 * the message mentions someone. Conservative on purpose: `null` only costs the parser.
 */
export function plainTextLines(text: string, mentionNames: readonly string[]): string[] | null {
  if (text === '' || MARKDOWN_CHARS.test(text) || hasControlCharacter(text)) return null;
  if (AUTOLINK.test(text)) return null;
  if (mentionNames.length > 0 && text.includes('@')) return null;
  const lines = text.split('\n');
  for (const line of lines) {
    if (line === '' || line !== line.trim() || BLOCK_START.test(line)) return null;
  }
  return lines;
}

/** Tabs, carriage returns, NUL and the other C0 controls except the newline, and DEL. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x0a) || code === 0x7f) return true;
  }
  return false;
}
