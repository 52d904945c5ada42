import dns from 'node:dns';
import net from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import {
  addressAllowed,
  hostAllowed,
  parseAllowList,
  refusedAddressReason,
  type AllowEntry,
} from './address.js';

/** Resolves a host name to its addresses (default: the system resolver, every address). */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** Why an outbound request failed. `refused` and `invalid-url` never touched the network. */
export type HttpOutFailure =
  'invalid-url' | 'refused' | 'unreachable' | 'timeout' | 'too-many-redirects' | 'content-type' | 'too-large';

/**
 * A failed outbound request. `message` is safe to show a caller (no resolved address, no internal detail); `detail`
 * is for the log only.
 */
export class HttpOutError extends Error {
  constructor(
    readonly reason: HttpOutFailure,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'HttpOutError';
  }
}

export interface HttpOutOptions {
  /** Hosts, addresses and CIDRs reachable although private (`HTTP_OUT_ALLOW`; tests' loopback sites). */
  allow?: readonly string[];
  /** Fixed answers for host names, before DNS (`HTTP_OUT_RESOLVE`; tests, split-horizon setups). */
  hosts?: Readonly<Record<string, string>>;
  /** The resolver behind `hosts` (tests inject one; default: `dns.lookup` with every address). */
  resolve?: Resolver;
  /** Any port (tests of the address checks); otherwise 80 and 443, and any port of an allow-listed destination. */
  anyPort?: boolean;
  /** Total time of one request, redirects and body included (default 5 s). */
  timeoutMs?: number;
  /** Redirects followed (default 3). */
  maxRedirects?: number;
  /** `User-Agent` sent. */
  userAgent?: string;
}

export interface FetchOptions {
  /** Bytes of body kept; the rest is not read (the answer says `truncated`). Default 1 MiB. */
  maxBytes?: number;
  /** Refuse (and do not read) a body whose content type this rejects; gets the bare lowercased MIME type. */
  accept?: (mime: string) => boolean;
  /** Over the client's total time. */
  timeoutMs?: number;
  headers?: Record<string, string>;
}

export interface FetchResult {
  /** The URL finally answered (after redirects). */
  url: string;
  status: number;
  /** Bare lowercased MIME type (`text/html`), '' when absent. */
  mime: string;
  contentType: string;
  body: Buffer;
  truncated: boolean;
}

