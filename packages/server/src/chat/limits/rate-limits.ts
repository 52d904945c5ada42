import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { ChatErrorCode } from '@caseroom/protocol';
import { ConfigError, type Config } from '../../platform/config.js';
import { ChatError } from '../errors.js';

/** A limit: `points` requests per `duration` seconds, per user and endpoint. */
export interface Limit {
  points: number;
  duration: number;
}

/** Default per-user limits per endpoint (requests per minute); endpoints not listed share `default`. */
export const DEFAULT_LIMITS: Record<string, Limit> = {
  default: { points: 1000, duration: 60 },
  SendMessage: { points: 300, duration: 60 },
  SendEvent: { points: 600, duration: 60 },
  QueryChannels: { points: 300, duration: 60 },
  Search: { points: 60, duration: 60 },
  Sync: { points: 120, duration: 60 },
  CreateGuest: { points: 30, duration: 60 },
  UnreadBatch: { points: 60, duration: 60 },
  UploadFile: { points: 300, duration: 60 },
  // A gallery, a voice message and media seeking (range requests) make many small reads.
  GetFile: { points: 3000, duration: 60 },
  // Each preview may fetch a page from the outside world (cached); the composer asks at most once per 1.5 s.
  EnrichURL: { points: 60, duration: 60 },
};

/** Endpoint names of the routes that have their own limits. */
const ENDPOINTS: Record<string, string> = {
  'POST /chat/channels/:type/:id/message': 'SendMessage',
  'POST /chat/channels/:type/:id/event': 'SendEvent',
  'POST /chat/channels': 'QueryChannels',
  'GET /chat/search': 'Search',
  'POST /chat/sync': 'Sync',
  'POST /chat/guest': 'CreateGuest',
  'POST /chat/unread_batch': 'UnreadBatch',
  'POST /chat/channels/:type/:id/file': 'UploadFile',
  'POST /chat/channels/:type/:id/image': 'UploadFile',
  'POST /chat/uploads/file': 'UploadFile',
  'POST /chat/uploads/image': 'UploadFile',
  'GET /chat/files/:id/:name': 'GetFile',
  'GET /chat/files/:id/thumb': 'GetFile',
  'GET /chat/og': 'EnrichURL',
};

export function endpointOf(method: string, routeUrl: string): string {
  return ENDPOINTS[`${method} ${routeUrl}`] ?? 'default';
}

export interface LimitState {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  reset: number;
}

/** How long a rate-limit count may wait on Redis before this node counts in memory instead (a frozen Redis). */
export const LIMIT_REDIS_TIMEOUT_MS = 250;
/** After Redis was that slow, this node counts in memory for this long before it asks Redis again. */
const REDIS_PAUSE_MS = 5000;

/**
 * Per-user, per-endpoint rate limits with rate-limiter-flexible: in memory on one node, in Redis (shared by every
 * node) when REDIS_URL is set. Exceeding one answers code 9 / HTTP 429 (chat-spec §8). While Redis is down or does
 * not answer within {@link LIMIT_REDIS_TIMEOUT_MS}, each node counts in memory (the limiter's insurance), so
 * Redis trouble never fails nor holds up a request.
 */
export class RateLimits {
  private readonly limits = new Map<string, Limit>(Object.entries(DEFAULT_LIMITS));
  /** Per endpoint: the shared (Redis) limiter when REDIS_URL is set, and this node's in-memory one. */
  private readonly limiters = new Map<
    string,
    { shared: RateLimiterAbstract | undefined; local: RateLimiterMemory }
  >();
  private readonly redis: Redis | undefined;
  /** Until then, Redis was too slow of late: counts go to memory without waiting on it. */
  private redisPausedUntil = 0;
  /** False when the operator turned the limits off (`CHAT_RATE_LIMITS=off`): nothing is counted or refused. */
  readonly enabled: boolean;

