import { ChatErrorCode } from '@caseroom/protocol';
import { ChatApiError } from './errors.js';
import type { FetchLike } from './api-client.js';

/** Bytes sent of a multipart upload. `total` is 0 when unknown. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/** Options of one upload (`channel.sendFile`, `channel.sendImage`). */
export interface UploadOptions {
  /** Called as bytes leave: many times with `XMLHttpRequest`, at start and end with `fetch`. */
  onProgress?: (progress: UploadProgress) => void;
  /** Aborts the upload; the promise rejects with a network `ChatApiError`. */
  signal?: AbortSignal;
}

/** The XMLHttpRequest constructor (browsers; jsdom in tests). */
export type XhrConstructor = new () => XMLHttpRequest;

export interface MultipartRequest extends UploadOptions {
  url: string;
  headers: Record<string, string>;
  body: FormData;
  /** What the request is, for error messages (`POST /channels/...`). */
  what: string;
}

export interface MultipartAnswer {
  status: number;
  text: string;
}

/**
 * Sends a multipart request. `XMLHttpRequest` when given, for its upload progress events (fetch has none in
 * browsers: a streamed request body needs HTTP/2 and half-duplex support); otherwise `fetch`, which reports 0 at the
 * start and the whole size at the end (Node, tests, the fake server). Both abort on `signal`.
 */
export function sendMultipart(
  request: MultipartRequest,
  transport: { xhr?: XhrConstructor | undefined; fetch: FetchLike },
): Promise<MultipartAnswer> {
  if (request.signal?.aborted) return Promise.reject(aborted(request.what));
  return transport.xhr ? viaXhr(request, transport.xhr) : viaFetch(request, transport.fetch);
}

function totalSize(body: FormData): number {
  let total = 0;
  body.forEach((value) => {
    total += typeof value === 'string' ? value.length : value.size;
  });
  return total;
}

function aborted(what: string): ChatApiError {
  return new ChatApiError(`${what} was aborted`, { network: true });
}

async function viaFetch(request: MultipartRequest, fetchImpl: FetchLike): Promise<MultipartAnswer> {
  const total = totalSize(request.body);
  request.onProgress?.({ loaded: 0, total });
  let response: Response;
  try {
    response = await fetchImpl(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      ...(request.signal ? { signal: request.signal } : {}),
    });
  } catch (error) {
    if (request.signal?.aborted) throw aborted(request.what);
    throw new ChatApiError(
      `${request.what} failed: ${error instanceof Error ? error.message : String(error)}`,
      {
        network: true,
        cause: error,
      },
    );
  }
  const text = await response.text();
  if (response.ok) request.onProgress?.({ loaded: total, total });
  return { status: response.status, text };
}

function viaXhr(request: MultipartRequest, Xhr: XhrConstructor): Promise<MultipartAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new Xhr();
    const onAbort = () => xhr.abort();
    const settle = () => request.signal?.removeEventListener('abort', onAbort);
    xhr.open('POST', request.url);
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event) =>
      request.onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 }),
    );
    xhr.addEventListener('load', () => {
      settle();
      resolve({ status: xhr.status, text: xhr.responseText });
    });
    xhr.addEventListener('error', () => {
      settle();
      reject(new ChatApiError(`${request.what} failed on the network`, { network: true }));
    });
    xhr.addEventListener('timeout', () => {
      settle();
      reject(
        new ChatApiError(`${request.what} timed out`, { network: true, code: ChatErrorCode.RequestTimeout }),
      );
    });
    xhr.addEventListener('abort', () => {
      settle();
      reject(aborted(request.what));
    });
    request.signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(request.body);
  });
}
