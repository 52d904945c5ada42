/**
 * The browser's way to the Caseroom API: bearer token from local storage plus the session cookie on every call,
 * and one error type for the product's `{error: {status, message, toast?}}` and the auth library's
 * `{code, message}` answers.
 */

const TOKEN_KEY = 'caseroom.sessionToken';

export const sessionToken = {
  get(): string | null {
    try {
      return localStorage.getItem(TOKEN_KEY);
    } catch {
      return null;
    }
  },
  set(token: string): void {
    localStorage.setItem(TOKEN_KEY, token);
  },
  clear(): void {
    localStorage.removeItem(TOKEN_KEY);
  },
};

/** An API call that answered with an error status, or did not answer at all (`httpStatus` 0). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
    /** Machine-readable code: the product's `status` or the auth library's `code`. */
    readonly code?: string,
    /** Text meant for a toast, when the server gave one. */
    readonly toast?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isNetworkError(): boolean {
    return this.httpStatus === 0;
  }
}

interface ErrorBody {
  error?: { status?: string; message?: string; toast?: string };
  code?: string | number;
  message?: string;
}

async function toApiError(response: Response): Promise<ApiError> {
  let body: ErrorBody = {};
  try {
    body = (await response.json()) as ErrorBody;
  } catch {
    // not JSON: keep the status text
  }
  const message = body.error?.message ?? body.message ?? (response.statusText || `HTTP ${response.status}`);
  const code = body.error?.status ?? (body.code === undefined ? undefined : String(body.code));
  return new ApiError(message, response.status, code, body.error?.toast);
}

let onUnauthorized: (() => void) | undefined;

/** Called when an API call answers 401 outside `/api/auth` (the session ended elsewhere or expired). */
export function setUnauthorizedHandler(handler: (() => void) | undefined): void {
  onUnauthorized = handler;
}

/** Fetches `path` with the session's credentials; answers the raw response of a successful call. */
export async function apiRequest(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = sessionToken.get();
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
  if (init.body !== undefined && !headers.has('Content-Type'))
    headers.set('Content-Type', 'application/json');
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin', ...init, headers });
  } catch (err) {
    throw new ApiError(err instanceof Error ? err.message : String(err), 0);
  }
  if (!response.ok) {
    if (response.status === 401 && !path.startsWith('/api/auth/')) onUnauthorized?.();
    throw await toApiError(response);
  }
  return response;
}

/** `GET path` as JSON. */
export async function apiGet<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await apiRequest(path, signal ? { signal } : {});
  return (await response.json()) as T;
}

/** `POST path` with a JSON body; answers the JSON reply (or `undefined` for an empty one). */
export async function apiPost<T>(path: string, body: unknown = {}): Promise<T> {
  const response = await apiRequest(path, { method: 'POST', body: JSON.stringify(body) });
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Calls a product callable function (`POST /api/functions/{name}`) and answers its `result`. */
export async function callFunction<T>(name: string, data?: unknown): Promise<T> {
  const body = await apiPost<{ result: T } & ErrorBody>(`/api/functions/${encodeURIComponent(name)}`, {
    data,
  });
  if (body.error) {
    throw new ApiError(body.error.message ?? name, 200, body.error.status, body.error.toast);
  }
  return body.result;
}
