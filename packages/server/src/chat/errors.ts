import { ChatErrorCode, type ChatErrorBody } from '@caseroom/protocol';

/** A chat API failure: a numeric code of chat-spec §8 and the HTTP status it answers with. */
export class ChatError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ChatError';
  }

  toBody(): ChatErrorBody {
    return { code: this.code, message: this.message, StatusCode: this.status };
  }
}

export const inputError = (message: string) => new ChatError(ChatErrorCode.InputError, message, 400);
export const notFound = (message: string) => new ChatError(ChatErrorCode.DoesNotExist, message, 404);
export const notAllowed = (message: string) => new ChatError(ChatErrorCode.NotAllowed, message, 403);
export const authFailed = (message: string) =>
  new ChatError(ChatErrorCode.AuthenticationFailed, message, 401);
