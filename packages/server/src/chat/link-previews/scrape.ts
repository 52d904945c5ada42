import ogs from 'open-graph-scraper';
import { chatFileIdOf, type OgResponse } from '@caseroom/protocol';
import { HttpOutError, type HttpOut } from '../../platform/http-out/index.js';

/** HTML kept of a page: Open Graph tags sit in the head, far inside the first megabyte. */
export const PREVIEW_HTML_MAX_BYTES = 1024 * 1024;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const MAX_TITLE = 300;
const MAX_TEXT = 1000;

/** A page that could not be previewed; `message` is safe to show the caller. */
export class PreviewError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'PreviewError';
  }
}

/** A control character (but tab, newline, return), DEL, or half of a surrogate pair: PostgreSQL refuses them. */
function unstorable(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  if (code === 0x09 || code === 0x0a || code === 0x0d) return false;
  return code < 0x20 || code === 0x7f || (code >= 0xd800 && code <= 0xdfff);
}

/** Text from a page, as the chat stores it: nothing PostgreSQL refuses, whitespace folded, trimmed, bounded. */
function clean(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = Array.from(value)
    .filter((c) => !unstorable(c))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return undefined;
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

/** An absolute http(s) URL from a page's (maybe relative) one, or undefined. */
function absolute(value: unknown, base: string): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return undefined;
  try {
    const url = new URL(value.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

function decode(body: Buffer, contentType: string): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/**
 * Fetches a page through the outbound client (platform/http-out: SSRF checks, 5 s, 1 MiB of HTML, 3 redirects)
 * and reads its preview with open-graph-scraper: Open Graph first, then Twitter cards, then `<title>` and the meta
 * description. The attachment names the page as asked (`og_scrape_url`), links to its canonical URL when it gives
 * one (`title_link`), and carries the site name as `author_name`.
 */
export async function scrapePreview(httpOut: HttpOut, url: string): Promise<OgResponse> {
  let page;
  try {
    page = await httpOut.get(url, {
      maxBytes: PREVIEW_HTML_MAX_BYTES,
      accept: (mime) => HTML_TYPES.has(mime),
    });
  } catch (err) {
    if (err instanceof HttpOutError) throw new PreviewError(err.message, err.detail ?? err.reason);
    throw err;
  }
  if (page.status < 200 || page.status >= 300) {
    throw new PreviewError('the link has no preview', `status ${page.status}`);
  }
  const { result } = await ogs({ html: decode(page.body, page.contentType) }).catch(() => ({
    result: undefined,
  }));
  if (!result) throw new PreviewError('the link has no preview', 'unparsable page');
  const base = page.url;
  const title = clean(result.ogTitle ?? result.twitterTitle ?? result.dcTitle, MAX_TITLE);
  const text = clean(result.ogDescription ?? result.twitterDescription ?? result.dcDescription, MAX_TEXT);
  const named = absolute(result.ogImage?.[0]?.url ?? result.twitterImage?.[0]?.url, base);
  // A page may not name a stored chat file as its image (attachments that do are checked as uploads).
  const image = named && !chatFileIdOf(named) ? named : undefined;
  if (!title && !text && !image) throw new PreviewError('the link has no preview', 'no title, text or image');
  const ogType = typeof result.ogType === 'string' ? result.ogType.toLowerCase() : '';
  // Never `image`: clients put image attachments in galleries and load them; a preview is a link card whatever it
  // shows (chat-spec §2), recognised by `og_scrape_url`.
  const type = ogType.startsWith('video') ? 'video' : ogType === 'article' ? 'article' : undefined;
  const site = clean(result.ogSiteName, MAX_TITLE) ?? new URL(base).hostname;
  const canonical = absolute(result.ogUrl, base) ?? base;
  return {
    og_scrape_url: url,
    ...(type ? { type } : {}),
    ...(title ? { title } : {}),
    ...(text ? { text } : {}),
    title_link: canonical,
    author_name: site,
    ...(image ? { image_url: image, thumb_url: image } : {}),
  };
}
