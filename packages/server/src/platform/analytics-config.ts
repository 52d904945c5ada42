import { inspect } from 'node:util';

/** Where analytics events go besides the database (`ANALYTICS_HTTP_*`). */
export interface AnalyticsConfig {
  /** `ANALYTICS_HTTP_URL`: an external tool's endpoint that receives `POST {"events": [...]}` batches; unset = none. */
  httpUrl: string | undefined;
  /** `ANALYTICS_HTTP_TOKEN`: sent as `Authorization: Bearer <token>` when set (redacted in logs). */
  httpToken: string | undefined;
  /** `ANALYTICS_HTTP_BATCH`: events per POST at most (default 100, 1-1000). */
  httpBatch: number;
  /** `ANALYTICS_HTTP_FLUSH_MS`: how long an event may wait for a batch to fill (default 5000 ms). */
  httpFlushMs: number;
}

function readInt(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
  fail: (name: string, why: string) => never,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) fail(name, `must be a whole number from ${min} to ${max}`);
  return n;
}

/** Reads `ANALYTICS_HTTP_URL`, `_TOKEN`, `_BATCH`, `_FLUSH_MS`; `fail(variable, why)` throws the config error. */
export function readAnalyticsConfig(
  env: Record<string, string | undefined>,
  fail: (name: string, why: string) => never,
): AnalyticsConfig {
  const rawUrl = env.ANALYTICS_HTTP_URL ?? '';
  let httpUrl: string | undefined;
  if (rawUrl !== '') {
    let url: URL | undefined;
    try {
      url = new URL(rawUrl);
    } catch {
      fail('ANALYTICS_HTTP_URL', `must be an http(s) URL, got "${rawUrl}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      fail('ANALYTICS_HTTP_URL', 'must be an http: or https: URL');
    }
    if (url.username || url.password) {
      fail('ANALYTICS_HTTP_URL', 'must not carry credentials (use ANALYTICS_HTTP_TOKEN)');
    }
    httpUrl = url.toString();
  }
  const httpToken = env.ANALYTICS_HTTP_TOKEN || undefined;
  if (httpToken && !httpUrl) fail('ANALYTICS_HTTP_TOKEN', 'is set but ANALYTICS_HTTP_URL is not');
  const config: AnalyticsConfig = {
    httpUrl,
    httpToken,
    httpBatch: readInt(env, 'ANALYTICS_HTTP_BATCH', 100, 1, 1000, fail),
    httpFlushMs: readInt(env, 'ANALYTICS_HTTP_FLUSH_MS', 5000, 10, 3_600_000, fail),
  };
  // Should the config reach a log line, the token shows as redacted (not enumerable: spreads are unchanged).
  const shown = (): AnalyticsConfig => ({ ...config, httpToken: httpToken ? '[redacted]' : undefined });
  Object.defineProperty(config, 'toJSON', { value: shown, enumerable: false });
  Object.defineProperty(config, inspect.custom, { value: shown, enumerable: false });
  return config;
}
