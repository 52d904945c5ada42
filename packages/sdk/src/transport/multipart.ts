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
 * browsers: a streamed request body needs HTTP/2 and half-duplex support); otherwise `fetch`: outside browsers the
 * body goes as a stream that counts the bytes read (Node), in a browser as it is (0 at the start, the whole size at
 * the end). Both abort on `signal`.
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

/**
 * Outside browsers (Node's fetch streams request bodies): the multipart body as a stream that reports the bytes
 * read from it. Undefined in browsers (a streamed request body needs HTTP/2 there; they use XMLHttpRequest).
 */
function countingBody(
  body: FormData,
  total: number,
  onProgress: (progress: UploadProgress) => void,
): { stream: ReadableStream<Uint8Array>; type: string } | undefined {
  if (typeof XMLHttpRequest !== 'undefined' || typeof TransformStream === 'undefined') return undefined;
  const encoded = new Response(body);
  const type = encoded.headers.get('content-type');
  if (!encoded.body || !type) return undefined;
  let sent = 0;
  let reported = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      sent += chunk.byteLength;
      // The encoded body is a little larger than the file (boundaries, part headers): never past the total.
      const loaded = Math.min(sent, total);
      if (loaded > reported) onProgress({ loaded, total });
      reported = loaded;
      controller.enqueue(chunk);
    },
  });
  return { stream: encoded.body.pipeThrough(counter), type };
}

async function viaFetch(request: MultipartRequest, fetchImpl: FetchLike): Promise<MultipartAnswer> {
  const total = totalSize(request.body);
  request.onProgress?.({ loaded: 0, total });
  const counted = request.onProgress ? countingBody(request.body, total, request.onProgress) : undefined;
  let response: Response;
  try {
    response = await fetchImpl(request.url, {
      method: 'POST',
      headers: counted ? { ...request.headers, 'Content-Type': counted.type } : request.headers,
      body: counted ? counted.stream : request.body,
      // Node's fetch sends a stream body only half-duplex (not in the DOM's RequestInit types).
      ...(counted ? ({ duplex: 'half' } as RequestInit) : {}),
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
