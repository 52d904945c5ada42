import path from 'node:path';
import { inspect } from 'node:util';
import type { S3Settings } from './storage/s3.js';
import { readHttpOutConfig, type HttpOutConfig } from './http-out/config.js';
import { readAnalyticsConfig, type AnalyticsConfig } from './analytics-config.js';

/** Validated runtime configuration, read once from the environment. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  /** Sender of the product's mails (`MAIL_FROM`). */
  mailFrom: string;
  chatApiKey: string;
  chatApiSecret: string;
  authSecret: string;
  seedDemo: boolean;
  production: boolean;
  logLevel: string;
  webDist: string | undefined;
  /**
   * Whom to believe about the client's address (`X-Forwarded-For`): false (the socket's peer; default), a hop
   * count (`1`: the one proxy in front of us, so the client is the last address it appended), or the proxies'
   * addresses/CIDRs. Never "every proxy": a client could then name any address it likes. Per-IP limits and
   * logs depend on it.
   */
  trustProxy: false | number | string[];
  /**
   * Operator overrides of the chat's per-user rate limits (`CHAT_RATE_LIMITS`): `off`, or
   * `Endpoint=points/seconds` pairs separated by commas (e.g. `SendMessage=600/60`); unset = the defaults.
   */
  chatRateLimits: 'off' | Record<string, { points: number; duration: number }>;
  /** Connections in the PostgreSQL pool (`DATABASE_POOL_MAX`, default 10). */
  databasePoolMax: number;
  /**
   * The media tools (`FFPROBE_PATH`, `FFMPEG_PATH`; default: found on PATH) for video posters and audio/video
   * durations; when they are missing those facts stay empty and uploads still work.
   */
  media: { ffprobePath: string; ffmpegPath: string };
  /** The S3-compatible store for files (`S3_*`); files go to disk under `DATA_DIR/files` when undefined. */
  s3: S3Settings | undefined;
  /** The outbound client's allow-list and fixed host answers (`HTTP_OUT_ALLOW`, `HTTP_OUT_RESOLVE`). */
  httpOut: HttpOutConfig;
  /** The analytics HTTP sink (`ANALYTICS_HTTP_*`); events always go to the database too. */
  analytics: AnalyticsConfig;
  oauth: Record<
    'google' | 'microsoft' | 'apple',
    { clientId: string; clientSecret: string; issuer?: string } | undefined
  >;
}

/** A configuration error names the variable at fault; `main` prints it and exits. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function readPort(env: Env): number {
  const raw = env.PORT ?? '3000';
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 0 || port > 65535) {
    throw new ConfigError('PORT', `must be a port number from 0 to 65535, got "${raw}"`);
  }
  return port;
}

function readUrl(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return raw;
}

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, `must be 1 or 0 (true/false), got "${raw}"`);
}

function readTrustProxy(env: Env): Config['trustProxy'] {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || ['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  // "Yes, there is a proxy" is one hop: the address the proxy appended, never one the client wrote before it.
  if (['true', 'yes', 'on'].includes(raw.toLowerCase())) return 1;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 10) throw new ConfigError('TRUST_PROXY', `must be a hop count from 0 to 10, got "${raw}"`);
    return hops === 0 ? false : hops;
  }
  const list = raw.split(',').map((a) => a.trim());
  if (list.some((a) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(a))) {
    throw new ConfigError('TRUST_PROXY', `must be 0/1, a hop count or proxy addresses (CIDR), got "${raw}"`);
  }
  return list;
}

function readRateLimits(env: Env): Config['chatRateLimits'] {
  const raw = (env.CHAT_RATE_LIMITS ?? '').trim();
  if (raw === '') return {};
  if (raw.toLowerCase() === 'off') return 'off';
  const out: Record<string, { points: number; duration: number }> = {};
  for (const part of raw.split(',')) {
    const m = /^\s*([A-Za-z]+)\s*=\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(part);
    if (!m || Number(m[2]) < 1 || Number(m[3]) < 1) {
      throw new ConfigError(
        'CHAT_RATE_LIMITS',
        `must be "off" or Endpoint=points/seconds pairs separated by commas (e.g. SendMessage=600/60), got "${raw}"`,
      );
    }
    out[m[1] as string] = { points: Number(m[2]), duration: Number(m[3]) };
  }
  return out;
}

function readPoolMax(env: Env): number {
  const raw = env.DATABASE_POOL_MAX ?? '';
  if (raw === '') return 10;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 1000) {
    throw new ConfigError('DATABASE_POOL_MAX', `must be a whole number from 1 to 1000, got "${raw}"`);
  }
  return n;
}

/**
 * `S3_BUCKET` switches file storage to S3; everything else about the store is then checked here, so a half-configured
 * store stops the server at start instead of failing on the first upload. The keys are never part of a message.
 */
