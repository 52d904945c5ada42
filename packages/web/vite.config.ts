import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, defaultClientConditions, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** Where `npm run dev` forwards API, chat and dev-outbox calls: the Caseroom server. */
const SERVER = 'http://localhost:3000';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text files that compress. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) next to each compressible output file (source maps
 * excepted) where it is smaller, for the server's `@fastify/static` `preCompressed` option: the compression is
 * paid once at build time, not per request.
 */
function precompress(): Plugin {
  return {
    name: 'caseroom:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const files = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(dir, name);
          const data = await fs.readFile(file);
          const [br, gz] = await Promise.all([
            brotli(data, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gzip(data, { level: 9 }),
          ]);
          await Promise.all([
            br.length < data.length && fs.writeFile(`${file}.br`, br),
            gz.length < data.length && fs.writeFile(`${file}.gz`, gz),
          ]);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: {
    // `source` makes workspace packages (@caseroom/sdk, @caseroom/protocol) resolve to their TypeScript.
    conditions: ['source', ...defaultClientConditions],
  },
  server: {
    proxy: {
      '/api': SERVER,
      '/dev': SERVER,
      '/chat': { target: SERVER, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
});
