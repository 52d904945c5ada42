import { z } from 'zod';

/** Numeric chat error codes (chat-spec §8). */
export const ChatErrorCode = {
  Internal: -1,
  AccessKey: 2,
  AuthenticationFailed: 3,
  InputError: 4,
  DuplicateUsername: 6,
  RateLimit: 9,
  DoesNotExist: 16,
  NotAllowed: 17,
  EventNotSupported: 18,
  ChannelFeatureNotSupported: 19,
  MessageTooLong: 20,
  MultipleNestingLevel: 21,
  PayloadTooBig: 22,
  RequestTimeout: 23,
  MaxHeaderSize: 24,
  TokenExpired: 40,
  TokenNotYetValid: 41,
  TokenUsedBeforeIssue: 42,
  TokenBadSignature: 43,
  ConnectionIdNotFound: 46,
  Cooldown: 60,
  QueryChannelPermissions: 70,
  TooManyConnections: 71,
} as const;
export type ChatErrorCode = (typeof ChatErrorCode)[keyof typeof ChatErrorCode];

/** Codes a client may retry (chat-spec §8). */
export const RETRYABLE_CHAT_CODES: ReadonlySet<number> = new Set([-1, 3, 9, 23, 45, 60, 71]);

/** The message of a slow-mode refusal (code 60), naming the seconds left; {@link cooldownWaitOf} reads it back. */
export const cooldownMessage = (seconds: number) => `slow mode: wait ${seconds} seconds`;

/** Seconds left named by a slow-mode refusal's message, if it names them. */
export function cooldownWaitOf(message: string): number | undefined {
  const m = /^slow mode: wait (\d+) seconds$/.exec(message);
  return m ? Number(m[1]) : undefined;
}

/** Error body of every chat HTTP API failure. */
export const ChatErrorBody = z.object({
  code: z.number(),
  message: z.string(),
  StatusCode: z.number(),
  duration: z.string().optional(),
});
export type ChatErrorBody = z.infer<typeof ChatErrorBody>;

/** Error body of product callables and reads: `{"error": {...}}`. */
export const ProductErrorBody = z.object({
  error: z.object({
    status: z.string(),
    message: z.string(),
    toast: z.string().optional(),
  }),
});
export type ProductErrorBody = z.infer<typeof ProductErrorBody>;

/** Status names of product errors, each mapped to one HTTP status. */
export const PRODUCT_ERROR_STATUS = {
  'invalid-argument': 400,
  unauthenticated: 401,
  'permission-denied': 403,
  'not-found': 404,
  'already-exists': 409,
  'failed-precondition': 412,
  'resource-exhausted': 429,
  internal: 500,
} as const;
export type ProductErrorStatus = keyof typeof PRODUCT_ERROR_STATUS;
