import { ChatApiError } from './errors.js';

/** An error frame: `{"error": {code, message}}` or a bare `{code, message, StatusCode}`. */
export function frameError(frame: Record<string, unknown>): ChatApiError | undefined {
  const body = (typeof frame.error === 'object' && frame.error !== null ? frame.error : frame) as Record<
    string,
    unknown
  >;
  if (frame.type !== undefined && frame.error === undefined) return undefined;
  if (typeof body.code !== 'number') return undefined;
  return new ChatApiError(typeof body.message === 'string' ? body.message : 'chat socket error', {
    code: body.code,
    ...(typeof body.StatusCode === 'number' ? { status: body.StatusCode } : {}),
  });
}

/** Servers may put the chat error code in the close reason, as JSON or as "code 40". */
export function errorCodeFromReason(reason: string): number | undefined {
  try {
    const parsed = JSON.parse(reason) as { code?: unknown };
    if (typeof parsed.code === 'number') return parsed.code;
  } catch {
    // not JSON
  }
  const match = /\bcode[ :=]+(-?\d+)/i.exec(reason);
  return match ? Number(match[1]) : undefined;
}
