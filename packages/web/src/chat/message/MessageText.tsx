import { memo, useEffect, useState } from 'react';
import type { ChatUser } from '@caseroom/protocol';
import type * as MarkdownTextModule from './MarkdownText';
import { plainTextLines } from './plainText';

type MarkdownModule = typeof MarkdownTextModule;

/**
 * The markdown renderer loads on its own, started as soon as the chat view's code runs (index.html also
 * preloads it on chat addresses), so it does not hold up the view; it is almost always in before the first
 * messages. Until it is, a message that needs it shows its text as it is.
 */
let markdown: MarkdownModule | undefined;
const markdownLoading: Promise<MarkdownModule> = import('./MarkdownText').then((m) => (markdown = m));
markdownLoading.catch(() => undefined);

/**
 * A message's text as markdown (raw HTML is shown as text), with `@Name` of mentioned users highlighted
 * (chat-spec §2 bubble). Text with nothing markdown could change is rendered directly, as the same paragraph
 * and line breaks the markdown renderer gives, without parsing it.
 */
export const MessageText = memo(function MessageText({
  text,
  mentioned,
}: {
  text: string;
  mentioned: readonly ChatUser[];
}) {
  const names = mentioned.map((u) => u.name ?? u.id).filter(Boolean);
  const lines = plainTextLines(text, names);
  return (
    <div className="message-text">
      {lines ? <PlainText lines={lines} /> : <Markdown text={text} names={names} />}
    </div>
  );
});

/** What MarkdownText renders for plain lines: one paragraph, a `<br>` and a newline between lines. */
export function PlainText({ lines }: { lines: readonly string[] }) {
  return <p>{lines.flatMap((line, i) => (i === 0 ? [line] : [<br key={i} />, '\n', line]))}</p>;
}

function Markdown({ text, names }: { text: string; names: readonly string[] }) {
  const [loaded, setLoaded] = useState(markdown);
  useEffect(() => {
    if (!loaded) void markdownLoading.then(setLoaded, () => undefined);
  }, [loaded]);
  if (!loaded) return <p className="message-text-pending">{text}</p>;
  return <loaded.MarkdownText text={text} names={names} />;
}
