import { SEARCH_LIMITS, type SearchRequest, type SearchResponse } from '@caseroom/protocol';
import type { Actor, ChatContext } from '../context.js';
import { inputError } from '../errors.js';
import { ownCapabilities } from '../policy/capabilities.js';
import { roleOf } from '../policy/channel-access.js';
import { presentChannel } from '../presenters/channel.js';
import { channelReadableSql, messageVisibleSql, readableChannelSql } from '../policy/read-access.js';
import { CHANNEL_COLUMNS, getMemberships } from '../store/channels.js';
import { ChannelFilter } from '../store/channel-filter.js';
import { messageFilterSql, prefixQuery } from '../store/message-filter.js';
import { loadRules } from '../store/policy.js';
import type { ChannelRow, MessageRow } from '../store/rows.js';
import { getUser } from '../store/users.js';
import { decodeCursor, encodeCursor, keysetCondition, type SortKey } from '../store/search-cursor.js';
import { presentRows } from '../views/messages.js';

/** At most this many channels are searched at once (the filter should narrow further). */
const MAX_SEARCH_CHANNELS = 1000;

function offsetOf(req: SearchRequest): number {
  if (req.offset !== undefined && req.next !== undefined) throw inputError('Cannot specify offset with next');
  const offset = req.offset ?? 0;
  if (offset > SEARCH_LIMITS.maxOffset) throw inputError(`offset may be at most ${SEARCH_LIMITS.maxOffset}`);
  return offset;
}

/** The channels the actor may search: readable, matching the filter, with search-messages. */
async function searchableChannels(ctx: ChatContext, actor: Actor, filter: Record<string, unknown>) {
  const viewerId = actor.kind === 'user' ? actor.userId : undefined;
  const f = new ChannelFilter(viewerId !== undefined);
  const join = viewerId ? `JOIN chat_members vm ON vm.cid = c.cid AND vm.user_id = ${f.param(viewerId)}` : '';
  const where = [f.toSql(filter), viewerId ? readableChannelSql('c', 'vm') : channelReadableSql('c')];
  const { rows } = await ctx.db.query<ChannelRow>(
    `SELECT ${CHANNEL_COLUMNS} FROM chat_channels c ${join} WHERE ${where.join(' AND ')}
      ORDER BY c.cid LIMIT ${MAX_SEARCH_CHANNELS}`,
    f.params,
  );
  if (!viewerId) return { channels: rows };
  const memberships = await getMemberships(
    ctx.db,
    rows.map((r) => r.cid),
    viewerId,
  );
  const rules = await loadRules(
    ctx.db,
    rows.map((r) => r.type),
  );
  const role = roleOf(actor, await getUser(ctx.db, viewerId));
  const channels = rows.filter((c) =>
    ownCapabilities(c, { role, member: memberships.get(c.cid), rules }).includes('search-messages'),
  );
  return { channels };
}

/**
 * `GET /chat/search`: PostgreSQL full-text search (a generated tsvector with a GIN index, prefix matching) over the
 * caller's channels; deleted, truncated, cleared and deleted-for-me messages never match.
 */
export async function searchMessages(
  ctx: ChatContext,
  actor: Actor,
  req: SearchRequest,
): Promise<SearchResponse> {
  const offset = offsetOf(req);
  if (req.query === undefined && !req.message_filter_conditions) {
    throw inputError('either query or message_filter_conditions is required');
  }
  const limit = req.limit ?? SEARCH_LIMITS.defaultLimit;
  const { channels } = await searchableChannels(ctx, actor, req.filter_conditions);
  if (channels.length === 0) return { results: [] };
  const viewerId = actor.kind === 'user' ? actor.userId : undefined;
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  // The read rule's message condition: inside the viewer's view (truncation, cleared history) and not deleted
  // for them. The server (no viewer) has no member row (`vm` all NULL) and hid nothing.
  const viewer = p(viewerId ?? null);
  const where = [
    "m.type NOT IN ('deleted', 'system', 'error', 'ephemeral')",
    messageVisibleSql({ message: 'm', member: 'vm', channel: 'sc', viewer: `${viewer}::text` }),
  ];
  const tsquery = req.query !== undefined ? prefixQuery(req.query) : undefined;
  if (req.query !== undefined) {
    if (!tsquery) return { results: [] };
    where.push(`m.search_tsv @@ to_tsquery('simple', ${p(tsquery)})`);
  }
  if (req.message_filter_conditions) where.push(messageFilterSql(req.message_filter_conditions, p));
  // Built only when sorted by: an unused parameter has no type PostgreSQL can infer.
  const rank = () => (tsquery ? `ts_rank(m.search_tsv, to_tsquery('simple', ${p(tsquery)}))` : 'm.seq');
  const sort = req.sort?.length ? req.sort : [{ field: tsquery ? 'relevance' : 'created_at', direction: -1 }];
  const keys: SortKey[] = [
    ...sort.map((s): SortKey => {
      const desc = s.direction !== 1;
      if (s.field === 'relevance' && tsquery) return { sql: rank(), cast: 'real', desc };
      if (s.field === 'relevance') return { sql: 'm.seq', cast: 'bigint', desc };
      const col = s.field === 'updated_at' ? 'm.updated_at' : 'm.created_at';
      return { sql: col, cast: 'timestamptz', desc };
    }),
    // `seq` orders one channel; the id breaks ties between channels (same time, same seq).
    { sql: 'm.seq', cast: 'bigint', desc: true },
    { sql: 'm.id', cast: 'text', desc: true },
  ];
  if (req.next !== undefined) where.push(keysetCondition(keys, decodeCursor(keys, req.next), p));
  const sql = `SELECT m.*, ${keys.map((k, i) => `(${k.sql})::text AS k${i}`).join(', ')} FROM chat_messages m
       JOIN chat_channels sc ON sc.cid = m.cid AND sc.cid = ANY(${p(channels.map((c) => c.cid))}::text[])
       LEFT JOIN chat_members vm ON vm.cid = m.cid AND vm.user_id = ${viewer}::text
      WHERE ${where.join(' AND ')}
      ORDER BY ${keys.map((k) => `${k.sql} ${k.desc ? 'DESC' : 'ASC'}`).join(', ')}
      LIMIT ${p(limit + 1)} OFFSET ${p(offset)}`;
  const { rows } = await ctx.db.query<MessageRow & Record<string, unknown>>(sql, params);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const cursor = last && rows.length > limit ? keys.map((_, i) => String(last[`k${i}`])) : undefined;
  const messages = await presentRows(ctx.db, page, viewerId);
  const byCid = new Map(channels.map((c) => [c.cid, c]));
  const results = messages.map((message) => {
    const channel = byCid.get(message.cid);
    return { message: { ...message, ...(channel ? { channel: presentChannel(channel, undefined) } : {}) } };
  });
  return { results, ...(cursor ? { next: encodeCursor(keys, cursor) } : {}) };
}
