import type { ChatOpenedRequest } from '@caseroom/protocol';
import { apiPost } from '../api/http';

/** The last report per chat: a re-mount of the same chat right away (React's dev double effects) is one opening. */
const lastReported = new Map<string, number>();
const SAME_OPENING_MS = 2000;

/**
 * Reports "chat opened" (product-spec §7 analytics) for the chat `cid`. Only the cid goes: the server checks that
 * the viewer may read the chat and finds its organization and case plans itself. Fire and forget: a failure (not
 * a reader, rate limited, offline) never disturbs the chat.
 */
export function reportChatOpened(cid: string, now = Date.now()): void {
  const last = lastReported.get(cid);
  if (last !== undefined && now - last < SAME_OPENING_MS) return;
  lastReported.set(cid, now);
  const body: ChatOpenedRequest = { cid };
  apiPost('/api/analytics/chat-opened', body).catch(() => undefined);
}
