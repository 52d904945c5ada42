import { CHAT_FILE_PATH_PREFIX, chatFileIdOf } from '@caseroom/protocol';
import { errorFromResponse, type FetchLike } from '../transport/api-client.js';
import { ChatApiError } from '../transport/errors.js';
import type { TokenManager } from '../transport/token-manager.js';

/** A resize request in device pixels (chat-spec §9: callers ask for twice the CSS size). */
export interface BlobSize {
  w?: number | undefined;
  h?: number | undefined;
}

export interface FileCacheOptions {
  apiKey: string;
  /** The client's base URL: `/chat` or `http://host:port/chat`. */
  baseUrl: string;
  fetch: FetchLike;
  /** The current user's tokens (replaced on every connectUser). */
  tokens: () => TokenManager;
  /** Default `URL.createObjectURL` / `URL.revokeObjectURL`. */
  createObjectURL?: (blob: Blob) => string;
  revokeObjectURL?: (url: string) => void;
}

/** What the cache did this session (for tests and the performance report). */
export interface FileCacheStats {
  /** Downloads that went to the network. */
  fetches: number;
  /** Calls answered from the cache or from a download already under way. */
  hits: number;
  /** Object URLs currently held. */
  held: number;
}

/** The chat route prefix every stored file URL starts with; the client's base URL stands for it. */
const CHAT_ROUTE = CHAT_FILE_PATH_PREFIX.slice(0, CHAT_FILE_PATH_PREFIX.indexOf('/files/'));

/**
 * Stored chat files for the browser (product-spec §7 "Images: fetched with GET as blobs and cached").
 *
 * Chat files are private: `/chat/files/{id}/{name}` answers only with the chat token. An `<img>` cannot send an
 * `Authorization` header, so images are fetched here with the token and shown through object URLs, kept for the
 * session (keyed by URL and resize request) so that one image is downloaded once, however often it is rendered,
 * and concurrent renders share one download. `disconnectUser()` revokes them all. `<video>`/`<audio>` stream with
 * range requests, which a blob would defeat, so they get `mediaUrl()`: the token in the `authorization` query
 * parameter, as the WebSocket URL carries it. The token is only ever attached to the chat server's own origin;
 * any other URL (giphy, external images) is handed back as it is.
 */
export class FileCache {
  private readonly entries = new Map<string, Promise<string>>();
  /** Finished downloads by key, so a remounted image shows at once (no placeholder flash). */
  private readonly done = new Map<string, string>();
  private readonly held = new Set<string>();
  private generation = 0;
  private counts = { fetches: 0, hits: 0 };

  constructor(private readonly options: FileCacheOptions) {}

  /** True for a stored chat file URL on the chat server's origin (relative or absolute). */
  isChatFile(url: string | undefined): url is string {
    if (!url || chatFileIdOf(url) === undefined) return false;
    if (url.startsWith(CHAT_FILE_PATH_PREFIX)) return true;
    const origin = this.chatOrigin();
    try {
      return origin !== undefined && new URL(url).origin === origin;
    } catch {
      return false;
    }
  }

  /**
   * An object URL of the file at `url`, downloaded once per session for each resize request; other URLs are
   * returned unchanged. Rejects with a `ChatApiError` when the download fails (nothing is cached then).
   */
  fetchBlob(url: string, size: BlobSize = {}): Promise<string> {
    if (!this.isChatFile(url)) return Promise.resolve(url);
    const target = this.resolve(url, sizeQuery(size));
    const cached = this.entries.get(target);
    if (cached) {
      this.counts.hits++;
      return cached;
    }
    const generation = this.generation;
    const pending = this.download(target).then((blob) => {
      const objectUrl = (this.options.createObjectURL ?? URL.createObjectURL)(blob);
      if (generation !== this.generation) {
        // Disconnected meanwhile: the session's cache is gone, do not leak into the next one.
        (this.options.revokeObjectURL ?? URL.revokeObjectURL)(objectUrl);
        throw new ChatApiError('the user disconnected while the file was downloading', { network: true });
      }
      this.held.add(objectUrl);
      this.done.set(target, objectUrl);
      return objectUrl;
    });
    this.entries.set(target, pending);
    pending.catch(() => {
      if (this.entries.get(target) === pending) this.entries.delete(target);
    });
    return pending;
  }

