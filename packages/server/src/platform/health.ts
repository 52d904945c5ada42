import type { FastifyInstance } from 'fastify';
import type { Platform } from './context.js';

/** How long a health check waits on a dependency before counting it as down. */
export const HEALTH_CHECK_TIMEOUT_MS = 2000;

export type CheckState = 'ok' | 'down';

/** The health endpoints' switches: ready once the app listens, draining once it shuts down. */
export interface Health {
  /** The node stops taking new work (SIGTERM): `/readyz` answers 503 `draining` from now on. */
  drain(): void;
}

async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /healthz` (liveness): 200 while the process runs and the database answers, whatever Redis does.
 * `GET /readyz` (readiness, for a load balancer): each dependency — the database, Redis when `REDIS_URL` is set, and
 * the file storage (disk or S3) — with 200 when all are fine, 503 naming the degraded ones otherwise, and 503 while
 * starting or draining.
 */
export function healthRoutes(http: FastifyInstance, platform: Platform): Health {
  let started = false;
  let draining = false;
  http.addHook('onReady', async () => {
    started = true;
  });

  const database = async (): Promise<CheckState> => {
    try {
      await within(platform.db.query('SELECT 1'), HEALTH_CHECK_TIMEOUT_MS, 'the database');
      return 'ok';
    } catch (err) {
      platform.log.warn({ err }, 'health check: database down');
      return 'down';
    }
  };
  const redis = async (): Promise<CheckState> => {
    try {
      await within(platform.bus.check(), HEALTH_CHECK_TIMEOUT_MS, 'redis');
      return 'ok';
    } catch (err) {
      // The bus logs the outage once; a load balancer's probes would repeat it every few seconds.
      platform.log.debug({ err }, 'health check: redis degraded');
      return 'down';
    }
  };

  const storage = async (): Promise<CheckState> => {
    try {
      await within(platform.storage.check(), HEALTH_CHECK_TIMEOUT_MS, 'the file storage');
      return 'ok';
    } catch (err) {
      platform.log.warn({ err, storage: platform.storage.kind }, 'health check: file storage down');
      return 'down';
    }
  };

  http.get('/healthz', async (_req, reply) => {
    if (!started) return reply.code(503).send({ status: 'starting' });
    if ((await database()) !== 'ok')
      return reply.code(503).send({ status: 'down', checks: { database: 'down' } });
    return { status: 'ok' };
  });

  http.get('/readyz', async (_req, reply) => {
    const [db, bus, files] = await Promise.all([
      database(),
      platform.bus.kind === 'redis' ? redis() : undefined,
      storage(),
    ]);
    const checks: Record<string, CheckState> = {
      database: db,
      ...(bus ? { redis: bus } : {}),
      storage: files,
    };
    const degraded = Object.keys(checks).filter((k) => checks[k] !== 'ok');
    const status = !started ? 'starting' : draining ? 'draining' : degraded.length > 0 ? 'degraded' : 'ok';
    return reply
      .code(status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status, checks, ...(degraded.length > 0 ? { degraded } : {}) });
  });

  return {
    drain() {
      draining = true;
    },
  };
}
