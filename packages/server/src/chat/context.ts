import type { Platform } from '../platform/context.js';
import type { Realtime } from './realtime/fanout.js';
import type { RateLimits } from './limits/rate-limits.js';
import type { Queryable } from '../platform/db.js';
import type { MessageNewHook, MessageRemovedHook } from './server-api.js';
import type { LinkPreviews } from './link-previews/previews.js';
import type { UrlEnrichment } from './actions/url-enrichment.js';

/** Who performs an action: a user holding a chat token, or the server itself (full rights). */
export type Actor =
  { kind: 'user'; userId: string; connectionId?: string; anonymous?: boolean } | { kind: 'server' };

export const SERVER: Actor = { kind: 'server' };

/** Everything an action needs: the platform, the realtime fan-out and the post-commit hooks. */
export interface ChatContext extends Platform {
  realtime: Realtime;
  hooks: {
    messageNew: Array<(event: MessageNewHook) => void | Promise<void>>;
    /** Run inside the removal's transaction (a failure rolls the removal back). */
    messageRemoved: Array<(q: Queryable, event: MessageRemovedHook) => Promise<void>>;
    /** Checks of ids `POST /chat/guest` may not claim. */
    reservedUserIds: Array<(id: string) => Promise<boolean>>;
  };
  /** Channel fields only the server may set (`team` always; the product adds its own custom fields). */
  protectedChannelFields: Set<string>;
  rateLimits: RateLimits;
  /**
   * Set while chat's actions run inside a caller's transaction (server-tx `chatWithin`): work a write leaves for
   * after its commit (`Outbox.afterCommit`) is handed here, to run after the caller's commit. Unset: it runs as soon
   * as the write committed.
   */
  afterCommit?: (task: () => Promise<void>) => void;
  /** Link previews (`GET /chat/og`, enrichment), fetched through platform/http-out. */
  linkPreviews: LinkPreviews;
  /** This node's runner of the link-preview enrichment queue. */
  urlEnrichment: UrlEnrichment;
}