  /** The object URL of a finished download of `url` at `size`, if there is one; other URLs as they are. */
  cached(url: string, size: BlobSize = {}): string | undefined {
    if (!this.isChatFile(url)) return url;
    return this.done.get(this.resolve(url, sizeQuery(size)));
  }

  /** The file itself (a download button), fetched with the token and not cached. */
  async fetchFile(url: string): Promise<Blob> {
    if (!this.isChatFile(url)) {
      const response = await this.options.fetch(url);
      if (!response.ok) throw errorFromResponse(response.status, {}, `GET ${url}`);
      return response.blob();
    }
    return this.download(this.resolve(url, {}));
  }

  /**
   * A URL `<video>` and `<audio>` elements can load: chat files get `api_key` and the current token as
   * `authorization` in the query; other URLs are returned unchanged.
   */
  mediaUrl(url: string): string;
  mediaUrl(url: string | undefined): string | undefined;
  mediaUrl(url: string | undefined): string | undefined {
    if (!this.isChatFile(url)) return url;
    const token = this.options.tokens().peek();
    return this.resolve(url, token === undefined ? {} : { authorization: token });
  }

  /** Revokes every object URL of the session and forgets the cache (called by `disconnectUser()`). */
  clear(): void {
    this.generation++;
    for (const objectUrl of this.held) (this.options.revokeObjectURL ?? URL.revokeObjectURL)(objectUrl);
    this.held.clear();
    this.entries.clear();
    this.done.clear();
    this.counts = { fetches: 0, hits: 0 };
  }

  get stats(): FileCacheStats {
    return { ...this.counts, held: this.held.size };
  }

  private async download(target: string): Promise<Blob> {
    try {
      return await this.attempt(target);
    } catch (error) {
      const tokens = this.options.tokens();
      if (error instanceof ChatApiError && error.tokenExpired && !tokens.anonymous) {
        await tokens.refresh();
        return this.attempt(target);
      }
      throw error;
    }
  }

  private async attempt(target: string): Promise<Blob> {
    this.counts.fetches++;
    const token = await this.options.tokens().get();
    const headers: Record<string, string> = { 'Auth-Type': token === undefined ? 'anonymous' : 'jwt' };
    if (token !== undefined) headers.Authorization = token;
    let response: Response;
    try {
      response = await this.options.fetch(target, { method: 'GET', headers });
    } catch (error) {
      throw new ChatApiError(`GET ${stripQuery(target)} failed: ${String(error)}`, {
        network: true,
        cause: error,
      });
    }
    if (!response.ok) {
      const text = await response.text();
      let body: unknown = {};
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        // Not a chat error body; the status says enough.
      }
      throw errorFromResponse(response.status, body, `GET ${stripQuery(target)}`);
    }
    return response.blob();
  }

  /** `url` under the client's base URL, with `api_key` and `extra` in its query. */
  private resolve(url: string, extra: Record<string, string>): string {
    const base = this.options.baseUrl.replace(/\/+$/, '');
    const full = url.startsWith(CHAT_FILE_PATH_PREFIX) ? `${base}${url.slice(CHAT_ROUTE.length)}` : url;
    const at = full.indexOf('?');
    const params = new URLSearchParams(at === -1 ? '' : full.slice(at + 1));
    params.set('api_key', this.options.apiKey);
    for (const [key, value] of Object.entries(extra)) params.set(key, value);
    return `${at === -1 ? full : full.slice(0, at)}?${params.toString()}`;
  }

  /** The chat server's origin: the base URL's, or the page's for a relative base. */
  private chatOrigin(): string | undefined {
    const location = (globalThis as { location?: { href: string } }).location;
    try {
      return new URL(this.options.baseUrl, location?.href).origin;
    } catch {
      return undefined;
    }
  }
}

function sizeQuery(size: BlobSize): Record<string, string> {
  const query: Record<string, string> = {};
  if (size.w !== undefined && size.w > 0) query.w = String(Math.round(size.w));
  if (size.h !== undefined && size.h > 0) query.h = String(Math.round(size.h));
  return query;
}

/** Error messages never carry the token or the key. */
function stripQuery(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? url : url.slice(0, at);
}