function readS3(env: Env): S3Settings | undefined {
  const names = [
    'S3_ENDPOINT',
    'S3_REGION',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
    'S3_FORCE_PATH_STYLE',
    'S3_PREFIX',
  ] as const;
  const bucket = env.S3_BUCKET ?? '';
  if (bucket === '') {
    const stray = names.find((name) => (env[name] ?? '') !== '');
    if (stray)
      throw new ConfigError(
        'S3_BUCKET',
        `is required when ${stray} is set (files go to S3 only with a bucket)`,
      );
    return undefined;
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError(
      'S3_BUCKET',
      `must be an S3 bucket name (3 to 63 of a-z, 0-9, '.', '-'), got "${bucket}"`,
    );
  }
  const accessKeyId = env.S3_ACCESS_KEY_ID ?? '';
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY ?? '';
  if (accessKeyId === '') throw new ConfigError('S3_ACCESS_KEY_ID', 'is required when S3_BUCKET is set');
  if (secretAccessKey === '')
    throw new ConfigError('S3_SECRET_ACCESS_KEY', 'is required when S3_BUCKET is set');
  const region = env.S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]{1,64}$/.test(region)) {
    throw new ConfigError('S3_REGION', `must be a region name such as us-east-1, got "${region}"`);
  }
  const prefix = (env.S3_PREFIX ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix !== '' && !/^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/.test(prefix)) {
    throw new ConfigError(
      'S3_PREFIX',
      `must be key parts of A-Z, a-z, 0-9, '_', '.', '-' separated by '/', got "${prefix}"`,
    );
  }
  const settings: S3Settings = {
    bucket,
    endpoint: readUrl(env, 'S3_ENDPOINT', ['http:', 'https:']),
    region,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: readBool(env, 'S3_FORCE_PATH_STYLE', false),
    prefix,
  };
  // Should the config ever reach a log line or a console, the secret shows as redacted (not enumerable: tests and
  // spreads are unchanged).
  const shown = (): S3Settings => ({ ...settings, secretAccessKey: '[redacted]' });
  Object.defineProperty(settings, 'toJSON', { value: shown, enumerable: false });
  Object.defineProperty(settings, inspect.custom, { value: shown, enumerable: false });
  return settings;
}

/**
 * The development values of the chat API key and the two secrets. They are public (in this repository), so a
 * production server refuses them: anyone could sign chat tokens or sessions for any user with them.
 */
export const DEV_SECRETS = {
  CHAT_API_KEY: 'caseroom-dev-key',
  CHAT_API_SECRET: 'caseroom-dev-chat-secret-change-me',
  AUTH_SECRET: 'caseroom-dev-auth-secret-change-me',
} as const;

function readSecret(
  env: Env,
  name: keyof typeof DEV_SECRETS,
  production: boolean,
  minLength: number,
): string {
  const raw = env[name];
  const devValue = DEV_SECRETS[name];
  if (raw === undefined || raw === '') {
    if (production) throw new ConfigError(name, 'is required in production (NODE_ENV=production)');
    return devValue;
  }
  if (production && raw === devValue) {
    throw new ConfigError(
      name,
      'is the published development value; set a random value of your own in production (e.g. `openssl rand -hex 32`)',
    );
  }
  if (raw.length < minLength) throw new ConfigError(name, `must be at least ${minLength} characters long`);
  return raw;
}

/** Demo data has accounts with a published password: never in production. */
function readSeedDemo(env: Env, production: boolean, embedded: boolean): boolean {
  const seed = readBool(env, 'SEED_DEMO', embedded && !production);
  if (seed && production) {
    throw new ConfigError(
      'SEED_DEMO',
      'must be off in production (NODE_ENV=production): the demo accounts have a published password',
    );
  }
  return seed;
}

function readOAuth(env: Env, provider: string) {
  const id = env[`${provider}_CLIENT_ID`];
  const secret = env[`${provider}_CLIENT_SECRET`];
  if (!id && !secret) return undefined;
  if (!id)
    throw new ConfigError(`${provider}_CLIENT_ID`, `is required when ${provider}_CLIENT_SECRET is set`);
  if (!secret)
    throw new ConfigError(`${provider}_CLIENT_SECRET`, `is required when ${provider}_CLIENT_ID is set`);
  const issuer = readUrl(env, `${provider}_ISSUER`, ['http:', 'https:']);
  return { clientId: id, clientSecret: secret, ...(issuer ? { issuer } : {}) };
}

/** Reads and validates the environment. Throws {@link ConfigError} naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const port = readPort(env);
  const databaseUrl = readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const publicUrl = readUrl(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl,
    redisUrl: readUrl(env, 'REDIS_URL', ['redis:', 'rediss:']),
    publicUrl: publicUrl.replace(/\/$/, ''),
    smtpUrl: readUrl(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM || `Caseroom <no-reply@${new URL(publicUrl).hostname}>`,
    chatApiKey: readSecret(env, 'CHAT_API_KEY', production, 1),
    chatApiSecret: readSecret(env, 'CHAT_API_SECRET', production, 16),
    authSecret: readSecret(env, 'AUTH_SECRET', production, 16),
    seedDemo: readSeedDemo(env, production, databaseUrl === undefined),
    production,
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'warn' : 'info'),
    webDist: env.WEB_DIST,
    trustProxy: readTrustProxy(env),
    chatRateLimits: readRateLimits(env),
    databasePoolMax: readPoolMax(env),
    media: { ffprobePath: env.FFPROBE_PATH || 'ffprobe', ffmpegPath: env.FFMPEG_PATH || 'ffmpeg' },
    s3: readS3(env),
    httpOut: readHttpOutConfig(env, (name, why) => {
      throw new ConfigError(name, why);
    }),
    analytics: readAnalyticsConfig(env, (name, why) => {
      throw new ConfigError(name, why);
    }),
    oauth: {
      google: readOAuth(env, 'GOOGLE'),
      microsoft: readOAuth(env, 'MICROSOFT'),
      apple: readOAuth(env, 'APPLE'),
    },
  };
}