  constructor(redisUrl: string | undefined, overrides: Config['chatRateLimits'] = {}) {
    this.enabled = overrides !== 'off';
    if (overrides !== 'off') {
      for (const [endpoint, limit] of Object.entries(overrides)) {
        if (!(endpoint in DEFAULT_LIMITS)) {
          throw new ConfigError(
            'CHAT_RATE_LIMITS',
            `names an unknown endpoint "${endpoint}" (known: ${Object.keys(DEFAULT_LIMITS).join(', ')})`,
          );
        }
        this.limits.set(endpoint, limit);
      }
    }
    this.redis =
      redisUrl && this.enabled
        ? new Redis(redisUrl, {
            enableOfflineQueue: false,
            lazyConnect: false,
            maxRetriesPerRequest: 1,
            commandTimeout: LIMIT_REDIS_TIMEOUT_MS,
          })
        : undefined;
    // Errors are the insurance limiter's business; without a listener ioredis would print each reconnect attempt.
    this.redis?.on('error', () => undefined);
  }

  /** Changes one endpoint's limit (tests; an admin setting later). */
  configure(endpoint: string, limit: Limit): void {
    this.limits.set(endpoint, limit);
    this.limiters.delete(endpoint);
  }

  endpoints(): string[] {
    return [...this.limits.keys()];
  }

  private limiter(endpoint: string): { limiter: RateLimiterAbstract; limit: Limit; shared: boolean } {
    const limit = this.limits.get(endpoint) ?? this.limits.get('default') ?? DEFAULT_LIMITS.default!;
    let pair = this.limiters.get(endpoint);
    if (!pair) {
      const opts = { keyPrefix: `chat-rl:${endpoint}:${limit.points}:${limit.duration}`, ...limit };
      const local = new RateLimiterMemory(opts);
      const shared = this.redis
        ? new RateLimiterRedis({
            storeClient: this.redis,
            useRedisPackage: false,
            // Not connected: count in memory at once rather than wait for the command to fail.
            rejectIfRedisNotReady: true,
            insuranceLimiter: local,
            ...opts,
          })
        : undefined;
      pair = { shared, local };
      this.limiters.set(endpoint, pair);
    }
    const shared = pair.shared !== undefined && Date.now() >= this.redisPausedUntil;
    return { limiter: shared ? pair.shared! : pair.local, limit, shared };
  }

  /** Runs one count; Redis that took the whole timeout (the insurance answered) is left alone for a while. */
  private async timed<T>(shared: boolean, work: () => Promise<T>): Promise<T> {
    if (!shared) return work();
    const started = Date.now();
    try {
      return await work();
    } finally {
      if (Date.now() - started >= LIMIT_REDIS_TIMEOUT_MS) this.redisPausedUntil = Date.now() + REDIS_PAUSE_MS;
    }
  }

  private state(res: RateLimiterRes | null, limit: Limit): LimitState {
    const reset = Math.ceil((Date.now() + (res?.msBeforeNext ?? limit.duration * 1000)) / 1000);
    return { limit: limit.points, remaining: res ? Math.max(0, res.remainingPoints) : limit.points, reset };
  }

  /** Counts one request; throws code 9 (HTTP 429) with the state when the limit is exceeded. */
  async consume(key: string, endpoint: string): Promise<LimitState> {
    const { limiter, limit, shared } = this.limiter(endpoint);
    try {
      return this.state(await this.timed(shared, () => limiter.consume(key)), limit);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      throw new RateLimitError(this.state(err, limit), endpoint);
    }
  }

  /** The caller's current state of each endpoint (without counting). */
  async states(key: string, endpoints: string[]): Promise<Record<string, LimitState>> {
    const out: Record<string, LimitState> = {};
    for (const endpoint of endpoints) {
      const { limiter, limit, shared } = this.limiter(endpoint);
      out[endpoint] = this.state(await this.timed(shared, () => limiter.get(key)), limit);
    }
    return out;
  }

  async close(): Promise<void> {
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }
}

export class RateLimitError extends ChatError {
  constructor(
    readonly state: LimitState,
    endpoint: string,
  ) {
    super(ChatErrorCode.RateLimit, `Too many requests for ${endpoint}, check the X-RateLimit headers`, 429);
  }
}
