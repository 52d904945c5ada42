import { defineConfig, defaultClientConditions } from 'vite';
import react from '@vitejs/plugin-react';

/** Where `npm run dev` forwards API, chat and dev-outbox calls: the Caseroom server. */
const SERVER = 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
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
