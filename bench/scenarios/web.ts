import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * Web: the JavaScript the browser fetches on the first load of /app (the entry script, its modulepreloads and the
 * route preloads for /app from packages/web/dist/index.html), gzip-compressed at level 6 (the server also has
 * brotli files, which are smaller).
 */

export interface WebResult {
  files: Array<{ file: string; bytes: number; gzipBytes: number }>;
  jsBytes: number;
  jsGzipBytes: number;
}

export function measureBundle(root: string): WebResult {
  const dist = path.join(root, 'packages/web/dist');
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const refs = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) if (m[1]) refs.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g))
    if (m[1]) refs.add(m[1]);
  // The route preloads index.html adds on /app addresses (the app shell and the chat list), loaded at once too.
  const routes = /preloadRoutes\(routes\)[\s\S]*?\}\)\((\[[\s\S]*?\])\)<\/script>/.exec(html)?.[1];
  if (routes) {
    for (const route of JSON.parse(routes) as Array<{ paths: string; scripts: string[] }>) {
      if (new RegExp(route.paths).test('/app')) for (const script of route.scripts) refs.add(script);
    }
  }
  const files = [...refs].map((ref) => {
    const file = path.join(dist, ref.replace(/^\//, ''));
    const data = fs.readFileSync(file);
    return { file: ref, bytes: data.length, gzipBytes: zlib.gzipSync(data, { level: 6 }).length };
  });
  if (files.length === 0) throw new Error('no module script found in packages/web/dist/index.html');
  return {
    files,
    jsBytes: files.reduce((a, f) => a + f.bytes, 0),
    jsGzipBytes: files.reduce((a, f) => a + f.gzipBytes, 0),
  };
}
