import type { ChatUser, OwnUser, SendMessageResponse } from '@caseroom/protocol';
import { toChatApiError } from '../transport/errors.js';
import type { Logger } from '../transport/logger.js';
import { received, toSendPayload, type LocalMessage } from './local-message.js';

/** Options of a send beside the message (chat-spec §7 send message: `skip_push`, `skip_enrich_url`). */
export interface SendOptions {
  skip_push?: boolean;
  /** The server adds no link preview (the user dismissed it in the composer). */
  skip_enrich_url?: boolean;
}

/** Where a local echo lives while its send runs (a channel's message sets, a thread's replies). */
export interface EchoHost {
  find(id: string): LocalMessage | undefined;
  upsert(message: LocalMessage): void;
  post(payload: ReturnType<typeof toSendPayload>, options?: SendOptions): Promise<SendMessageResponse>;
  logger: Logger;
}

/** The author shown on a local echo. */
export function echoUser(me: OwnUser | undefined): ChatUser {
  if (!me) throw new Error('Make sure to await connectUser() first.');
  return { id: me.id, ...(me.name ? { name: me.name } : {}), ...(me.image ? { image: me.image } : {}) };
}

/** The echo goes below what is shown even when this device's clock runs behind the server's. */
export function echoTime(newest: LocalMessage | undefined): Date {
  return new Date(Math.max(Date.now(), newest ? Date.parse(newest.created_at) + 1 : 0));
}

/**
 * Sends `message` with local echo (chat-spec §4 Message send): shown at once as `sending`, then
 * `received` (the server copy) or `failed` with the error. A 400 code 4 "already exists" counts as
 * received. Never throws for a server refusal.
 */
export async function deliverWithEcho(
  message: LocalMessage,
  host: EchoHost,
  options?: SendOptions,
): Promise<LocalMessage> {
  host.upsert(message);
  try {
    const answer = await host.post(toSendPayload(message), options);
    const current = host.find(message.id);
    // A message.new event may have merged the server copy already; keep whichever is newer.
    const done = current?.status === 'received' ? current : received(answer.message);
    host.upsert(done);
    return done;
  } catch (error) {
    const failure = toChatApiError(error);
    if (failure.alreadyExists) {
      const current = host.find(message.id);
      const done: LocalMessage =
        current?.status === 'received' ? current : { ...message, status: 'received' };
      host.upsert(done);
      return done;
    }
    host.logger('warn', `message send failed: ${failure.message}`, { id: message.id, code: failure.code });
    const failed: LocalMessage = { ...message, status: 'failed', error: failure.toJSON() };
    host.upsert(failed);
    return failed;
  }
}

/** The message again as `sending`, its error cleared (resend). */
export function forResend(message: LocalMessage): LocalMessage {
  const { error: _error, ...rest } = message;
  return { ...rest, status: 'sending' };
}
