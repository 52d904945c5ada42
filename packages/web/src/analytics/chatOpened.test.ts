// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportChatOpened } from './chatOpened';

describe('reportChatOpened', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('posts only the cid, once per opening, and swallows failures', async () => {
    const calls: { url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, body: JSON.parse(String(init.body)) });
        return new Response('{"error":{"status":"not-found","message":"Chat not found"}}', { status: 404 });
      }),
    );
    reportChatOpened('messaging:a', 1_000);
    reportChatOpened('messaging:a', 1_500); // the same opening (a re-mount right away)
    reportChatOpened('messaging:b', 1_500);
    reportChatOpened('messaging:a', 4_000); // opened again
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual([
      { url: '/api/analytics/chat-opened', body: { cid: 'messaging:a' } },
      { url: '/api/analytics/chat-opened', body: { cid: 'messaging:b' } },
      { url: '/api/analytics/chat-opened', body: { cid: 'messaging:a' } },
    ]);
  });
});
