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

/** A failed protocol parse as code 4 naming the field. */
export function invalidInput(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }) {
  const issue = error.issues[0];
  const where = issue?.path.length ? issue.path.map(String).join('.') : 'body';
  return inputError(`${where}: ${issue?.message ?? 'invalid'}`);
}
export const notFound = (message: string) => new ChatError(ChatErrorCode.DoesNotExist, message, 404);
export const notAllowed = (message: string) => new ChatError(ChatErrorCode.NotAllowed, message, 403);
export const authFailed = (message: string) =>
  new ChatError(ChatErrorCode.AuthenticationFailed, message, 401);
