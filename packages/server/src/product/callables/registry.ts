import type { z } from 'zod';
import type { ChatServerApi } from '../../chat/server-api.js';
import type { Queryable } from '../../platform/db.js';
import type { Caller } from '../http/authenticate.js';

/** What a callable's steps receive inside its transaction. */
export interface CallContext {
  caller: Caller;
  /** The callable's transaction: every read and write of the call goes through it. */
  q: Queryable;
  /**
   * Chat's server API bound to the same transaction: the chat changes a product change implies commit with it,
   * and their events are sent only after the commit (nothing when it rolls back).
   */
  chat: ChatServerApi;
}

/**
 * A product callable function (`POST /api/functions/{name}`): validate -> authorize -> act, the last two in
 * one transaction with the chat writes they imply (`ctx.chat`), then chat's events, then (optionally)
 * `afterCommit` for what is no database write (a token, a disconnect). Nothing is written, and nothing sent, when
 * any step throws before the commit.
 */
export interface Callable<S extends z.ZodType = z.ZodType, Staged = unknown, Result = Staged> {
  name: string;
  /** Schema of `data`; `undefined` data is validated too (use `.optional()` for "no payload"). */
  data: S;
  /** Throws a ProductError (`permission-denied`, `not-found`) when the caller may not make this call. */
  authorize(ctx: CallContext, data: z.infer<S>): Promise<void>;
  /** Does the work in the transaction and answers the result (or what `afterCommit` needs). */
  action(ctx: CallContext, data: z.infer<S>): Promise<Staged>;
  /** Runs after the commit, outside the transaction; answers the result. */
  afterCommit?(caller: Caller, staged: Staged): Promise<Result>;
}

/** Helper that keeps a callable's types tied to its schema. */
export function defineCallable<S extends z.ZodType, Staged, Result = Staged>(
  callable: Callable<S, Staged, Result>,
): Callable<S, Staged, Result> {
  return callable;
}

/** The callables by name. */
export class CallableRegistry {
  private readonly byName = new Map<string, Callable<z.ZodType, unknown, unknown>>();

  add(...callables: Callable<z.ZodType, unknown, unknown>[]): this {
    for (const c of callables) {
      if (this.byName.has(c.name)) throw new Error(`callable ${c.name} registered twice`);
      this.byName.set(c.name, c);
    }
    return this;
  }

  get(name: string): Callable<z.ZodType, unknown, unknown> | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()].sort();
  }
}
