import type { QueryReactionsRequest, QueryReactionsResponse } from '@caseroom/protocol';
import { MESSAGE_QUERY_DEFAULT_LIMIT } from '@caseroom/protocol';
import type { Actor, ChatContext } from '../context.js';
import { inputError } from '../errors.js';
import { presentReaction } from '../presenters/message.js';
import type { ReactionRow } from '../store/rows.js';
import { decodeCursor, encodeCursor, keysetCondition, type SortKey } from '../store/search-cursor.js';
import { getUsers } from '../store/users.js';
import { visibleMessageForActor } from '../views/messages.js';

/** Reactions per page (chat-spec §9: pages of 300). */
const REACTION_PAGE_MAX = 300;

/** A page of reactions: created_at, then user and type (together unique on a message) to break ties. */
function reactionKeys(desc: boolean): SortKey[] {
  return [
    { sql: 'r.created_at', cast: 'timestamptz', desc },
    { sql: 'r.user_id', cast: 'text', desc },
    { sql: 'r.type', cast: 'text', desc },
  ];
}

export interface ReactionPageOptions {
  type?: string | undefined;
  userId?: string | undefined;
  /** Default: newest first. */
  desc?: boolean;
  limit: number;
  offset?: number | undefined;
  next?: string | undefined;
}

/**
 * `POST /chat/messages/{id}/reactions` (query) and `GET /chat/messages/{id}/reactions` (list): a message's
 * reactions for whoever can read it (code 16 also before the caller's cut-off, 17 outside the channel), filtered
 * by type and user, paged by a keyset `next` (or, for the list, an offset, not both).
 */
export async function pageReactions(
  ctx: ChatContext,
  actor: Actor,
  messageId: string,
  opts: ReactionPageOptions,
): Promise<QueryReactionsResponse> {
  if (opts.next !== undefined && opts.offset) throw inputError('Cannot specify offset with next');
  await visibleMessageForActor(ctx.db, actor, messageId);
  const keys = reactionKeys(opts.desc ?? true);
  const params: unknown[] = [messageId];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = ['r.message_id = $1'];
  if (opts.type !== undefined) where.push(`r.type = ${p(opts.type)}`);
  if (opts.userId !== undefined) where.push(`r.user_id = ${p(opts.userId)}`);
  if (opts.next !== undefined) where.push(keysetCondition(keys, decodeCursor(keys, opts.next), p));
  const limit = Math.min(Math.max(opts.limit, 1), REACTION_PAGE_MAX);
  const order = keys.map((k) => `${k.sql} ${k.desc ? 'DESC' : 'ASC'}`).join(', ');
  const { rows } = await ctx.db.query<ReactionRow & { k_at: string }>(
    `SELECT r.*, r.created_at::text AS k_at FROM chat_reactions r WHERE ${where.join(' AND ')}
      ORDER BY ${order} LIMIT ${p(limit + 1)} OFFSET ${p(opts.offset ?? 0)}`,
    params,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const users = await getUsers(
    ctx.db,
    page.map((r) => r.user_id),
  );
  return {
    reactions: page.map(({ k_at: _k, ...r }) => presentReaction(r, users)),
    ...(rows.length > limit && last
      ? { next: encodeCursor(keys, [last.k_at, last.user_id, last.type]) }
      : {}),
  };
}

/** The body of `POST /chat/messages/{id}/reactions` as page options. */
export function reactionQueryOptions(req: QueryReactionsRequest): ReactionPageOptions {
  return {
    type: req.filter?.type?.$eq,
    userId: req.filter?.user_id?.$eq,
    desc: (req.sort?.[0]?.direction ?? -1) === -1,
    limit: req.limit ?? MESSAGE_QUERY_DEFAULT_LIMIT,
    next: req.next,
  };
}
