import type { Reaction } from '@caseroom/protocol';
import type { ApiClient } from '../transport/api-client.js';

/** chat-spec §9: reactions are fetched in pages of 300, at most 1200 in all. */
export const REACTION_PAGE_SIZE = 300;
export const REACTIONS_FETCH_MAX = 1200;

export interface ReactionQuery {
  /** Only reactions of this type. */
  type?: string;
  /** Page size, at most 300 (default 300). */
  limit?: number;
  /** Skip this many (newest first). Not together with `next`. */
  offset?: number;
  /** The `next` of the previous page. */
  next?: string;
}

export interface ReactionPage {
  /** Newest first, each with its user. */
  reactions: Reaction[];
  /** Pass as `next` for the following page; absent on the last page. */
  next?: string;
}

/**
 * One page of a message's reactions (`GET /messages/{id}/reactions`). The server pages by offset;
 * `next` is an opaque token for the offset of the following page, given when the page came back full.
 */
export async function queryReactionPage(
  api: ApiClient,
  messageId: string,
  query: ReactionQuery = {},
): Promise<ReactionPage> {
  if (!messageId) throw new Error('Please specify the messageId when querying reactions');
  if (query.offset !== undefined && query.next !== undefined)
    throw new Error('Cannot specify offset with next');
  const limit = Math.max(1, Math.min(query.limit ?? REACTION_PAGE_SIZE, REACTION_PAGE_SIZE));
  const offset = query.next !== undefined ? decodeNext(query.next) : (query.offset ?? 0);
  const answer = await api.get<{ reactions: Reaction[] }>(
    `/messages/${encodeURIComponent(messageId)}/reactions`,
    {
      query: { limit, offset, ...(query.type ? { type: query.type } : {}) },
    },
  );
  const reactions = answer.reactions;
  return reactions.length >= limit
    ? { reactions, next: `offset:${offset + reactions.length}` }
    : { reactions };
}

/** Every reaction of a message up to `max` (default 1200), in pages of 300. */
export async function queryAllReactions(
  api: ApiClient,
  messageId: string,
  options: { type?: string; max?: number } = {},
): Promise<Reaction[]> {
  const max = Math.min(options.max ?? REACTIONS_FETCH_MAX, REACTIONS_FETCH_MAX);
  const all: Reaction[] = [];
  let next: string | undefined;
  do {
    const page = await queryReactionPage(api, messageId, {
      ...(options.type ? { type: options.type } : {}),
      limit: Math.min(REACTION_PAGE_SIZE, max - all.length),
      ...(next ? { next } : {}),
    });
    all.push(...page.reactions);
    next = page.next;
  } while (next && all.length < max);
  return all;
}

function decodeNext(next: string): number {
  const match = /^offset:(\d+)$/.exec(next);
  if (!match) throw new Error(`Invalid type string for query parameter next: "${next}"`);
  return Number(match[1]);
}
