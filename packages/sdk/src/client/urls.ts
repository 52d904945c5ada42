/** The WebSocket URL of `<baseUrl>/connect`; a relative base resolves against the page's location. */
export function connectUrl(baseUrl: string, query: Record<string, string>): string {
  const location = (globalThis as { location?: { href: string } }).location;
  let url: URL;
  try {
    url = new URL(`${baseUrl.replace(/\/+$/, '')}/connect`, location?.href);
  } catch {
    throw new Error(`baseUrl "${baseUrl}" is relative and there is no page location to resolve it against`);
  }
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.toString();
}
