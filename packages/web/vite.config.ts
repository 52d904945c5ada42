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

/**
 * `@caseroom/protocol`'s modules only declare things: constants, types, and zod schemas the server validates
 * with. The browser uses some constants and no schema, but a bundler keeps every `z.object(...)` call (it cannot
 * know the call is pure), and with them all of zod (≈115 KB, 30 KB compressed) on the way to the chat. Marking
 * each top-level `const X = <call>` in those modules `@__PURE__` lets the unused ones, and zod, drop out.
 */
function protocolSchemasPure(): Plugin {
  const PROTOCOL_SRC = /[\\/]packages[\\/]protocol[\\/]src[\\/].*\.ts$/;
  return {
    name: 'caseroom:protocol-schemas-pure',
    apply: 'build',
    transform(code, id) {
      if (!PROTOCOL_SRC.test(id)) return null;
      // [start, end) of each top-level initialiser that calls something, wrapped in a pure arrow call (the
      // annotation alone would leave the calls in its arguments, `z.string()` and the like).
      const spans: Array<[number, number]> = [];
      for (const statement of this.parse(code).body) {
        const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
        if (declaration?.type !== 'VariableDeclaration') continue;
        for (const { init } of declaration.declarations) {
          if (init?.type === 'CallExpression' || init?.type === 'NewExpression')
            spans.push([init.start, init.end]);
        }
      }
      let out = code;
      for (const [start, end] of spans.sort((a, b) => b[0] - a[0])) {
        out = `${out.slice(0, start)}/* @__PURE__ */ (() => ${out.slice(start, end)})()${out.slice(end)}`;
      }
      return { code: out, map: null, moduleSideEffects: false };
    },
  };
}

/**
 * The app shell and the chat view are lazy routes: without help the browser learns of them only once the entry
 * script has arrived and run. On `/app` URLs a small inline script in index.html asks for them (and the modules
 * and styles they import) at once, alongside the entry script. Elsewhere (the sign-in page) nothing changes.
 */
function preloadAppRoutes(): Plugin {
  const ROUTES: Array<{ module: RegExp; paths: string }> = [
    // Every `/app` page renders inside the app shell.
    { module: /[\\/]src[\\/]app[\\/]AppLayout\.tsx$/, paths: '^/app(/|$)' },
    // The chat view is `/app` itself (no channel open) and `/app/chat/:type/:id`.
    { module: /[\\/]src[\\/]chat[\\/]ChannelView\.tsx$/, paths: '^/app(/?$|/chat/)' },
  ];
  return {
    name: 'caseroom:preload-app-routes',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return;
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const byName = new Map(chunks.map((c) => [c.fileName, c]));
        // What the entry already loads is in the page; only the rest is worth a hint.
        const loaded = new Set<string>();
        const walk = (name: string, into: Set<string>) => {
          if (into.has(name) || loaded.has(name)) return;
          into.add(name);
          for (const dep of byName.get(name)?.imports ?? []) walk(dep, into);
        };
        for (const entry of chunks.filter((c) => c.isEntry)) walk(entry.fileName, loaded);
        const routes = ROUTES.flatMap(({ module, paths }) => {
          const chunk = chunks.find((c) => c.facadeModuleId && module.test(c.facadeModuleId));
          if (!chunk) return [];
          const scripts = new Set<string>();
          walk(chunk.fileName, scripts);
          const styles = new Set<string>();
          for (const name of scripts)
            for (const css of byName.get(name)?.viteMetadata?.importedCss ?? []) styles.add(css);
          return [
            { paths, scripts: [...scripts].map((f) => `/${f}`), styles: [...styles].map((f) => `/${f}`) },
          ];
        });
        if (routes.length < ROUTES.length) throw new Error('preload-app-routes: a route chunk is missing');
        const script = `(${preloadRoutes.toString()})(${JSON.stringify(routes)})`;
        return [{ tag: 'script', children: script, injectTo: 'head' }];
      },
    },
  };
}

/** Runs in the page (stringified into index.html): hints the chunks of the routes matching the address. */
function preloadRoutes(routes: Array<{ paths: string; scripts: string[]; styles: string[] }>) {
  const add = (rel: string, href: string, as?: string) => {
    const link = document.createElement('link');
    link.rel = rel;
    link.href = href;
    if (as) link.as = as;
    link.crossOrigin = '';
    document.head.appendChild(link);
  };
  const added = new Set<string>();
  for (const route of routes) {
    if (!new RegExp(route.paths).test(location.pathname)) continue;
    for (const href of route.scripts) {
      if (added.has(href)) continue;
      added.add(href);
      add('modulepreload', href);
    }
    for (const href of route.styles) add('preload', href, 'style');
  }
}

export default defineConfig({
  plugins: [react(), protocolSchemasPure(), preloadAppRoutes(), precompress()],
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
