import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { remarkMentions } from './remarkMentions';
import { safeHref } from './safeHref';

const components: Components = {
  // Links leave the app, in a new tab; only http, https and mailto (anything else is shown as text).
  a: ({ node: _node, href, children }) => {
    const safe = safeHref(href);
    if (!safe) return <span>{children}</span>;
    return (
      <a href={safe} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    );
  },
  // Headings inside a bubble would break the page outline: shown as bold paragraphs.
  h1: ({ children }) => <p className="md-heading">{children}</p>,
  h2: ({ children }) => <p className="md-heading">{children}</p>,
  h3: ({ children }) => <p className="md-heading">{children}</p>,
  h4: ({ children }) => <p className="md-heading">{children}</p>,
  h5: ({ children }) => <p className="md-heading">{children}</p>,
  h6: ({ children }) => <p className="md-heading">{children}</p>,
  // Images in text are never loaded (the reader's address would go to their site): shown as a link.
  img: ({ alt, src }) => {
    const safe = safeHref(typeof src === 'string' ? src : undefined);
    const label = alt || (typeof src === 'string' ? src : '');
    return safe ? (
      <a href={safe} target="_blank" rel="noopener noreferrer nofollow">
        {label}
      </a>
    ) : (
      <span>{label}</span>
    );
  },
};

/**
 * A message's text as GitHub Flavored Markdown (remark-gfm: bare URLs become links, tables, strikethrough, task
 * lists; raw HTML is shown as text), with `@Name` of the mentioned users highlighted.
 * In a chunk of its own (the markdown parser is most of the chat view's code), loaded by MessageText.
 */
export function MarkdownText({ text, names }: { text: string; names: readonly string[] }) {
  return (
    <Markdown components={components} remarkPlugins={[remarkGfm, [remarkMentions, { names }]]}>
      {/* Single newlines are line breaks in chat. */}
      {text.replace(/\n/g, '  \n')}
    </Markdown>
  );
}
