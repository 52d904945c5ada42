import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ProductError } from '../errors.js';

/**
 * Per-address limits of the public (unauthenticated) product endpoints: first-run setup and the invite card.
 * Counted by rate-limiter-flexible in this node's memory: both endpoints are cheap to refuse and rarely used, so
 * a per-node count is enough to stop guessing (sign-up itself is also limited per address in the database).
 */
export interface PublicLimit {
  /** Counts one request from `ip`; throws 429 past the limit. */
  consume(ip: string): Promise<void>;
}

/** A limit of `points` requests per `seconds` per client address. */
export function publicLimit(points: number, seconds: number): PublicLimit {
  const limiter = new RateLimiterMemory({ points, duration: seconds });
  return {
    async consume(ip) {
      try {
        await limiter.consume(ip);
      } catch (err) {
        if (err instanceof RateLimiterRes) {
          throw new ProductError('resource-exhausted', 'Too many requests. Please try again later.');
        }
        throw err;
      }
    },
  };
}

/** The limits, as sign-up's (`/sign-up/*`: 20 a minute per address) and a little more for reading invites. */
export const PUBLIC_LIMITS = { setup: { points: 20, seconds: 60 }, invite: { points: 30, seconds: 60 } };
