import type { TestServer } from './server.js';
import { checkAnswer } from './wire-contract.js';
import type { Reply } from '../chat-support.js';

/** Who calls: a chat token (user or server), or an anonymous connection. */
export type UploadAuth = { token: string } | { authType: 'anonymous' };

/**
 * Sends a real multipart upload (`FormData` + `fetch`, as a browser does) to a chat upload route; the answer is
 * checked against the protocol like every chat answer.
 */
export async function uploadAs<T = Record<string, unknown>>(
  server: TestServer,
  auth: UploadAuth,
  path: string,
  content: Uint8Array | Blob,
  name: string,
  options: { type?: string; fields?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const url = new URL(`/chat${path}`, server.url);
  url.searchParams.set('api_key', server.config.chatApiKey);
  const headers: Record<string, string> =
    'token' in auth ? { authorization: auth.token, 'auth-type': 'jwt' } : { 'auth-type': 'anonymous' };
  const form = new FormData();
  for (const [k, v] of Object.entries(options.fields ?? {})) form.append(k, v);
  const blob =
    content instanceof Blob
      ? content
      : new Blob([new Uint8Array(content)], { type: options.type ?? 'application/octet-stream' });
  form.append('file', blob, name);
  const res = await fetch(url, { method: 'POST', headers, body: form });
  const text = await res.text();
  const body: unknown = text ? JSON.parse(text) : {};
  checkAnswer('POST', url.pathname, res.status, body);
  return { status: res.status, body: body as T };
}
