import Markdown, { type Components } from 'react-markdown';
import { remarkMentions } from './remarkMentions';

const components: Components = {
  // Links leave the app; the markdown library already drops unsafe URLs (javascript: and the like).
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" />,
  // Headings inside a bubble would break the page outline: shown as bold paragraphs.
  h1: ({ children }) => <p className="md-heading">{children}</p>,
  h2: ({ children }) => <p className="md-heading">{children}</p>,
  h3: ({ children }) => <p className="md-heading">{children}</p>,
  h4: ({ children }) => <p className="md-heading">{children}</p>,
  h5: ({ children }) => <p className="md-heading">{children}</p>,
  h6: ({ children }) => <p className="md-heading">{children}</p>,
  img: ({ alt, src }) => (
    <a href={typeof src === 'string' ? src : undefined} target="_blank" rel="noopener noreferrer nofollow">
      {alt || src}
    </a>
  ),
};

/**
 * A message's text as markdown (raw HTML is shown as text), with `@Name` of the mentioned users highlighted.
 * In a chunk of its own (the markdown parser is most of the chat view's code), loaded by MessageText.
 */
export function MarkdownText({ text, names }: { text: string; names: readonly string[] }) {
  return (
    <Markdown components={components} remarkPlugins={[[remarkMentions, { names }]]}>
      {/* Single newlines are line breaks in chat. */}
      {text.replace(/\n/g, '  \n')}
    </Markdown>
  );
}
