import crypto from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { ChatErrorCode } from '@caseroom/protocol';
import type { Config } from '../platform/config.js';
import type { Actor } from './context.js';
import { authFailed, ChatError } from './errors.js';

/** Credentials as they arrive on a request or a socket upgrade. */
export interface Credentials {
  apiKey: string | undefined;
  token: string | undefined;
  authType: string | undefined;
  userId: string | undefined;
}

const encoder = new TextEncoder();

/** Mints a chat JWT (HS256, claim `user_id`); `expiresInSeconds` undefined = no expiry. */
export async function signChatToken(
  config: Config,
  claims: { user_id: string } | { server: true },
  expiresInSeconds?: number,
): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt();
  if (expiresInSeconds !== undefined) jwt.setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds);
  return jwt.sign(encoder.encode(config.chatApiSecret));
}

function tokenError(err: unknown): ChatError {
  if (err instanceof joseErrors.JWTExpired) {
    return new ChatError(ChatErrorCode.TokenExpired, 'JWT token expired', 401);
  }
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) {
    return new ChatError(ChatErrorCode.TokenBadSignature, 'JWT token signature is invalid', 401);
  }
  if (err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'nbf') {
    return new ChatError(ChatErrorCode.TokenNotYetValid, 'JWT token is not valid yet', 401);
  }
  if (err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'iat') {
    return new ChatError(ChatErrorCode.TokenUsedBeforeIssue, 'JWT token used before issue at', 401);
  }
  return authFailed('JWT token is malformed or uses an unsupported algorithm');
}

/** Seconds of clock skew allowed on `exp`, `nbf` and `iat`. */
const CLOCK_TOLERANCE = 5;

/** Verified tokens (by secret and token string) at most; the oldest entry goes first when full. */
const VERIFIED_MAX = 10_000;

interface Verified {
  secret: string;
  payload: JWTPayload;
}

/**
 * Tokens whose signature and time claims were verified, so that a client's every request does not verify its token
 * again (HMAC through WebCrypto is most of the cost of authentication). An entry is only good for the secret it was
 * verified with and only until the token's `exp`; revocation and the user id match are checked on every request.
 */
const verified = new Map<string, Verified>();

/** The current time in seconds, as jose reads it. */
const nowSeconds = () => Math.floor(Date.now() / 1000);

function expired(payload: JWTPayload): boolean {
  return typeof payload.exp === 'number' && payload.exp <= nowSeconds() - CLOCK_TOLERANCE;
}

/** The token's claims once its signature and time claims are good (code 40-43 otherwise). */
async function verifiedPayload(secret: string, token: string): Promise<JWTPayload> {
  const known = verified.get(token);
  if (known && known.secret === secret) {
    if (!expired(known.payload)) return known.payload;
    verified.delete(token);
    throw new ChatError(ChatErrorCode.TokenExpired, 'JWT token expired', 401);
  }
  let payload;
  try {
    ({ payload } = await jwtVerify(token, encoder.encode(secret), {
      algorithms: ['HS256'],
      clockTolerance: CLOCK_TOLERANCE,
    }));
  } catch (err) {
    throw tokenError(err);
  }
  if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE) {
    throw new ChatError(ChatErrorCode.TokenUsedBeforeIssue, 'JWT token used before issue at', 401);
  }
  // `nbf` and `iat` passed once stay passed; only `exp` is checked again on a hit.
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
  verified.set(token, { secret, payload });
  return payload;
}

/** Forgets every verified token (tests). */
export function clearVerifiedTokens(): void {
  verified.clear();
}

/**
 * Checks the API key and the token and answers who is acting. A token with `server: true` (signed with the secret)
 * acts with full rights; `Auth-Type: anonymous` acts as a fresh anonymous visitor.
 */
export async function authenticate(
  config: Config,
  creds: Credentials,
  revokedBefore?: ReadonlyMap<string, number>,
): Promise<Actor> {
  if (creds.apiKey !== config.chatApiKey) {
    throw new ChatError(ChatErrorCode.AccessKey, 'api_key not found or not valid', 401);
  }
  // Anonymous visitors get a throwaway id and no user row; they are read-only (see the chat plugin's hook).
  if (creds.authType === 'anonymous') {
    return { kind: 'user', userId: `!anon-${crypto.randomUUID()}`, anonymous: true };
  }
  const token = creds.token?.replace(/^Bearer\s+/i, '');
  if (!token) throw authFailed('Authorization header (the chat token) is missing');
  const payload = await verifiedPayload(config.chatApiSecret, token);
  if (payload.server === true) return { kind: 'server' };
  const userId = payload.user_id;
  if (typeof userId !== 'string' || userId === '') throw authFailed('the token has no user_id claim');
  const revoked = revokedBefore?.get(userId);
  if (revoked !== undefined && (typeof payload.iat !== 'number' || payload.iat < revoked)) {
    throw new ChatError(ChatErrorCode.TokenExpired, 'JWT token revoked', 401);
  }
  if (creds.userId && creds.userId !== userId) {
    throw authFailed(`the token's user_id "${userId}" does not match user_id "${creds.userId}"`);
  }
  return { kind: 'user', userId };
}
