/**
 * The part of a WebSocket the SDK uses. Both the browser's `WebSocket` and the `ws` package fit,
 * as does the fake socket of `@caseroom/sdk/testing`.
 */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** A WebSocket class (`globalThis.WebSocket`, `ws`, or a fake). Typed loosely so any of them is accepted. */
export type WebSocketConstructor = new (url: string) => object;

export const WS_OPEN = 1;
/** chat-spec §8: normal close. */
export const WS_NORMAL_CLOSE = 1000;

export function openWebSocket(ctor: WebSocketConstructor, url: string): WebSocketLike {
  return new ctor(url) as WebSocketLike;
}

/** Frame data as text (browsers give strings; `ws` may give Buffers). */
export function frameText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
  if (ArrayBuffer.isView(data)) return new TextDecoder().decode(data);
  if (Array.isArray(data)) return data.map(frameText).join('');
  return String(data);
}
