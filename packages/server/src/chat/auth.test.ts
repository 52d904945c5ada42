import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Config } from '../platform/config.js';
import { authenticate, clearVerifiedTokens, signChatToken } from './auth.js';

const config = { chatApiKey: 'key', chatApiSecret: 'a-secret-long-enough-for-hs256' } as Config;
const creds = (token: string, userId?: string) => ({ apiKey: 'key', token, authType: 'jwt', userId });

describe('authenticate with verified tokens remembered', () => {
  afterEach(() => {
    vi.useRealTimers();
    clearVerifiedTokens();
  });

  it('accepts a token again without a new verification, and refuses it once it expired (code 40)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const token = await signChatToken(config, { user_id: 'maria' }, 60);
    expect(await authenticate(config, creds(token))).toEqual({ kind: 'user', userId: 'maria' });
    expect(await authenticate(config, creds(token))).toEqual({ kind: 'user', userId: 'maria' });
    // Within the clock tolerance (5 s) after `exp` it still counts, as jose has it.
    vi.setSystemTime(new Date('2026-01-01T00:01:04Z'));
    expect(await authenticate(config, creds(token))).toEqual({ kind: 'user', userId: 'maria' });
    vi.setSystemTime(new Date('2026-01-01T00:01:05Z'));
    await expect(authenticate(config, creds(token))).rejects.toMatchObject({ code: 40, status: 401 });
    await expect(authenticate(config, creds(token))).rejects.toMatchObject({ code: 40, status: 401 });
  });

  it('still refuses a remembered token once the user was revoked, or for another user_id', async () => {
    const token = await signChatToken(config, { user_id: 'maria' });
    expect(await authenticate(config, creds(token), new Map())).toEqual({ kind: 'user', userId: 'maria' });
    const revoked = new Map([['maria', Math.ceil(Date.now() / 1000) + 1]]);
    await expect(authenticate(config, creds(token), revoked)).rejects.toMatchObject({
      code: 40,
      message: 'JWT token revoked',
    });
    await expect(authenticate(config, creds(token, 'paul'))).rejects.toMatchObject({ code: 3 });
    expect(await authenticate(config, creds(token, 'maria'))).toEqual({ kind: 'user', userId: 'maria' });
  });

  it('does not accept a token remembered under another secret, nor with a wrong api key', async () => {
    const token = await signChatToken(config, { user_id: 'maria' });
    expect(await authenticate(config, creds(token))).toEqual({ kind: 'user', userId: 'maria' });
    const rotated = { ...config, chatApiSecret: 'another-secret-long-enough-for-hs256' } as Config;
    await expect(authenticate(rotated, creds(token))).rejects.toMatchObject({ code: 43 });
    await expect(authenticate(config, { ...creds(token), apiKey: 'other' })).rejects.toMatchObject({
      code: 2,
    });
    expect(await authenticate(config, creds(token))).toEqual({ kind: 'user', userId: 'maria' });
  });
});
