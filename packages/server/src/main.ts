import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './platform/config.js';
import { createLogger } from './platform/logger.js';
import { openStorage } from './platform/storage/index.js';
import { openBus, openDatabase } from './platform/open.js';

/** Starts Caseroom: config -> database (migrated) -> bus -> modules -> demo data -> listen. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const db = await openDatabase(config, log);
  const bus = await openBus(config, log);
  const app = await buildApp({ config, db, bus, log, storage: openStorage(config) });
  if (config.seedDemo) await app.product.seedDemo();
  // Production never seeds demo data (config refuses SEED_DEMO) nor keeps demo accounts with their known password.
  if (config.production) await app.product.disableDemoPasswords();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    app.drain();
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.chat.close();
      await app.http.close();
      await bus.close();
      await db.close();
    } catch (err) {
      log.error({ err }, 'error during shutdown');
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.http.listen({ port: config.port, host: config.host });
  log.info({ url: config.publicUrl, database: db.kind, bus: bus.kind }, 'Caseroom is running');
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Caseroom failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
