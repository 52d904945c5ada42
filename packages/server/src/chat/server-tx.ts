import type { Db, Tx } from '../platform/db.js';
import type { ChatContext } from './context.js';
import type { Delivery, Realtime } from './realtime/fanout.js';
import type { ChatServerApi } from './server-api.js';

/** Chat's server API bound to a caller's transaction, and the step that publishes its events after the commit. */
export interface ChatInTx {
  chat: ChatServerApi;
  /** Publishes the events the chat writes staged (and runs their hooks). Call only after the caller committed. */
  publish(): Promise<void>;
}

/**
 * Chat's server API inside the caller's transaction `q` (issue 13 §8: a product change and the chat changes it implies
 * commit together). Every chat action then reads and writes through `q` (its own `write` joins `q` instead of
 * opening a transaction; PGlite has one connection, so it must), records its events in `q` (they go in with the
 * caller's `COMMIT`), and stages its deliveries and `message.new` hooks here instead of sending them: the caller
 * calls `publish()` once it committed, and drops the whole binding when it rolled back, so nothing was sent for a
 * change that never happened.
 */
export function chatWithin(
  ctx: ChatContext,
  q: Tx,
  serverApi: (ctx: ChatContext) => ChatServerApi,
): ChatInTx {
  const deliveries: Delivery[] = [];
  const hooks: Array<() => Promise<void>> = [];
  // A chat action never ends the caller's transaction: its one-round-trip `commit(text)` runs `text` only.
  const joined: Tx = {
    query: (text, params) => q.query(text, params),
    beforeCommit: (text) => q.beforeCommit(text),
    commit: (text) => q.query(text),
  };
  const db: Db = {
    kind: ctx.db.kind,
    pool: ctx.db.pool,
    query: (text, params) => q.query(text, params),
    tx: (fn) => fn(joined),
    close: () => Promise.reject(new Error('a chat transaction binding does not own its database')),
  };
  // The node's realtime, except that publishing stages the deliveries.
  const realtime = Object.create(ctx.realtime) as Realtime;
  realtime.publish = (list: readonly Delivery[]) => {
    deliveries.push(...list);
    return Promise.resolve();
  };
  const staged: ChatContext = {
    ...ctx,
    db,
    realtime,
    afterCommit: (task) => {
      hooks.push(task);
    },
    hooks: {
      ...ctx.hooks,
      messageNew: ctx.hooks.messageNew.map((hook) => (event) => {
        hooks.push(async () => hook(event));
      }),
    },
  };
  return {
    chat: serverApi(staged),
    async publish() {
      await ctx.realtime.publish(deliveries.splice(0));
      for (const hook of hooks.splice(0)) {
        await hook().catch((err: unknown) => ctx.log.error({ err }, 'message.new hook failed'));
      }
    },
  };
}

/** PostgreSQL's "try again" errors: serialization failure and deadlock. */
export function isRetryable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}

/** Attempts of a transaction that fails with {@link isRetryable} errors. */
export const TX_ATTEMPTS = 3;

/**
 * Runs `fn` in one transaction with chat's server API bound to it, publishes chat's events after the commit, and
 * runs it again (a fresh transaction, nothing published) on a serialization failure or deadlock.
 */
export async function txWithChat<T>(
  db: Db,
  chat: ChatServerApi,
  fn: (q: Tx, chat: ChatServerApi) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let bound: ChatInTx | undefined;
    let result: T;
    try {
      result = await db.tx((q) => {
        bound = chat.within(q);
        return fn(q, bound.chat);
      });
    } catch (err) {
      if (attempt >= TX_ATTEMPTS || !isRetryable(err)) throw err;
      continue;
    }
    await bound?.publish();
    return result;
  }
}
