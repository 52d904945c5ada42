import { defineConfig } from 'vitest/config';

/**
 * Test projects:
 * - unit: colocated `*.test.ts(x)` files, no services (part of `npm run check`).
 * - server: HTTP + real WebSockets against PostgreSQL (and the PGlite smoke suite), `packages/server/test`.
 * - sdk: the SDK against a real server, `packages/sdk/test`.
 * - e2e: real Chromium through playwright-core, `e2e/`.
 */
export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    projects: [
      {
        resolve: { conditions: ['source'] },
        // Node-environment tests resolve as SSR: the workspace packages come from source there too, never from a
        // build that a fresh clone does not have yet.
        ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        resolve: { conditions: ['source'] },
        test: {
          name: 'server',
          include: [
            'packages/server/test/**/*.test.ts',
            'packages/sdk/test/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        resolve: { conditions: ['source'] },
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          // After all e2e files: no token or secret in any server log (e2e/support/log-check.ts).
          globalSetup: ['e2e/support/log-check.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
