/** Link schemes a message may link to (chat text and link cards): the web, and mail. */
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The URL when it is an absolute http, https or mailto link; undefined otherwise (javascript:, data:, relative). */
export function safeHref(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return SAFE_PROTOCOLS.has(new URL(url).protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}
