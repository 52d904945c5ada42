import path from 'node:path';

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
   * Whom to believe about the client's address (`X-Forwarded-For`): false (the socket's peer; default),
   * true (any proxy), a hop count, or proxy addresses/CIDRs. Per-IP rate limits depend on it.
   */
  trustProxy: boolean | number | string[];
  /**
   * Operator overrides of the chat's per-user rate limits (`CHAT_RATE_LIMITS`): `off`, or
   * `Endpoint=points/seconds` pairs separated by commas (e.g. `SendMessage=600/60`); unset = the defaults.
   */
  chatRateLimits: 'off' | Record<string, { points: number; duration: number }>;
  /** Connections in the PostgreSQL pool (`DATABASE_POOL_MAX`, default 10). */
  databasePoolMax: number;
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
  if (['true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (/^\d+$/.test(raw)) return raw === '1' ? true : Number(raw);
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

function readSecret(env: Env, name: string, production: boolean, devDefault: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') {
    if (production) throw new ConfigError(name, 'is required in production (NODE_ENV=production)');
    return devDefault;
  }
  if (raw.length < 16) throw new ConfigError(name, 'must be at least 16 characters long');
  return raw;
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
    chatApiKey: env.CHAT_API_KEY || 'caseroom-dev-key',
    chatApiSecret: readSecret(env, 'CHAT_API_SECRET', production, 'caseroom-dev-chat-secret-change-me'),
    authSecret: readSecret(env, 'AUTH_SECRET', production, 'caseroom-dev-auth-secret-change-me'),
    seedDemo: readBool(env, 'SEED_DEMO', databaseUrl === undefined),
    production,
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'warn' : 'info'),
    webDist: env.WEB_DIST,
    trustProxy: readTrustProxy(env),
    chatRateLimits: readRateLimits(env),
    databasePoolMax: readPoolMax(env),
    oauth: {
      google: readOAuth(env, 'GOOGLE'),
      microsoft: readOAuth(env, 'MICROSOFT'),
      apple: readOAuth(env, 'APPLE'),
    },
  };
}
