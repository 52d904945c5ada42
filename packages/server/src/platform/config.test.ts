import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_SECRETS, loadConfig } from './config.js';

/** A production environment with secrets of its own. */
const PROD = {
  NODE_ENV: 'production',
  CHAT_API_KEY: 'prod-key-1234',
  CHAT_API_SECRET: 'c'.repeat(32),
  AUTH_SECRET: 'a'.repeat(32),
};

function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('loadConfig', () => {
  it('has sensible defaults for the embedded database', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.seedDemo).toBe(true);
    expect(c.dataDir.endsWith('/data')).toBe(true);
    expect(c.publicUrl).toBe('http://localhost:3000');
  });

  it('does not seed demo data on a PostgreSQL server unless asked', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1/db' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1/db', SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: '0' }).seedDemo).toBe(false);
  });

  it('trusts no proxy unless told which, and never every proxy', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
  });

  it('reads operator overrides of the chat rate limits and the pool size', () => {
    expect(loadConfig({}).chatRateLimits).toEqual({});
    expect(loadConfig({ CHAT_RATE_LIMITS: 'OFF' }).chatRateLimits).toBe('off');
    expect(loadConfig({ CHAT_RATE_LIMITS: 'SendMessage=600/60, Search = 10/1' }).chatRateLimits).toEqual({
      SendMessage: { points: 600, duration: 60 },
      Search: { points: 10, duration: 1 },
    });
    expect(loadConfig({}).databasePoolMax).toBe(10);
    expect(loadConfig({ DATABASE_POOL_MAX: '32' }).databasePoolMax).toBe(32);
  });

  it.each([
    [{ CHAT_RATE_LIMITS: 'SendMessage=fast' }, 'CHAT_RATE_LIMITS'],
    [{ CHAT_RATE_LIMITS: 'SendMessage=0/60' }, 'CHAT_RATE_LIMITS'],
    [{ DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX'],
    [{ DATABASE_POOL_MAX: 'many' }, 'DATABASE_POOL_MAX'],
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x/y' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO'],
    [{ CHAT_API_SECRET: 'short' }, 'CHAT_API_SECRET'],
    [{ NODE_ENV: 'production' }, 'CHAT_API_KEY'],
    [{ ...PROD, CHAT_API_SECRET: '' }, 'CHAT_API_SECRET'],
    [{ ...PROD, AUTH_SECRET: '' }, 'AUTH_SECRET'],
    [{ TRUST_PROXY: '11' }, 'TRUST_PROXY'],
    [{ GOOGLE_CLIENT_ID: 'id' }, 'GOOGLE_CLIENT_SECRET'],
    [{ TRUST_PROXY: 'the internet' }, 'TRUST_PROXY'],
  ])('names the variable at fault: %o', (env, variable) => {
    let caught: unknown;
    try {
      loadConfig(env);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).variable).toBe(variable);
    expect((caught as ConfigError).message).toContain(variable);
  });

  it('starts in production only with secrets of its own', () => {
    const c = loadConfig(PROD);
    expect(c.production).toBe(true);
    expect(c.chatApiKey).toBe('prod-key-1234');
    for (const [variable, devValue] of Object.entries(DEV_SECRETS)) {
      const err = configErrorOf({ ...PROD, [variable]: devValue });
      expect(err.variable).toBe(variable);
      expect(err.message).toMatch(
        new RegExp(`^Invalid configuration: ${variable} is the published development value`),
      );
      // Outside production the same values are the defaults.
      expect(() => loadConfig({ [variable]: devValue })).not.toThrow();
    }
  });

  it('stores files on disk unless S3_BUCKET is set, and reads the S3 store with its defaults', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    const keys = { S3_ACCESS_KEY_ID: 'AKIDEXAMPLE', S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI-secret' };
    expect(loadConfig({ S3_BUCKET: 'caseroom-files', ...keys }).s3).toEqual({
      bucket: 'caseroom-files',
      endpoint: undefined,
      region: 'us-east-1',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI-secret',
      forcePathStyle: false,
      prefix: '',
    });
    const s3 = loadConfig({
      S3_BUCKET: 'caseroom-files',
      ...keys,
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'eu-central-1',
      S3_FORCE_PATH_STYLE: '1',
      S3_PREFIX: '/prod/caseroom/',
    }).s3;
    expect(s3).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-central-1',
      forcePathStyle: true,
      prefix: 'prod/caseroom',
    });
    // The secret key never shows when the config is logged or printed.
    expect(JSON.stringify(s3)).not.toContain('wJalrXUtnFEMI-secret');
    expect(inspect(s3)).not.toContain('wJalrXUtnFEMI-secret');
    expect(JSON.stringify(s3)).toContain('AKIDEXAMPLE');
  });

  it.each([
    [{ S3_BUCKET: 'caseroom-files' }, 'S3_ACCESS_KEY_ID'],
    [{ S3_BUCKET: 'caseroom-files', S3_ACCESS_KEY_ID: 'AKID' }, 'S3_SECRET_ACCESS_KEY'],
    [{ S3_BUCKET: 'caseroom-files', S3_SECRET_ACCESS_KEY: 'secret' }, 'S3_ACCESS_KEY_ID'],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, 'S3_BUCKET'],
    [{ S3_ACCESS_KEY_ID: 'AKID', S3_SECRET_ACCESS_KEY: 'secret' }, 'S3_BUCKET'],
    [{ S3_BUCKET: 'Caseroom_Files', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 's' }, 'S3_BUCKET'],
    [
      { S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 's', S3_ENDPOINT: 'ftp://x' },
      'S3_ENDPOINT',
    ],
    [
      { S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 's', S3_PREFIX: 'a/../b' },
      'S3_PREFIX',
    ],
    [
      { S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 's', S3_FORCE_PATH_STYLE: 'y' },
      'S3_FORCE_PATH_STYLE',
    ],
    [
      { S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 's', S3_REGION: 'EU West' },
      'S3_REGION',
    ],
  ])('refuses a half-configured S3 store, naming the variable: %o', (env, variable) => {
    const err = configErrorOf(env);
    expect(err.variable).toBe(variable);
    expect(err.message).toContain(variable);
    expect(err.message).not.toContain('secret');
  });

  it('never seeds demo data in production, even on the embedded database', () => {
    expect(loadConfig(PROD).seedDemo).toBe(false);
    expect(loadConfig({ ...PROD, SEED_DEMO: '0' }).seedDemo).toBe(false);
    const err = configErrorOf({ ...PROD, SEED_DEMO: '1' });
    expect(err.variable).toBe('SEED_DEMO');
    expect(err.message).toContain('must be off in production');
  });
});