const DEFAULT_PORTS = new Set([80, 443]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const systemResolve: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

const refused = (detail: string) =>
  new HttpOutError('refused', 'the address of this link is not allowed', detail);

/**
 * The one outbound HTTP client (DESIGN.md "Files and outside services"; docs/security.md "Outbound requests").
 * Every connection goes through an undici `Agent` whose connector checks the address it is about to connect to —
 * the resolved one, inside the connect (a custom `lookup`), so a DNS answer that changes between a check and the
 * connect (rebinding) cannot slip through — and refuses private, loopback, link-local, CGNAT, multicast,
 * unspecified, benchmark, documentation and metadata addresses and their IPv6 forms, unless allow-listed.
 * Redirects are followed here (at most 3), each one checked again. Only http and https, ports 80 and 443.
 * Bodies are streamed and cut at a size; the whole request has one deadline.
 */
export class HttpOut {
  private readonly allow: AllowEntry[];
  private readonly hosts: Map<string, string>;
  private readonly resolve: Resolver;
  readonly dispatcher: Dispatcher;
  private readonly opts: HttpOutOptions;

  constructor(opts: HttpOutOptions = {}) {
    this.opts = opts;
    this.allow = parseAllowList(opts.allow ?? []);
    this.hosts = new Map(Object.entries(opts.hosts ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    this.resolve = opts.resolve ?? systemResolve;
    const timeout = opts.timeoutMs ?? 5000;
    const base = buildConnector({ timeout, lookup: this.lookup });
    this.dispatcher = new Agent({
      headersTimeout: timeout,
      bodyTimeout: timeout,
      connections: 16,
      keepAliveTimeout: 1000,
      // A literal address never reaches `lookup` (net skips it): it is checked here, before any socket exists.
      connect: (options, callback) => {
        const host = options.hostname.replace(/^\[|\]$/g, '');
        const problem = net.isIP(host) ? this.addressProblem(host) : undefined;
        if (problem) {
          callback(refused(problem), null);
          return;
        }
        base(options, callback);
      },
    });
  }

  /** Adds allow-list entries at run time (tests: a site started after the server). */
  allowAlso(entries: readonly string[]): void {
    this.allow.push(...parseAllowList(entries));
  }

  /** Maps a host name to an address (tests: a site under a domain name on loopback). */
  mapHost(name: string, address: string): void {
    this.hosts.set(name.toLowerCase(), address);
  }

  private addressProblem(address: string, host?: string): string | undefined {
    if (host && hostAllowed(this.allow, host)) return undefined;
    if (addressAllowed(this.allow, address)) return undefined;
    const reason = refusedAddressReason(address);
    return reason ? `${address} is ${reason}` : undefined;
  }

  /** `net`'s lookup: resolves, then refuses the whole name when any of its addresses is not allowed. */
  private readonly lookup = (
    hostname: string,
    options: dns.LookupOptions,
    callback: (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void,
  ): void => {
    const fixed = this.hosts.get(hostname.toLowerCase());
    const answer = fixed
      ? Promise.resolve([{ address: fixed, family: net.isIP(fixed) }])
      : this.resolve(hostname);
    answer.then(
      (all) => {
        const wanted = options.family ? all.filter((a) => a.family === options.family) : all;
        if (wanted.length === 0)
          return callback(new HttpOutError('unreachable', 'the link cannot be reached'), '');
        for (const a of wanted) {
          const problem = this.addressProblem(a.address, hostname);
          // Said as for a name that does not resolve: the answer must not tell which internal names exist.
          if (problem) {
            const err = new HttpOutError(
              'refused',
              'the link cannot be reached',
              `${hostname} -> ${problem}`,
            );
            return callback(err, '');
          }
        }
        if (options.all) return callback(null, wanted);
        const first = wanted[0]!;
        callback(null, first.address, first.family);
      },
      () =>
        callback(
          new HttpOutError('unreachable', 'the link cannot be reached', `no address for ${hostname}`),
          '',
        ),
    );
  };

  /** Checks a URL before a request: scheme, port, credentials. Answers the parsed URL. */
  checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new HttpOutError('invalid-url', 'the link is not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new HttpOutError('invalid-url', 'only http and https links are fetched');
    }
    if (url.username || url.password)
      throw new HttpOutError('invalid-url', 'links with credentials are not fetched');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    if (!this.opts.anyPort && !DEFAULT_PORTS.has(port) && !this.destinationAllowed(host)) {
      throw refused(`port ${port}`);
    }
    if (net.isIP(host)) {
      const problem = this.addressProblem(host);
      if (problem) throw refused(problem);
    }
    return url;
  }

  /** An allow-listed destination may use any port: a listed host name, or a literal or mapped address in range. */
  private destinationAllowed(host: string): boolean {
    if (hostAllowed(this.allow, host)) return true;
    const address = net.isIP(host) ? host : this.hosts.get(host.toLowerCase());
    return address !== undefined && addressAllowed(this.allow, address);
  }

  /** GET a URL: redirects followed and checked, body streamed and cut at `maxBytes`, one deadline for it all. */
  async get(raw: string, options: FetchOptions = {}): Promise<FetchResult> {
    const timeoutMs = options.timeoutMs ?? this.opts.timeoutMs ?? 5000;
    const signal = AbortSignal.timeout(timeoutMs);
    const maxRedirects = this.opts.maxRedirects ?? 3;
    let url = this.checkUrl(raw);
    for (let hop = 0; ; hop++) {
      const res = await this.request(url, options, signal);
      const location = res.headers.location;
      if (REDIRECTS.has(res.statusCode) && location) {
        discard(res.body);
        if (hop >= maxRedirects) throw new HttpOutError('too-many-redirects', 'the link redirects too often');
        let next: string;
        try {
          next = new URL(String(location), url).toString();
        } catch {
          throw new HttpOutError('invalid-url', 'the link redirects to an invalid URL');
        }
        url = this.checkUrl(next);
        continue;
      }
      const contentType = String(res.headers['content-type'] ?? '');
      const mime = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
      if (options.accept && !options.accept(mime)) {
        discard(res.body);
        throw new HttpOutError('content-type', 'the link has no preview', `content type "${mime}"`);
      }
      const { body, truncated } = await readCapped(res.body, options.maxBytes ?? 1024 * 1024, signal);
      return { url: url.toString(), status: res.statusCode, mime, contentType, body, truncated };
    }
  }

  /**
   * POST a JSON body (webhook-style deliveries: the analytics HTTP sink). The same address checks as `get`; redirects
   * are not followed (a 3xx is answered as it is: a body must not be re-sent to where a server points), and at most
   * `maxBytes` (default 64 KiB) of the answer is read.
   */
  async postJson(raw: string, payload: unknown, options: FetchOptions = {}): Promise<FetchResult> {
    const timeoutMs = options.timeoutMs ?? this.opts.timeoutMs ?? 5000;
    const signal = AbortSignal.timeout(timeoutMs);
    const url = this.checkUrl(raw);
    const res = await this.request(
      url,
      { ...options, headers: { accept: 'application/json', ...options.headers } },
      signal,
      { method: 'POST', body: JSON.stringify(payload), contentType: 'application/json' },
    );
    const contentType = String(res.headers['content-type'] ?? '');
    const mime = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    const { body, truncated } = await readCapped(res.body, options.maxBytes ?? 64 * 1024, signal);
    return { url: url.toString(), status: res.statusCode, mime, contentType, body, truncated };
  }

  private async request(
    url: URL,
    options: FetchOptions,
    signal: AbortSignal,
    send?: { method: 'POST'; body: string; contentType: string },
  ) {
    try {
      return await this.dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: send?.method ?? 'GET',
        headers: {
          'user-agent': this.opts.userAgent ?? 'CaseroomBot/1.0 (link preview)',
          accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
          ...(send ? { 'content-type': send.contentType } : {}),
          ...options.headers,
        },
        ...(send ? { body: send.body } : {}),
        signal,
      });
    } catch (err) {
      throw asHttpOutError(err, signal);
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

/** Drops a body not wanted (the connection closes; the abort it reports is expected). */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Reads a body up to `max` bytes; stops reading (and drops the connection) past it. */
async function readCapped(
  body: Dispatcher.ResponseData['body'],
  max: number,
  signal: AbortSignal,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const room = max - size;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        discard(body);
        return { body: Buffer.concat(chunks), truncated: chunk.length > room || !body.readableEnded };
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (err) {
    throw asHttpOutError(err, signal);
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

function asHttpOutError(err: unknown, signal: AbortSignal): HttpOutError {
  if (err instanceof HttpOutError) return err;
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof HttpOutError) return cause;
  if (signal.aborted) return new HttpOutError('timeout', 'the link took too long to answer');
  const name = (err as { code?: string; name?: string }).code ?? (err as Error).name;
  if (typeof name === 'string' && /TIMEOUT/i.test(name)) {
    return new HttpOutError('timeout', 'the link took too long to answer');
  }
  return new HttpOutError(
    'unreachable',
    'the link cannot be reached',
    err instanceof Error ? err.message : String(err),
  );
}
