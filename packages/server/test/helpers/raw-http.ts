import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * One HTTP request through node:http, which sends the headers it is given as they are (fetch will not set
 * `Host`, for one). The body, when given, is sent as JSON.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; json?: unknown } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const body = options.json === undefined ? undefined : JSON.stringify(options.json);
    const headers = { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers };
    const req = http.request(url, { method: options.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
