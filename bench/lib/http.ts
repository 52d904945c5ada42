import http from 'node:http';

/** A small JSON-over-HTTP client with keep-alive (cheaper per request than fetch on the generator's core). */
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

export interface JsonReply<T> {
  status: number;
  body: T;
  /** The server's own time for the request, from its `Server-Timing: app;dur=…` header, when it sends one. */
  serverMs?: number;
}

function serverTiming(header: string | string[] | undefined): number | undefined {
  const dur = /(?:^|,)\s*app;dur=([\d.]+)/.exec(String(header ?? ''))?.[1];
  return dur === undefined ? undefined : Number(dur);
}

export function httpJson<T = Record<string, unknown>>(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<JsonReply<T>> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          ...headers,
          ...(payload !== undefined
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            const serverMs = serverTiming(res.headers['server-timing']);
            resolve({
              status: res.statusCode ?? 0,
              body: (text ? JSON.parse(text) : {}) as T,
              ...(serverMs !== undefined ? { serverMs } : {}),
            });
          } catch (err) {
            reject(
              new Error(`${method} ${url}: ${res.statusCode} non-JSON answer: ${text.slice(0, 200)}`, {
                cause: err,
              }),
            );
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Answers true once `url` answers 200, polling until `timeoutMs`. */
export async function waitHealthy(url: string, timeoutMs: number, alive: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive()) throw new Error(`the server exited before ${url} answered`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
