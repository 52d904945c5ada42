import type { Platform } from '../platform/context.js';
import type { Realtime } from './realtime/fanout.js';
import type { RateLimits } from './limits/rate-limits.js';
import type { MessageNewHook } from './server-api.js';

/** Who performs an action: a user holding a chat token, or the server itself (full rights). */
export type Actor =
  { kind: 'user'; userId: string; connectionId?: string; anonymous?: boolean } | { kind: 'server' };

export const SERVER: Actor = { kind: 'server' };

/** Everything an action needs: the platform, the realtime fan-out and the post-commit hooks. */
export interface ChatContext extends Platform {
  realtime: Realtime;
  hooks: { messageNew: Array<(event: MessageNewHook) => void | Promise<void>> };
  /** Channel fields only the server may set (`team` always; the product adds its own custom fields). */
  protectedChannelFields: Set<string>;
  rateLimits: RateLimits;
}
