import { memo, useEffect, useState } from 'react';
import type { ChatUser } from '@caseroom/protocol';
import type * as MarkdownTextModule from './MarkdownText';
import { plainTextLines } from './plainText';

type MarkdownModule = typeof MarkdownTextModule;

/**
 * The markdown renderer loads on its own, when the first message that needs it renders (most chat text is plain
 * and never does), so it neither holds up the view nor takes the first load's bandwidth. Until it is in, a
 * message that needs it shows its text as it is.
 */
let markdown: MarkdownModule | undefined;
let markdownLoading: Promise<MarkdownModule> | undefined;
function loadMarkdown(): Promise<MarkdownModule> {
  markdownLoading ??= import('./MarkdownText').then((m) => (markdown = m));
  return markdownLoading;
}

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
    if (!loaded) void loadMarkdown().then(setLoaded, () => undefined);
  }, [loaded]);
  if (!loaded) return <p className="message-text-pending">{text}</p>;
  return <loaded.MarkdownText text={text} names={names} />;
}
