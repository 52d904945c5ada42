import { CallableRequest } from '@caseroom/protocol';
import type { ChatServerApi } from '../../chat/server-api.js';
import { txWithChat } from '../../chat/server-tx.js';
import type { Db } from '../../platform/db.js';
import { ProductError } from '../errors.js';
import type { Caller } from '../http/authenticate.js';
import type { CallableRegistry } from './registry.js';

/**
 * Runs one callable for an authenticated caller: parse the body, validate `data`, authorize and act in one
 * transaction (with chat's writes; run again on a serialization failure or deadlock), publish chat's events, then
 * the after-commit step. Throws ProductError (or ZodError, answered 400) on failure.
 */
export async function runCallable(
  registry: CallableRegistry,
  db: Db,
  chat: ChatServerApi,
  name: string,
  caller: Caller,
  body: unknown,
): Promise<unknown> {
  const callable = registry.get(name);
  if (!callable) throw new ProductError('not-found', `Unknown function: ${name}`);
  const request = CallableRequest.safeParse(body ?? {});
  if (!request.success) throw new ProductError('invalid-argument', 'Body must be {"data": ...}');
  const data: unknown = callable.data.parse(request.data.data);
  const staged = await txWithChat(db, chat, async (q, chatInTx) => {
    const ctx = { caller, q, chat: chatInTx };
    await callable.authorize(ctx, data);
    return callable.action(ctx, data);
  });
  return callable.afterCommit ? callable.afterCommit(caller, staged) : staged;
}
