import { z } from 'zod';
import type { ChatServerApi } from '../../chat/server-api.js';
import { unauthenticated } from '../errors.js';
import { chatUserFor } from '../users/chat-user.js';
import { defineCallable } from './registry.js';

/**
 * Chat tokens live 5 minutes (the SDK asks for a new one on code 40), so a chat opened with a session that has
 * since ended cannot outlive it by more than that even on a node that missed the revocation.
 */
export const CHAT_TOKEN_TTL_SECONDS = 5 * 60;

/** Chat callables: `chat-getToken`. */
export function chatCallables(chat: ChatServerApi) {
  const getToken = defineCallable({
    name: 'chat-getToken',
    data: z.unknown(),
    // Every signed-in user may connect to chat as themselves, and only as themselves.
    authorize: async () => undefined,
    // The chat user is upserted (name, image, clientOf, guestOf; nothing written when unchanged) in the
    // transaction, and the token to connect as it handed out after the commit.
    action: async ({ caller, q, chat: chatInTx }) => {
      const user = await chatUserFor(q, caller.uid);
      if (!user) throw unauthenticated();
      await chatInTx.upsertUsers([user]);
      return null;
    },
    afterCommit: (caller) => chat.createToken(caller.uid, CHAT_TOKEN_TTL_SECONDS),
  });
  return [getToken];
}
