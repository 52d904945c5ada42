import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readAnalyticsConfig } from './analytics-config.js';

const fail = (name: string, why: string): never => {
  throw new Error(`${name} ${why}`);
};

describe('readAnalyticsConfig', () => {
  it('has no HTTP sink by default', () => {
    expect({ ...readAnalyticsConfig({}, fail) }).toEqual({
      httpUrl: undefined,
      httpToken: undefined,
      httpBatch: 100,
      httpFlushMs: 5000,
    });
  });

  it('reads the URL, token, batch size and flush time, and never shows the token', () => {
    const config = readAnalyticsConfig(
      {
        ANALYTICS_HTTP_URL: 'https://collector.example.com/events',
        ANALYTICS_HTTP_TOKEN: 'very-secret',
        ANALYTICS_HTTP_BATCH: '20',
        ANALYTICS_HTTP_FLUSH_MS: '1000',
      },
      fail,
    );
    expect(config.httpUrl).toBe('https://collector.example.com/events');
    expect(config.httpToken).toBe('very-secret');
    expect(config.httpBatch).toBe(20);
    expect(config.httpFlushMs).toBe(1000);
    expect(JSON.stringify(config)).not.toContain('very-secret');
    expect(inspect(config)).not.toContain('very-secret');
  });

  it.each([
    [{ ANALYTICS_HTTP_URL: 'ftp://x.example.com' }, 'ANALYTICS_HTTP_URL'],
    [{ ANALYTICS_HTTP_URL: 'not a url' }, 'ANALYTICS_HTTP_URL'],
    [{ ANALYTICS_HTTP_URL: 'https://user:pw@x.example.com' }, 'ANALYTICS_HTTP_URL'],
    [{ ANALYTICS_HTTP_TOKEN: 't' }, 'ANALYTICS_HTTP_TOKEN'],
    [{ ANALYTICS_HTTP_BATCH: '0' }, 'ANALYTICS_HTTP_BATCH'],
    [{ ANALYTICS_HTTP_FLUSH_MS: '5s' }, 'ANALYTICS_HTTP_FLUSH_MS'],
  ])('refuses %j', (env, variable) => {
    expect(() => readAnalyticsConfig(env, fail)).toThrow(variable);
  });
});
