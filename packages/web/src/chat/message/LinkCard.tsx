import type { Attachment } from '@caseroom/protocol';
import { safeHref } from './safeHref';

/** The link preview attachments of a message (chat-spec §3: an attachment with `og_scrape_url`). */
export function linkPreviewsOf(attachments: readonly Attachment[] | undefined): Attachment[] {
  return (attachments ?? []).filter((a) => typeof a.og_scrape_url === 'string' && a.og_scrape_url !== '');
}

/**
 * A link card (chat-spec §2 attachment list): the site, the page's title (the link, opening in a new tab) and its
 * text. The page's image is not shown: loading it from the other site would tell that site every reader's address
 * and when they read the chat (docs/decisions.md "Link previews: no third-party images").
 */
export function LinkCard({ attachment }: { attachment: Attachment }) {
  const href = safeHref(attachment.title_link) ?? safeHref(attachment.og_scrape_url);
  const site = attachment.author_name ?? hostOf(href);
  const title = attachment.title ?? href;
  return (
    <div className="link-card" data-testid="link-card">
      {site ? <p className="link-card-site">{site}</p> : null}
      {title ? (
        <p className="link-card-title">
          {href ? (
            <a href={href} target="_blank" rel="noopener noreferrer nofollow">
              {title}
            </a>
          ) : (
            title
          )}
        </p>
      ) : null}
      {attachment.text ? <p className="link-card-text">{attachment.text}</p> : null}
    </div>
  );
}

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
