import { ChatErrorCode, RETRYABLE_CHAT_CODES } from '@caseroom/protocol';

/** A failed chat call: the server's error body, a timeout or a network failure. */
export class ChatApiError extends Error {
  override readonly name = 'ChatApiError';
  /** chat-spec §8 numeric code, when the server sent one (23 for a client-side timeout). */
  readonly code: number | undefined;
  /** HTTP status, when a response arrived. */
  readonly status: number | undefined;
  /** True when no response arrived at all (offline, refused, aborted). */
  readonly network: boolean;

  constructor(
    message: string,
    options: { code?: number; status?: number; network?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.status = options.status;
    this.network = options.network ?? false;
  }

  /** chat-spec §8: retryable codes, plus timeouts and network failures. */
  get retryable(): boolean {
    if (this.network) return true;
    return this.code !== undefined && RETRYABLE_CHAT_CODES.has(this.code);
  }

  get tokenExpired(): boolean {
    return this.code === ChatErrorCode.TokenExpired;
  }

  /** chat-spec §4: a repeat send of a client-chosen id answers 400, code 4, "... already exists". */
  get alreadyExists(): boolean {
    return this.code === ChatErrorCode.InputError && /already exists/i.test(this.message);
  }

  /** Plain data for stores (errors are kept in immutable snapshots). */
  toJSON(): { code?: number; status?: number; message: string } {
    return {
      message: this.message,
      ...(this.code !== undefined ? { code: this.code } : {}),
      ...(this.status !== undefined ? { status: this.status } : {}),
    };
  }
}

/** Any thrown value as a ChatApiError. */
export function toChatApiError(error: unknown): ChatApiError {
  if (error instanceof ChatApiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ChatApiError(message, { cause: error });
}
