import { CHAT_TIMING, ChatErrorCode } from '@caseroom/protocol';
import { ChatApiError } from './errors.js';
import type { Logger } from './logger.js';
import { sendMultipart, type UploadOptions, type XhrConstructor } from './multipart.js';
import type { TokenManager } from './token-manager.js';

export type FetchLike = typeof fetch;

export interface ApiClientOptions {
  apiKey: string;
  /** `/chat` or `http://host:port/chat`. */
  baseUrl: string;
  fetch: FetchLike;
  /** The current user's tokens (replaced on every connectUser). */
  tokens: () => TokenManager;
  logger: Logger;
  /** Default 3 s (chat-spec §7). */
  timeoutMs?: number;
  /** Current user id and connection id, added to every request's query. */
  identity: () => { userId?: string | undefined; connectionId?: string | undefined };
  /** Uploads go through XMLHttpRequest when given (progress events); else through `fetch`. */
  xhr?: XhrConstructor | undefined;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  timeoutMs?: number;
  /** Aborts the request (a closed long-poll connection). */
  signal?: AbortSignal;
}

const CLIENT_HEADER = 'caseroom-sdk-js-0.1.0';

/**
 * The chat REST client: every call carries `Authorization`, `Auth-Type`, `X-Client-Request-Id`, and
 * `api_key`, `user_id`, `connection_id` in the query (chat-spec §7). An expired token (code 40) is
 * refreshed through the token provider and the call retried once.
 */
export class ApiClient {
  private readonly timeoutMs: number;

  constructor(private readonly options: ApiClientOptions) {
    this.timeoutMs = options.timeoutMs ?? CHAT_TIMING.httpTimeoutMs;
  }

  get<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('GET', path, options);
  }

  post<T>(path: string, body: unknown = {}, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('POST', path, { ...options, body });
  }

  delete<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('DELETE', path, options);
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return this.withTokenRetry(path, () => this.attempt<T>(method, path, options));
  }

  /**
   * `POST` of a multipart body (uploads): no timeout (big files take long; abort with `signal`), progress through
   * `onProgress`. The same headers, query and token refresh as every call.
   */
  upload<T>(path: string, body: FormData, options: UploadOptions = {}): Promise<T> {
    return this.withTokenRetry(path, async () => {
      const what = `POST ${path}`;
      const headers = this.headers(await this.options.tokens().get());
      const answer = await sendMultipart(
        { ...options, url: this.url(path), headers, body, what },
        { xhr: this.options.xhr, fetch: this.options.fetch },
      );
      const parsed = parseJson(answer.text);
      if (answer.status < 200 || answer.status >= 300) throw errorFromResponse(answer.status, parsed, what);
      return parsed as T;
    });
  }

  private async withTokenRetry<T>(path: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ChatApiError && error.tokenExpired && !this.options.tokens().anonymous) {
        this.options.logger('info', 'chat token expired; refreshing and retrying', { path });
        await this.options.tokens().refresh();
        return call();
      }
      throw error;
    }
  }

  private headers(token: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      'Auth-Type': token === undefined ? 'anonymous' : 'jwt',
      'X-Client-Request-Id': crypto.randomUUID(),
      'X-Caseroom-Client': CLIENT_HEADER,
    };
    if (token !== undefined) headers.Authorization = token;
    return headers;
  }

  /** Absolute or relative URL of `path` under the base URL, with the standard query. */
  url(path: string, query: RequestOptions['query'] = {}): string {
    const { userId, connectionId } = this.options.identity();
    const params = new URLSearchParams();
    params.set('api_key', this.options.apiKey);
    if (userId !== undefined) params.set('user_id', userId);
    if (connectionId !== undefined) params.set('connection_id', connectionId);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}?${params.toString()}`;
  }

  private async attempt<T>(method: string, path: string, options: RequestOptions): Promise<T> {
    const headers = this.headers(await this.options.tokens().get());
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';

    const controller = new AbortController();
    options.signal?.addEventListener('abort', () => controller.abort(), { once: true });
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    let response: Response;
    try {
      response = await this.options.fetch(this.url(path, options.query), {
        method,
        headers,
        body: options.body === undefined ? null : JSON.stringify(options.body),
        signal: controller.signal,
      });
    } catch (error) {
      if (timedOut) {
        throw new ChatApiError(`${method} ${path} timed out after ${timeoutMs} ms`, {
          code: ChatErrorCode.RequestTimeout,
          network: true,
        });
      }
      throw new ChatApiError(
        `${method} ${path} failed: ${error instanceof Error ? error.message : String(error)}`,
        {
          network: true,
          cause: error,
        },
      );
    } finally {
      clearTimeout(timer);
    }
    const text = await response.text();
    const body = parseJson(text);
    if (!response.ok) throw errorFromResponse(response.status, body, `${method} ${path}`);
    return body as T;
  }
}

function parseJson(text: string): unknown {
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { raw: text };
  }
}

/** chat-spec §8: error-from-response carries status, code and message. */
export function errorFromResponse(status: number, body: unknown, what: string): ChatApiError {
  const data = (typeof body === 'object' && body !== null ? body : {}) as {
    code?: unknown;
    message?: unknown;
  };
  const message = typeof data.message === 'string' ? data.message : `${what} answered HTTP ${status}`;
  return new ChatApiError(message, {
    status,
    ...(typeof data.code === 'number' ? { code: data.code } : {}),
  });
}
